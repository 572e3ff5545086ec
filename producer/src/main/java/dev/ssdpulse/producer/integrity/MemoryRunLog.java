package dev.ssdpulse.producer.integrity;

import dev.ssdpulse.producer.io.IoCompletionSink;
import dev.ssdpulse.schemas.iobatch.IoFlags;
import dev.ssdpulse.schemas.iobatch.IoOpCode;
import java.util.Arrays;

/**
 * A run's log kept in memory as its I/Os complete: the log a simulated drive hands to the verification (its run has
 * no second machine to lose; what it completed is exactly what it acknowledged). Writes, FLUSHes and TRIMs are kept
 * whole, 40 bytes each (a million writes: 40 MB); reads only move the last completion per worker. Not thread-safe:
 * one run's completions in completion order.
 */
public final class MemoryRunLog implements RunLog, IoCompletionSink {
    private static final int FIELDS = 5;
    /** Per kept I/O: op | worker | phase | flags | status packed, sequence, offset, size, submit; then complete. */
    private long[] ios = new long[FIELDS * 1024];

    private long[] completes = new long[1024];
    private int count;
    /** Per worker, the last completion of an I/O not kept (a read) and its phase; -1: none. */
    private long[] lastOtherCompleteNs = new long[0];

    private int[] lastOtherPhase = new int[0];

    @Override
    public void onIoCompleted(
            int worker,
            int phaseIndex,
            byte op,
            long offsetBytes,
            int sizeBytes,
            long submitTimeNs,
            long latencyNs,
            int queueDepth,
            int status) {
        onIoCompleted(
                worker,
                phaseIndex,
                op,
                offsetBytes,
                sizeBytes,
                submitTimeNs,
                latencyNs,
                queueDepth,
                status,
                IoFlags.NO_SEQUENCE,
                IoFlags.NONE);
    }

    @Override
    public void onIoCompleted(
            int worker,
            int phaseIndex,
            byte op,
            long offsetBytes,
            int sizeBytes,
            long submitTimeNs,
            long latencyNs,
            int queueDepth,
            int status,
            long writeSequence,
            int ioFlags) {
        long completeNs = submitTimeNs + latencyNs;
        if (op != IoOpCode.WRITE && op != IoOpCode.FLUSH && op != IoOpCode.TRIM) {
            if (worker >= lastOtherCompleteNs.length) {
                int n = lastOtherCompleteNs.length;
                lastOtherCompleteNs = Arrays.copyOf(lastOtherCompleteNs, worker + 1);
                lastOtherPhase = Arrays.copyOf(lastOtherPhase, worker + 1);
                Arrays.fill(lastOtherCompleteNs, n, worker + 1, -1);
            }
            lastOtherCompleteNs[worker] = Math.max(lastOtherCompleteNs[worker], completeNs);
            lastOtherPhase[worker] = Math.max(lastOtherPhase[worker], phaseIndex);
            return;
        }
        if (count == completes.length) {
            completes = Arrays.copyOf(completes, count * 2);
            ios = Arrays.copyOf(ios, count * 2 * FIELDS);
        }
        int at = count * FIELDS;
        // op 8 bits, worker 16, phase 16, flags 8, status 16
        ios[at] = (op & 0xFFL) << 56
                | (worker & 0xFFFFL) << 40
                | (phaseIndex & 0xFFFFL) << 24
                | (ioFlags & 0xFFL) << 16
                | (status & 0xFFFFL);
        ios[at + 1] = writeSequence;
        ios[at + 2] = offsetBytes;
        ios[at + 3] = sizeBytes;
        ios[at + 4] = submitTimeNs;
        completes[count++] = completeNs;
    }

    /** Writes, FLUSHes and TRIMs kept. */
    public int size() {
        return count;
    }

    @Override
    public void stream(Visitor v) {
        for (int i = 0; i < count; i++) {
            int at = i * FIELDS;
            long head = ios[at];
            byte op = (byte) (head >>> 56);
            int worker = (int) (head >>> 40 & 0xFFFF);
            int phase = (int) (head >>> 24 & 0xFFFF);
            int flags = (int) (head >>> 16 & 0xFF);
            int status = (int) (head & 0xFFFF);
            switch (op) {
                case IoOpCode.WRITE ->
                    v.write(
                            worker,
                            phase,
                            ios[at + 1],
                            ios[at + 2],
                            (int) ios[at + 3],
                            ios[at + 4],
                            completes[i],
                            flags,
                            status);
                case IoOpCode.FLUSH -> v.flush(worker, phase, ios[at + 4], completes[i], status);
                default -> v.trim(worker, phase, ios[at + 2], ios[at + 3], ios[at + 4], completes[i], status);
            }
        }
        for (int w = 0; w < lastOtherCompleteNs.length; w++) {
            if (lastOtherCompleteNs[w] >= 0) {
                v.other(w, lastOtherPhase[w], lastOtherCompleteNs[w]);
            }
        }
    }
}
