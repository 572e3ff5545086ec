package dev.ssdpulse.streams.summary;

import dev.ssdpulse.schemas.iobatch.IoOpCode;
import dev.ssdpulse.streams.codec.BinaryReader;
import dev.ssdpulse.streams.codec.BinaryWriter;
import dev.ssdpulse.streams.latency.LatencyBins;
import dev.ssdpulse.streams.window.PhasePart;
import dev.ssdpulse.streams.window.WindowResult;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * Whole-run and per-phase totals per op. A summary counts every I/O, late ones included. Feed it either
 * every I/O through {@link #add}, or (cheaper: one merge per window instead of a histogram update per I/O)
 * every closed window through {@link #addWindow} plus the I/Os the window aggregator rejected as late through
 * {@link #add}; never both for the same I/O. Order-independent. Not thread-safe: one instance per run.
 */
public final class RunSummaryAccumulator {
    private static final int STATE_VERSION = 1;

    private final LatencyBins bins;
    private final OpTotals[] run = new OpTotals[IoOpCode.COUNT];
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
        IoOpCode.check(op);
        if (latencyNs < 0 || sizeBytes < 0) {
            throw new IllegalArgumentException(
                    "latencyNs and sizeBytes must be >= 0, were " + latencyNs + " and " + sizeBytes);
        }
        OpTotals[] phase = lastPhase;
        if (phaseIndex != lastPhaseIndex) {
            phase = phases.computeIfAbsent(phaseIndex, p -> new OpTotals[IoOpCode.COUNT]);
            lastPhase = phase;
            lastPhaseIndex = phaseIndex;
        }
        totals(phase, op).add(completionTimeNs, sizeBytes, latencyNs, status);
        totals(run, op).add(completionTimeNs, sizeBytes, latencyNs, status);
    }

    /** Merges a closed window's phase parts (see {@link dev.ssdpulse.streams.window.WindowResult#phaseParts}). */
    public void addWindow(WindowResult window) {
        for (PhasePart part : window.phaseParts()) {
            totals(phaseArray(part.phaseIndex()), window.op()).merge(part);
            totals(run, window.op()).merge(part);
        }
    }

    private OpTotals[] phaseArray(int phaseIndex) {
        return phases.computeIfAbsent(phaseIndex, p -> new OpTotals[IoOpCode.COUNT]);
    }

    /** Compact state (histograms compressed): bins, then run and per-phase totals. */
    public byte[] encodeState() {
        BinaryWriter out = new BinaryWriter(1024);
        out.writeByte(STATE_VERSION);
        out.writeUnsignedVarLong(bins.edgeCount());
        for (int i = 0; i < bins.edgeCount(); i++) {
            out.writeUnsignedVarLong(bins.upperBoundNs(i));
        }
        encodeOps(out, run);
        out.writeUnsignedVarLong(phases.size());
        for (Map.Entry<Integer, OpTotals[]> e : phases.entrySet()) {
            out.writeVarLong(e.getKey());
            encodeOps(out, e.getValue());
        }
        return out.toByteArray();
    }

    private static void encodeOps(BinaryWriter out, OpTotals[] byOp) {
        int mask = 0;
        for (int op = 0; op < IoOpCode.COUNT; op++) {
            if (byOp[op] != null) {
                mask |= 1 << op;
            }
        }
        out.writeByte(mask);
        for (OpTotals t : byOp) {
            if (t != null) {
                t.encodeInto(out);
            }
        }
    }

    public static RunSummaryAccumulator decodeState(byte[] state) {
        BinaryReader in = new BinaryReader(state, "run summary state");
        int version = in.readByte("version");
        if (version != STATE_VERSION) {
            throw new IllegalArgumentException("run summary state: unsupported version " + version);
        }
        int edges = in.readCount("edge count", 4096);
        long[] bounds = new long[edges];
        for (int i = 0; i < edges; i++) {
            bounds[i] = in.readUnsignedVarLong("edge");
        }
        RunSummaryAccumulator acc = new RunSummaryAccumulator(LatencyBins.of(bounds));
        decodeOps(in, acc.run);
        int phaseCount = in.readCount("phase count", 1 << 20);
        for (int i = 0; i < phaseCount; i++) {
            decodeOps(in, acc.phaseArray((int) in.readVarLong("phase index")));
        }
        in.expectEnd();
        return acc;
    }

    private static void decodeOps(BinaryReader in, OpTotals[] byOp) {
        int mask = in.readByte("op mask");
        for (int op = 0; op < IoOpCode.COUNT; op++) {
            if ((mask & (1 << op)) != 0) {
                byOp[op] = OpTotals.decodeFrom(op, in);
            }
        }
    }

    @Override
    public boolean equals(Object o) {
        if (!(o instanceof RunSummaryAccumulator)) {
            return false;
        }
        RunSummaryAccumulator that = (RunSummaryAccumulator) o;
        if (!bins.equals(that.bins)
                || !Arrays.equals(run, that.run)
                || !phases.keySet().equals(that.phases.keySet())) {
            return false;
        }
        for (Map.Entry<Integer, OpTotals[]> e : phases.entrySet()) {
            if (!Arrays.equals(e.getValue(), that.phases.get(e.getKey()))) {
                return false;
            }
        }
        return true;
    }

    @Override
    public int hashCode() {
        return Arrays.hashCode(run) * 31 + phases.keySet().hashCode();
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
        return run[IoOpCode.check(op)];
    }

    /** Phase totals of an op, or null. */
    public OpTotals phaseTotals(int phaseIndex, int op) {
        OpTotals[] phase = phases.get(phaseIndex);
        return phase == null ? null : phase[IoOpCode.check(op)];
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
                list.add(new OpSummaryData(
                        t.op(),
                        t.ioCount(),
                        t.bytes(),
                        t.errorCount(),
                        iops,
                        mbPerSec,
                        t.firstSubmitNs(),
                        t.lastCompletionNs(),
                        t.latency()));
            }
        }
        return list;
    }
}
