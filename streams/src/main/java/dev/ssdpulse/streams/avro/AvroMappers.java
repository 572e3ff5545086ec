package dev.ssdpulse.streams.avro;

import dev.ssdpulse.schemas.avro.IoOp;
import dev.ssdpulse.schemas.avro.LatencyPercentiles;
import dev.ssdpulse.schemas.avro.LatencyScatter;
import dev.ssdpulse.schemas.avro.LatencyStats;
import dev.ssdpulse.schemas.avro.OpSummary;
import dev.ssdpulse.schemas.avro.PhaseKind;
import dev.ssdpulse.schemas.avro.PhaseSummary;
import dev.ssdpulse.schemas.avro.ReplayPhaseResult;
import dev.ssdpulse.schemas.avro.RunLatency;
import dev.ssdpulse.schemas.avro.RunStatus;
import dev.ssdpulse.schemas.avro.RunSummary;
import dev.ssdpulse.schemas.avro.SmartSample;
import dev.ssdpulse.schemas.avro.SmartSource;
import dev.ssdpulse.schemas.avro.SteadyStateMethod;
import dev.ssdpulse.schemas.avro.SteadyStateVerdict;
import dev.ssdpulse.schemas.avro.WindowMetrics;
import dev.ssdpulse.schemas.avro.WriteAmplification;
import dev.ssdpulse.schemas.iobatch.IoOpCode;
import dev.ssdpulse.streams.latency.LatencyAccumulator;
import dev.ssdpulse.streams.latency.LatencyScatterSampler;
import dev.ssdpulse.streams.steadystate.SteadyStateResult;
import dev.ssdpulse.streams.summary.OpSummaryData;
import dev.ssdpulse.streams.summary.PhaseSummaryData;
import dev.ssdpulse.streams.summary.RunSummaryData;
import dev.ssdpulse.streams.waf.PhaseWa;
import dev.ssdpulse.streams.waf.SmartCounters;
import dev.ssdpulse.streams.waf.WaInterval;
import dev.ssdpulse.streams.window.WindowResult;
import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.function.IntFunction;

/**
 * The only place where accumulator values become Avro records. Stateless.
 */
public final class AvroMappers {
    private AvroMappers() {}

    public static IoOp ioOp(int op) {
        return IoOp.values()[IoOpCode.check(op)];
    }

    /**
     * A SMART sample as the WA accumulator's input: the sample's WA counters (waUnit, waHost*, waNand*) when it
     * has them; none when it says why it has none (waNote: e.g. a NAND counter of unknown unit, so no WA is
     * computed from its byte fields either); else its byte counters, taken as exact (the simulator's, and samples
     * recorded before counters carried their unit and step).
     */
    public static SmartCounters smartCounters(SmartSample sample) {
        if (sample.getWaUnit() != null) {
            return new SmartCounters(
                    sample.getTimeNs(),
                    sample.getWaUnit(),
                    sample.getWaHostWrites(),
                    orZero(sample.getWaHostResolution()),
                    sample.getWaNandWrites(),
                    orZero(sample.getWaNandResolution()),
                    null,
                    null,
                    null,
                    null,
                    sample.getFreeBlocks());
        }
        if (sample.getWaNote() != null) {
            return SmartCounters.exactBytes(sample.getTimeNs(), null, null, null, null, null, null, null);
        }
        return SmartCounters.exactBytes(
                sample.getTimeNs(),
                sample.getHostBytesWritten(),
                sample.getNandBytesWritten(),
                sample.getNandBytesWrittenHost(),
                sample.getNandBytesWrittenGc(),
                sample.getNandBytesWrittenWearLeveling(),
                sample.getNandBytesWrittenMetadata(),
                sample.getFreeBlocks());
    }

    private static long orZero(Long value) {
        return value == null ? 0 : Math.max(0, value);
    }

    /** Percentiles p50 .. p99.9999 by nearest rank (see {@link LatencyAccumulator#percentileNs}). */
    public static LatencyPercentiles percentiles(LatencyAccumulator latency) {
        long[] p = latency.percentilesNs(50, 90, 99, 99.9, 99.99, 99.999, 99.9999);
        return LatencyPercentiles.newBuilder()
                .setP50Ns(p[0])
                .setP90Ns(p[1])
                .setP99Ns(p[2])
                .setP999Ns(p[3])
                .setP9999Ns(p[4])
                .setP99999Ns(p[5])
                .setP999999Ns(p[6])
                .build();
    }

    /**
     * @param includeHistogram whether to carry the compressed HdrHistogram (otherwise the field is empty)
     */
    public static LatencyStats latencyStats(LatencyAccumulator latency, boolean includeHistogram) {
        List<Long> bounds = new ArrayList<>(latency.bins().edgeCount());
        for (long b : latency.bins().upperBoundsNs()) {
            bounds.add(b);
        }
        List<Long> counts = new ArrayList<>(latency.bins().binCount());
        for (long c : latency.binCounts()) {
            counts.add(c);
        }
        return LatencyStats.newBuilder()
                .setCount(latency.count())
                .setSumNs(latency.sumNs())
                .setMinNs(latency.minNs())
                .setMaxNs(latency.maxNs())
                .setPercentiles(percentiles(latency))
                .setBinUpperBoundsNs(bounds)
                .setBinCounts(counts)
                .setHdrHistogram(ByteBuffer.wrap(includeHistogram ? latency.encodeHistogramCompressed() : new byte[0]))
                .build();
    }

