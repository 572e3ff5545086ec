package dev.ssdpulse.producer.integrity;

import dev.ssdpulse.schemas.iobatch.IoFlags;
import java.util.HashMap;
import java.util.Map;

/**
 * The first pass over a run's log: the written range, the number space of the sequences, the last completed FLUSH
 * and how far the log covers the run, which the second pass ({@link WriteLog}) needs before it can place anything.
 */
final class LogScan implements RunLog.Visitor {
    long writes;
    long stampedWrites;
    long fuaWrites;
    long failedWrites;
    long flushes;
    long maxSequence = -1;
    long minUnit = Long.MAX_VALUE;
    long endUnit = Long.MIN_VALUE;
    long lastFlushSubmitNs = -1;
    long lastCompletionNs;
    private int lastPhase = -1;
    /** worker -> {phase of its last I/O, its latest completion}. */
    private final Map<Integer, long[]> workers = new HashMap<>();

    @Override
    public void write(
            int worker,
            int phaseIndex,
            long sequence,
            long offsetBytes,
            int sizeBytes,
            long submitNs,
            long completeNs,
            int flags,
            int status) {
        seen(worker, phaseIndex, completeNs);
        if (status != 0) {
            failedWrites++;
            return;
        }
        writes++;
        if (sequence == IoFlags.NO_SEQUENCE) {
            return;
        }
        stampedWrites++;
        if (IoFlags.isFua(flags)) {
            fuaWrites++;
        }
        maxSequence = Math.max(maxSequence, sequence);
        minUnit = Math.min(minUnit, offsetBytes >>> UnitStamp.UNIT_SHIFT);
        endUnit = Math.max(endUnit, (offsetBytes + sizeBytes) >>> UnitStamp.UNIT_SHIFT);
    }

    @Override
    public void flush(int worker, int phaseIndex, long submitNs, long completeNs, int status) {
        seen(worker, phaseIndex, completeNs);
        if (status == 0) {
            flushes++;
            lastFlushSubmitNs = Math.max(lastFlushSubmitNs, submitNs);
        }
    }

    @Override
    public void trim(
            int worker, int phaseIndex, long offsetBytes, long sizeBytes, long submitNs, long completeNs, int status) {
        seen(worker, phaseIndex, completeNs);
    }

    @Override
    public void other(int worker, int phaseIndex, long completeNs) {
        seen(worker, phaseIndex, completeNs);
    }

    private void seen(int worker, int phaseIndex, long completeNs) {
        lastCompletionNs = Math.max(lastCompletionNs, completeNs);
        lastPhase = Math.max(lastPhase, phaseIndex);
        long[] w = workers.computeIfAbsent(worker, k -> new long[] {-1, 0});
        w[0] = Math.max(w[0], phaseIndex);
        w[1] = Math.max(w[1], completeNs);
    }

    /** The earliest latest-completion of the workers of the last phase: the log holds every completion before it. */
    long coveredUntilNs() {
        long covered = Long.MAX_VALUE;
        for (long[] w : workers.values()) {
            if (w[0] == lastPhase) {
                covered = Math.min(covered, w[1]);
            }
        }
        return covered == Long.MAX_VALUE ? 0 : covered;
    }

    boolean hasStampedWrites() {
        return stampedWrites > 0;
    }

    VerificationReport.Coverage coverage() {
        return new VerificationReport.Coverage(
                writes,
                stampedWrites,
                fuaWrites,
                failedWrites,
                flushes,
                lastFlushSubmitNs,
                lastCompletionNs,
                coveredUntilNs());
    }
}
