package dev.ssdpulse.streams.summary;

import dev.ssdpulse.streams.latency.LatencyBins;
import dev.ssdpulse.streams.window.IoOps;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * Whole-run and per-phase totals per op, including I/Os that were late for their window (a summary counts
 * every I/O). Order-independent. Not thread-safe: one instance per run.
 */
public final class RunSummaryAccumulator {
    private final LatencyBins bins;
    private final OpTotals[] run = new OpTotals[IoOps.COUNT];
    private final Map<Integer, OpTotals[]> phases = new TreeMap<>();
    private OpTotals[] lastPhase;
    private int lastPhaseIndex = Integer.MIN_VALUE;

    public RunSummaryAccumulator() {
        this(LatencyBins.iometer());
    }

    public RunSummaryAccumulator(LatencyBins bins) {
        this.bins = bins;
    }

    /** Adds one I/O; arguments as {@link dev.ssdpulse.streams.window.RunWindowAggregator#add}. */
    public void add(int op, int phaseIndex, long completionTimeNs, long sizeBytes, long latencyNs, int status) {
        IoOps.check(op);
        if (latencyNs < 0 || sizeBytes < 0) {
            throw new IllegalArgumentException("latencyNs and sizeBytes must be >= 0, were " + latencyNs
                    + " and " + sizeBytes);
        }
        OpTotals[] phase = lastPhase;
        if (phaseIndex != lastPhaseIndex) {
            phase = phases.computeIfAbsent(phaseIndex, p -> new OpTotals[IoOps.COUNT]);
            lastPhase = phase;
            lastPhaseIndex = phaseIndex;
        }
        totals(phase, op).add(completionTimeNs, sizeBytes, latencyNs, status);
        totals(run, op).add(completionTimeNs, sizeBytes, latencyNs, status);
    }

    private OpTotals totals(OpTotals[] byOp, int op) {
        OpTotals t = byOp[op];
        if (t == null) {
            t = new OpTotals(op, bins);
            byOp[op] = t;
        }
        return t;
    }

    /** Whole-run totals of an op, or null when it never occurred. */
    public OpTotals runTotals(int op) {
        return run[IoOps.check(op)];
    }

    /** Phase totals of an op, or null. */
    public OpTotals phaseTotals(int phaseIndex, int op) {
        OpTotals[] phase = phases.get(phaseIndex);
        return phase == null ? null : phase[IoOps.check(op)];
    }

    public List<Integer> phaseIndexes() {
        return new ArrayList<>(phases.keySet());
    }

    /**
     * Summary; the accumulators inside are this accumulator's own (snapshot with encode/decode if it keeps running).
     *
     * @param runDurationNs the run's duration for run-level rates (e.g. from RunFinished), or null to use the
     *                      span from the first submit to the last completion
     */
    public RunSummaryData summarize(Long runDurationNs) {
        long first = Long.MAX_VALUE;
        long last = Long.MIN_VALUE;
        long ioCount = 0;
        long errors = 0;
        for (OpTotals t : run) {
            if (t != null) {
                first = Math.min(first, t.firstSubmitNs());
                last = Math.max(last, t.lastCompletionNs());
                ioCount += t.ioCount();
                errors += t.errorCount();
            }
        }
        long span = ioCount == 0 ? 0 : last - first;
        long duration = runDurationNs != null ? runDurationNs : span;
        List<OpSummaryData> ops = summaries(run, duration);
        List<PhaseSummaryData> phaseList = new ArrayList<>();
        for (Map.Entry<Integer, OpTotals[]> e : phases.entrySet()) {
            long start = Long.MAX_VALUE;
            long end = Long.MIN_VALUE;
            for (OpTotals t : e.getValue()) {
                if (t != null) {
                    start = Math.min(start, t.firstSubmitNs());
                    end = Math.max(end, t.lastCompletionNs());
                }
            }
            phaseList.add(new PhaseSummaryData(e.getKey(), start, end, summaries(e.getValue(), end - start)));
        }
        return new RunSummaryData(duration, ioCount, errors, ops, phaseList);
    }

    private static List<OpSummaryData> summaries(OpTotals[] byOp, long spanNs) {
        List<OpSummaryData> list = new ArrayList<>();
        for (OpTotals t : byOp) {
            if (t != null) {
                double seconds = spanNs / 1e9;
                double iops = spanNs <= 0 ? 0.0 : t.ioCount() / seconds;
                double mbPerSec = spanNs <= 0 ? 0.0 : t.bytes() / 1e6 / seconds;
                list.add(new OpSummaryData(t.op(), t.ioCount(), t.bytes(), t.errorCount(), iops, mbPerSec,
                        t.firstSubmitNs(), t.lastCompletionNs(), t.latency()));
            }
        }
        return list;
    }
}