    /** A closed window's latency scatter; the columns become Avro arrays (varint-encoded on the wire). */
    public static LatencyScatter latencyScatter(String runId, LatencyScatterSampler.Window w) {
        int n = w.pointCount();
        List<Long> offsets = new ArrayList<>(n);
        List<Long> latencies = new ArrayList<>(n);
        List<Integer> ops = new ArrayList<>(n);
        for (int i = 0; i < n; i++) {
            offsets.add(w.completionOffsetsNs()[i]);
            latencies.add(w.latenciesNs()[i]);
            ops.add((int) w.ops()[i]);
        }
        return LatencyScatter.newBuilder()
                .setRunId(runId)
                .setWindowStartNs(w.windowStartNs())
                .setWindowSizeNs(w.windowSizeNs())
                .setThresholdNs(w.thresholdNs())
                .setIoCount(w.ioCount())
                .setAtOrAboveThresholdCount(w.atOrAboveThresholdCount())
                .setKeptAtOrAboveThresholdCount(w.keptAtOrAboveThresholdCount())
                .setCompletionOffsetsNs(offsets)
                .setLatenciesNs(latencies)
                .setOps(ops)
                .build();
    }

    public static WindowMetrics windowMetrics(String runId, WindowResult window, boolean includeHistogram) {
        return WindowMetrics.newBuilder()
                .setRunId(runId)
                .setOp(ioOp(window.op()))
                .setPhaseIndex(window.phaseIndex())
                .setWindowStartNs(window.windowStartNs())
                .setWindowSizeNs(window.windowSizeNs())
                .setIoCount(window.ioCount())
                .setBytes(window.bytes())
                .setIops(window.iops())
                .setMbPerSec(window.mbPerSec())
                .setLatency(latencyStats(window.latency(), includeHistogram))
                .setErrorCount(window.errorCount())
                .build();
    }

    /** @param phaseIndex phase, or -1 for the whole run */
    public static RunLatency runLatency(
            String runId, int op, int phaseIndex, long asOfTimeNs, LatencyAccumulator latency, long bytes) {
        return RunLatency.newBuilder()
                .setRunId(runId)
                .setOp(ioOp(op))
                .setPhaseIndex(phaseIndex)
                .setAsOfTimeNs(asOfTimeNs)
                .setLatency(latencyStats(latency, true))
                .setBytes(bytes)
                .build();
    }

    /**
     * The Avro record has no host-cause or metadata delta fields; those stay in {@link WaInterval} only.
     */
    public static WriteAmplification writeAmplification(String runId, SmartSource source, WaInterval interval) {
        return WriteAmplification.newBuilder()
                .setRunId(runId)
                .setFromTimeNs(interval.fromTimeNs())
                .setToTimeNs(interval.toTimeNs())
                .setSource(source)
                .setHostBytesWrittenDelta(interval.hostBytesWrittenDelta())
                .setNandBytesWrittenDelta(interval.nandBytesWrittenDelta())
                .setNandBytesWrittenGcDelta(interval.nandBytesWrittenGcDelta())
                .setNandBytesWrittenWearLevelingDelta(interval.nandBytesWrittenWearLevelingDelta())
                .setWaWindow(interval.waWindow())
                .setHostBytesWrittenCumulative(interval.hostBytesWrittenCumulative())
                .setNandBytesWrittenCumulative(interval.nandBytesWrittenCumulative())
                .setWaCumulative(interval.waCumulative())
                .setFreeBlocks(interval.freeBlocks())
                .setUnit(interval.unit())
                .setHostResolution(interval.hostResolution())
                .setNandResolution(interval.nandResolution())
                .setWaWindowLow(interval.windowBounds().low())
                .setWaWindowHigh(interval.windowBounds().high())
                .setWaWindowResolved(interval.windowBounds().resolved())
                .setWaCumulativeLow(interval.cumulativeBounds().low())
                .setWaCumulativeHigh(interval.cumulativeBounds().high())
                .setWaCumulativeResolved(interval.cumulativeBounds().resolved())
                .build();
    }

    /**
     * @param op the IoOp ordinal, or {@code RunAnalysis.ALL_OPS} (= IoOpCode.COUNT) for fio's all-directions judgement,
     *           which the record marks with allOps and op FLUSH (see the schema)
     */
    public static SteadyStateVerdict steadyStateVerdict(String runId, int op, int phaseIndex, SteadyStateResult r) {
        boolean allOps = op == IoOpCode.COUNT;
        return SteadyStateVerdict.newBuilder()
                .setRunId(runId)
                .setMethod(SteadyStateMethod.valueOf(r.method().name()))
                .setOp(allOps ? IoOp.FLUSH : ioOp(op))
                .setAllOps(allOps)
                .setPhaseIndex(phaseIndex)
                .setReached(r.reached())
                .setFinalVerdict(r.finalVerdict())
                .setSteadyNow(r.steadyNow())
                .setReachedAtNs(r.reachedAtNs())
                .setLostAtNs(r.lostAtNs())
                .setDecidedAtNs(r.decidedAtNs())
                .setWindowStartNs(r.windowStartNs())
                .setWindowEndNs(r.windowEndNs())
                .setRoundsOrSamples(r.roundsOrSamples())
                .setMean(r.mean())
                .setRange(r.range())
                .setSlope(r.slope())
                .setLimit(r.limit())
                .setCriteria(r.criteria())
                .setExplanation(r.explanation())
                .build();
    }

    public static OpSummary opSummary(OpSummaryData op) {
        return OpSummary.newBuilder()
                .setOp(ioOp(op.op()))
                .setIoCount(op.ioCount())
                .setBytes(op.bytes())
                .setIops(op.iops())
                .setMbPerSec(op.mbPerSec())
                .setLatency(latencyStats(op.latency(), true))
                .setErrorCount(op.errorCount())
                .build();
    }

    /**
     * @param writeAmplification the phase's WA and bounds, or null without any SMART interval in the phase
     * @param replay             how a REPLAY phase's I/Os were issued (null: not a replay, or not known yet). A
     *                           REPLAY phase's load time is the span of its I/Os, from the first submit to the last
     *                           completion: the time a user waits for the recorded load to finish.
     */
    public static PhaseSummary phaseSummary(
            PhaseSummaryData phase, PhaseLabel label, PhaseWa writeAmplification, ReplayPhaseResult replay) {
        List<OpSummary> ops = new ArrayList<>();
        for (OpSummaryData op : phase.ops()) {
            ops.add(opSummary(op));
        }
        boolean isReplay = label.kind() == PhaseKind.REPLAY;
        return PhaseSummary.newBuilder()
                .setPhaseIndex(phase.phaseIndex())
                .setName(label.name())
                .setKind(label.kind())
                .setStartNs(phase.startNs())
                .setEndNs(phase.endNs())
                .setOps(ops)
                .setWriteAmplification(writeAmplification == null ? null : writeAmplification.wa())
                .setWriteAmplificationLow(
                        writeAmplification == null
                                ? null
                                : writeAmplification.bounds().low())
                .setWriteAmplificationHigh(
                        writeAmplification == null
                                ? null
                                : writeAmplification.bounds().high())
                .setWriteAmplificationResolved(writeAmplification != null
                        && writeAmplification.bounds().resolved())
                .setLoadTimeNs(isReplay ? phase.endNs() - phase.startNs() : null)
                .setReplay(isReplay ? replay : null)
                .build();
    }

    /**
     * @param phaseLabels      names and kinds by phase index (e.g. from RunStarted's workload); may return null
     *                         for unknown phases, which get {@link PhaseLabel#unknown}
     * @param writeAmplification cumulative WA or null
     * @param ioCountExpected  from RunFinished, -1 if unknown
     * @param writeAmplificationByPhase WA and its bounds by phase index (phases without an entry get null)
     * @param ioNotPublished   from RunFinished
     * @param replayPhases     REPLAY phases' issue results by phase index, from RunFinished
     */
    public static RunSummary runSummary(
            String runId,
            RunStatus status,
            String reason,
            RunSummaryData data,
            IntFunction<PhaseLabel> phaseLabels,
            WriteAmplification writeAmplification,
            List<SteadyStateVerdict> steadyState,
            long ioCountExpected,
            long lateIoCount,
            long duplicateBatchCount,
            Map<Integer, PhaseWa> writeAmplificationByPhase,
            long ioNotPublished,
            Map<Integer, ReplayPhaseResult> replayPhases) {
        List<OpSummary> ops = new ArrayList<>();
        for (OpSummaryData op : data.ops()) {
            ops.add(opSummary(op));
        }
        List<PhaseSummary> phases = new ArrayList<>();
        for (PhaseSummaryData phase : data.phases()) {
            PhaseLabel label = phaseLabels.apply(phase.phaseIndex());
            phases.add(phaseSummary(
                    phase,
                    label != null ? label : PhaseLabel.unknown(phase.phaseIndex()),
                    writeAmplificationByPhase.get(phase.phaseIndex()),
                    replayPhases.get(phase.phaseIndex())));
        }
        return RunSummary.newBuilder()
                .setRunId(runId)
                .setStatus(status)
                .setReason(reason)
                .setDurationNs(data.durationNs())
                .setOps(ops)
                .setPhases(phases)
                .setWriteAmplification(writeAmplification)
                .setSteadyState(new ArrayList<>(steadyState))
                .setIoCount(data.ioCount())
                .setIoCountExpected(ioCountExpected)
                .setLateIoCount(lateIoCount)
                .setDuplicateBatchCount(duplicateBatchCount)
                .setIoNotPublished(ioNotPublished)
                .build();
    }
}
