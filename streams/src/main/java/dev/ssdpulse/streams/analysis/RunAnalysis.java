package dev.ssdpulse.streams.analysis;

import dev.ssdpulse.schemas.avro.IoBatch;
import dev.ssdpulse.schemas.avro.PhaseKind;
import dev.ssdpulse.schemas.avro.ReplayPhaseResult;
import dev.ssdpulse.schemas.avro.RunStatus;
import dev.ssdpulse.schemas.avro.RunSummary;
import dev.ssdpulse.schemas.avro.SmartSample;
import dev.ssdpulse.schemas.avro.SmartSource;
import dev.ssdpulse.schemas.avro.SteadyStateVerdict;
import dev.ssdpulse.schemas.avro.WindowMetrics;
import dev.ssdpulse.schemas.iobatch.IoBatchReader;
import dev.ssdpulse.schemas.iobatch.IoOpCode;
import dev.ssdpulse.streams.avro.AvroMappers;
import dev.ssdpulse.streams.avro.PhaseLabel;
import dev.ssdpulse.streams.codec.BinaryReader;
import dev.ssdpulse.streams.codec.BinaryWriter;
import dev.ssdpulse.streams.latency.LatencyScatterSampler;
import dev.ssdpulse.streams.steadystate.SteadyStateResult;
import dev.ssdpulse.streams.steadystate.SteadyStateResultCodec;
import dev.ssdpulse.streams.summary.OpTotals;
import dev.ssdpulse.streams.summary.RunSummaryAccumulator;
import dev.ssdpulse.streams.waf.PhaseWa;
import dev.ssdpulse.streams.waf.WaInterval;
import dev.ssdpulse.streams.waf.WriteAmplificationAccumulator;
import dev.ssdpulse.streams.window.RunWindowAggregator;
import dev.ssdpulse.streams.window.WindowResult;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.TreeMap;
import java.util.TreeSet;

/**
 * The analysis of one run, whatever runs it: event-time windows, run and phase summaries, phase ends, SNIA PTS
 * and fio steady-state detectors (per direction, and fio's criteria over all directions together as fio judges
 * them), windowed, cumulative and per-phase write amplification. The Kafka Streams processor, the offline path
 * (simulator {@code --offline}, fio import, device runs) and replay are adapters: they feed events and route
 * what comes out of the {@link AnalysisOutput}. The same settings and events give the same outputs in all of
 * them; {@link #encode()} / {@link #decode} is the one state codec.
 *
 * <p><b>Determinism.</b> Windows close on the run's own watermark (latest completion minus grace, or the time up
 * to which the producer said the run is complete, {@link #completedThrough}), never on wall clock or record
 * timestamps; I/O batches are processed in their order in the I/O stream, SMART samples in
 * theirs. Results that combine both streams (per-phase WA) are computed from the whole WA series at summary
 * time, so their interleaving does not matter.
 *
 * <p><b>Phase ends.</b> On a phase change the previous phase ends; its RunLatency records and final verdicts
 * are emitted once the watermark has closed the window holding the change time. An old-phase I/O that
 * completes after that is still exact in the RunSummary, not in that phase's RunLatency record.
 *
 * <p>Not thread-safe: one instance per run.
 */
public final class RunAnalysis {
    /** Direction code of fio's all-directions judgement (the four I/O ops are 0..3). */
    public static final int ALL_OPS = IoOpCode.COUNT;
    /**
     * 4: with the REPLAY phases' issue results. 3: with the latency scatter's open windows (read: no replay
     * results). 2: this class before the scatter (read: a run in progress gets a scatter from then on). 1 was the Streams processor's own state before the analysis core (not readable: a
     * state store of that version is refused with a message naming the remedy).
     */
    private static final int STATE_VERSION = 4;

    private static final int STATE_VERSION_WITHOUT_REPLAY = 3;
    private static final int STATE_VERSION_WITHOUT_SCATTER = 2;

    private record PhaseInfo(String name, PhaseKind kind, long startNs) {}

    private final String runId;
    private final AnalysisSettings settings;
    private final AnalysisOutput output;
    private final RunWindowAggregator windows;
    private final RunSummaryAccumulator summary;
    private final WriteAmplificationAccumulator writeAmplification;
    private final LatencyScatterSampler scatter;
    private final IoBatchReader reader = new IoBatchReader();
    private SmartSource smartSource = SmartSource.NONE;
    private final TreeMap<Integer, PhaseInfo> phases = new TreeMap<>();
    private int currentPhase = Integer.MIN_VALUE;
    /** Phases that ended (changed to another) and whose final outputs wait for their windows to close. */
    private final TreeMap<Integer, Long> pendingPhaseEndsNs = new TreeMap<>();
    /** The window boundary at which {@link #io} looks for ready phase ends next (derived, not encoded). */
    private long phaseEndCheckNs = Long.MIN_VALUE;
    /** Phases whose final outputs were emitted. */
    private final TreeSet<Integer> finishedPhases = new TreeSet<>();
    /** Highest batchSequence seen per worker: one worker's batches are ordered in the partition. */
    private final TreeMap<Integer, Long> maxBatchSequence = new TreeMap<>();

    private long duplicateBatchCount;
    private long windowsSinceLatency;
    /** Detectors by {@link #detectorKey}. */
    private final TreeMap<Long, SteadyStateSlots> detectors = new TreeMap<>();
    /** Latest emitted verdict by {@link #verdictKey}: the summary's steady-state list. */
    private final TreeMap<Long, SteadyStateResult> latestVerdicts = new TreeMap<>();
    /** Closed windows of one start, summed over directions per phase (phase -> {ioCount, bytes}). */
    private final TreeMap<Integer, long[]> allOpsWindow = new TreeMap<>();

    private long allOpsWindowStartNs;
    private long allOpsWindowSizeNs;
    /** Null while running. */
    private RunStatus status;

    private String reason;
    private long endNs;
    private long ioCountExpected = -1;
    private long ioNotPublished;
    /** Encoded summary accumulator, reused while unchanged (its histograms are compressed: costly). */
    private byte[] summaryBytes;
    /** How the producer issued each REPLAY phase's I/Os (from RunFinished), by phase index. */
    private final TreeMap<Integer, ReplayPhaseResult> replayPhases = new TreeMap<>();

    public RunAnalysis(String runId, AnalysisSettings settings, AnalysisOutput output) {
        this(
                runId,
                settings,
                output,
                new RunWindowAggregator(settings.windowSizeNs(), settings.graceNs(), settings.bins(), w -> {}),
                new RunSummaryAccumulator(settings.bins()),
                new WriteAmplificationAccumulator(),
                newScatter(runId, settings));
    }

    private RunAnalysis(
            String runId,
            AnalysisSettings settings,
            AnalysisOutput output,
            RunWindowAggregator windows,
            RunSummaryAccumulator summary,
            WriteAmplificationAccumulator writeAmplification,
            LatencyScatterSampler scatter) {
        this.runId = Objects.requireNonNull(runId, "runId");
        this.settings = Objects.requireNonNull(settings, "settings");
        this.output = Objects.requireNonNull(output, "output");
        this.windows = windows;
        this.summary = summary;
        this.writeAmplification = writeAmplification;
        this.scatter = scatter;
        windows.setOnClosed(this::onWindowClosed);
    }

    private static LatencyScatterSampler newScatter(String runId, AnalysisSettings settings) {
        return new LatencyScatterSampler(
                runId, settings.windowSizeNs(), settings.scatterThresholdNs(), settings.scatterSamplesPerWindow());
    }

    public String runId() {
        return runId;
    }

    public boolean isRunning() {
        return status == null;
    }

    /** Null while running. */
    public RunStatus status() {
        return status;
    }

    /** I/Os that completed after their window had closed (counted in the summary's totals only). */
    public long lateIoCount() {
        return windows.lateIoCount();
    }

    /** Latest I/O completion seen, ns since run start; Long.MIN_VALUE before the first I/O. */
    public long maxCompletionTimeNs() {
        return windows.maxCompletionTimeNs();
    }

    /** A phase starts at timeNs; the one before it ends there. */
    public void phaseChanged(int phaseIndex, String name, PhaseKind kind, long timeNs) {
        phases.put(phaseIndex, new PhaseInfo(name, kind, timeNs));
        if (currentPhase != Integer.MIN_VALUE && currentPhase != phaseIndex && !finishedPhases.contains(currentPhase)) {
            pendingPhaseEndsNs.put(currentPhase, timeNs);
        }
        currentPhase = phaseIndex;
        emitReadyPhaseEnds();
    }

    /**
     * One batch of completed I/Os from the I/O stream.
     *
     * @return false when the batch is a duplicate (a sequence not above the worker's highest): counted, ignored
     */
    public boolean ioBatch(IoBatch batch) {
        Long max = maxBatchSequence.get(batch.getWorker());
        if (max != null && batch.getBatchSequence() <= max) {
            // a producer retry without idempotence or a replayed record: its I/Os are counted once
            duplicateBatchCount++;
            return false;
        }
        maxBatchSequence.put(batch.getWorker(), batch.getBatchSequence());
        int phase = batch.getPhaseIndex();
        reader.reset(batch);
        while (reader.next()) {
            add(
                    reader.opOrdinal(),
                    phase,
                    reader.completionTimeNs(),
                    reader.sizeBytes(),
                    reader.latencyNs(),
                    reader.status());
        }
        emitReadyPhaseEnds();
        return true;
    }

    /** One completed I/O (producers in the same JVM); {@code op} is the IoOp ordinal. */
    public void io(int op, int phaseIndex, long completionTimeNs, long sizeBytes, long latencyNs, int ioStatus) {
        add(op, phaseIndex, completionTimeNs, sizeBytes, latencyNs, ioStatus);
        if (windows.watermarkNs() >= phaseEndCheckNs) {
            checkPhaseEnds();
        }
    }

    /**
     * The producer's word that every I/O of the run completing before {@code runTimeNs} has been fed (a heartbeat's
     * {@code completeUpToNs}): the windows ending at or before it close now, without waiting for the grace. When the
     * producer is right no I/O of those windows is still to come, so the windows, and every result built from them,
     * are those the grace alone gives, only sooner.
     */
    public void completedThrough(long runTimeNs) {
        if (runTimeNs <= windows.watermarkNs()) {
            return;
        }
        windows.advanceWatermark(runTimeNs);
        long watermarkNs = windows.watermarkNs();
        if (watermarkNs >= scatter.nextCloseEndNs()) {
            scatter.closeUpTo(watermarkNs, this::emitScatter);
        }
        if (!allOpsWindow.isEmpty()) {
            judgeAllOpsWindow();
        }
        emitReadyPhaseEnds();
    }

    /**
     * The newest open window of an op as its I/Os so far make it (no histogram), or null when the op has none: what
     * the views show, marked provisional, until the window closes.
     */
    public WindowMetrics openWindow(int op) {
        WindowResult open = windows.newestOpen(op);
        return open == null ? null : AvroMappers.windowMetrics(runId, open, false);
    }

    /**
     * A phase change of one of several producers whose I/Os this analysis merges (the members of a run group, in
     * step or nearly): a phase starts where the first of them entered it, and the phase before ends there. A member
     * entering a phase that another one entered earlier only moves the phase's start earlier when it was earlier
     * (its change may arrive later); a change to a phase below the current one (a member out of step) records that
     * phase's start only. The windows that depend on a phase's start cannot have closed before every member's
     * change to it arrived, as long as each member's watermark holds back the merged one.
     */
    public void mergedPhaseChanged(int phaseIndex, String name, PhaseKind kind, long timeNs) {
        PhaseInfo known = phases.get(phaseIndex);
        if (known == null) {
            if (currentPhase == Integer.MIN_VALUE || phaseIndex > currentPhase) {
                phaseChanged(phaseIndex, name, kind, timeNs);
            } else {
                phases.put(phaseIndex, new PhaseInfo(name, kind, timeNs));
            }
            return;
        }
        if (timeNs < known.startNs()) {
            phases.put(phaseIndex, new PhaseInfo(known.name(), known.kind(), timeNs));
            Integer previous = phases.lowerKey(phaseIndex);
            if (previous != null) {
                Long end = pendingPhaseEndsNs.get(previous);
                if (end != null && end > timeNs) {
                    pendingPhaseEndsNs.put(previous, timeNs);
                }
            }
        }
    }

    /**
     * A phase end is ready when the watermark reaches the end of the window holding it, a window boundary, so
     * the per-I/O path looks only when the watermark crosses one. Looking on every I/O put a branch into the
     * device runner's compiled I/O loop that is never true during the first phase; the JIT compiled it as never
     * taken, and the next phase's first ready phase end deoptimised the whole loop, which then ran interpreted
     * and profiled again for seconds ({@code -XX:+LogCompilation}: {@code unstable_if} traps at the change).
     * A boundary is crossed once per window in every phase, so this branch is compiled both ways, and
     * {@link #emitReadyPhaseEnds}, called that rarely and too large for a cold call site, is not inlined into
     * the loop.
     */
    private void checkPhaseEnds() {
        long size = settings.windowSizeNs();
        phaseEndCheckNs = (Math.floorDiv(windows.watermarkNs(), size) + 1) * size;
        emitReadyPhaseEnds();
    }

    private void add(int op, int phase, long completionTimeNs, long sizeBytes, long latencyNs, int ioStatus) {
        if (!windows.add(op, phase, completionTimeNs, sizeBytes, latencyNs, ioStatus)) {
            // late for its window: still counted in the totals (not in the scatter, whose windows hold the same I/Os)
            summary.add(op, phase, completionTimeNs, sizeBytes, latencyNs, ioStatus);
            summaryBytes = null;
        } else {
            scatter.add(op, completionTimeNs, latencyNs);
            long watermarkNs = windows.watermarkNs();
            if (watermarkNs >= scatter.nextCloseEndNs()) {
                scatter.closeUpTo(watermarkNs, this::emitScatter);
            }
        }
        if (!allOpsWindow.isEmpty()) {
            // every direction's window of one start closes in the same add (same end): the group is complete
            judgeAllOpsWindow();
        }
    }

    /** A SMART sample; after the run finished, the summary is emitted again with the new WA. */
    public void smart(SmartSample sample) {
        smartSource = sample.getSource();
        WaInterval interval =
                writeAmplification.accept(AvroMappers.smartCounters(sample)).orElse(null);
        if (interval == null) {
            return;
        }
        output.writeAmplification(AvroMappers.writeAmplification(runId, smartSource, interval));
        if (status != null) {
            emitSummary();
        }
    }

    /**
     * The run ended: closes every window, ends the open phases, emits the whole-run latency and the summary.
     *
     * @param finishedAtNs     run time of the end, ns (the summary's duration)
     * @param expectedIoCount  I/Os the producer reported, -1 if unknown
     * @param notPublishedIos  I/Os the producer completed but did not publish
     */
    public void finish(
            RunStatus finalStatus, String finalReason, long finishedAtNs, long expectedIoCount, long notPublishedIos) {
        windows.flushAll();
        scatter.flushAll(this::emitScatter);
        if (!allOpsWindow.isEmpty()) {
            judgeAllOpsWindow();
        }
        for (int phase : new ArrayList<>(pendingPhaseEndsNs.keySet())) {
            endPhase(phase, pendingPhaseEndsNs.remove(phase));
        }
        if (currentPhase != Integer.MIN_VALUE) {
            endPhase(currentPhase, finishedAtNs);
        }
        emitRunLatency(finishedAtNs);
        status = Objects.requireNonNull(finalStatus, "finalStatus");
        reason = finalReason;
        endNs = finishedAtNs;
        ioCountExpected = expectedIoCount;
        ioNotPublished = notPublishedIos;
        summaryBytes = null;
        emitSummary();
    }

    /**
     * How the producer issued a REPLAY phase's I/Os against their recorded times (RunFinished carries one per
     * phase); shown in the phase's summary beside its load time. Given before {@link #finish}, or after it (the
     * summary is emitted again).
     */
    public void replayFinished(ReplayPhaseResult result) {
        replayPhases.put(result.getPhaseIndex(), result);
        if (status != null) {
            emitSummary();
        }
    }

    private void emitScatter(LatencyScatterSampler.Window window) {
        output.scatter(AvroMappers.latencyScatter(runId, window));
    }

    private void emitReadyPhaseEnds() {
        if (pendingPhaseEndsNs.isEmpty()) {
            return;
        }
        long size = settings.windowSizeNs();
        List<Integer> ready = new ArrayList<>(1);
        for (Map.Entry<Integer, Long> e : pendingPhaseEndsNs.entrySet()) {
            long windowEnd = (Math.floorDiv(e.getValue(), size) + 1) * size;
            if (windows.watermarkNs() >= windowEnd) {
                ready.add(e.getKey());
            }
        }
        for (int phase : ready) {
            endPhase(phase, pendingPhaseEndsNs.remove(phase));
        }
    }

    private void endPhase(int phase, long phaseEndNs) {
        if (!finishedPhases.add(phase)) {
            return;
        }
        for (int op = 0; op < IoOpCode.COUNT; op++) {
            OpTotals totals = summary.phaseTotals(phase, op);
            if (totals != null) {
                output.latency(AvroMappers.runLatency(runId, op, phase, phaseEndNs, totals.latency(), totals.bytes()));
            }
        }
        for (int op = 0; op <= ALL_OPS; op++) {
            SteadyStateSlots slots = detectors.remove(detectorKey(phase, op));
            if (slots != null) {
                emitVerdicts(phase, op, slots.finish(phaseEndNs));
            }
        }
    }

    private void emitRunLatency(long asOfNs) {
        for (int op = 0; op < IoOpCode.COUNT; op++) {
            OpTotals totals = summary.runTotals(op);
            if (totals != null) {
                output.latency(AvroMappers.runLatency(runId, op, -1, asOfNs, totals.latency(), totals.bytes()));
            }
        }
    }

    private void onWindowClosed(WindowResult window) {
        if (!allOpsWindow.isEmpty() && window.windowStartNs() != allOpsWindowStartNs) {
            // one add can close the windows of several starts (in start order): judge the previous start's group
            judgeAllOpsWindow();
        }
        summary.addWindow(window);
        summaryBytes = null;
        output.window(AvroMappers.windowMetrics(runId, window, true));
        feedDetectors(
                window.op(),
                window.phaseIndex(),
                window.windowStartNs(),
                window.windowSizeNs(),
                window.ioCount(),
                window.bytes());
        long[] sums = allOpsWindow.computeIfAbsent(window.phaseIndex(), p -> new long[2]);
        sums[0] += window.ioCount();
        sums[1] += window.bytes();
        allOpsWindowStartNs = window.windowStartNs();
        allOpsWindowSizeNs = window.windowSizeNs();
        if (++windowsSinceLatency >= settings.latencyEveryWindows()) {
            windowsSinceLatency = 0;
            emitRunLatency(window.windowEndNs());
        }
    }

    /** fio sums the I/Os and bytes of every direction per interval (steadystate.c): one sample per window. */
    private void judgeAllOpsWindow() {
        for (Map.Entry<Integer, long[]> e : allOpsWindow.entrySet()) {
            feedDetectors(
                    ALL_OPS, e.getKey(), allOpsWindowStartNs, allOpsWindowSizeNs, e.getValue()[0], e.getValue()[1]);
        }
        allOpsWindow.clear();
    }

    /** Feeds a closed window of a TEST phase to its detectors. */
    private void feedDetectors(int op, int phase, long startNs, long sizeNs, long ioCount, long bytes) {
        PhaseInfo info = phases.get(phase);
        if (info == null || info.kind() != PhaseKind.TEST || finishedPhases.contains(phase)) {
            return;
        }
        if (op == ALL_OPS && settings.fioCriteria().isEmpty()) {
            return;
        }
        long size = settings.windowSizeNs();
        // detector rounds start at the first window boundary at or after the phase start
        long alignedStart = -Math.floorDiv(-info.startNs(), size) * size;
        if (startNs < alignedStart) {
            return;
        }
        SteadyStateSlots slots = detectors.computeIfAbsent(
                detectorKey(phase, op),
                k -> SteadyStateSlots.create(
                        op != ALL_OPS, alignedStart, size, settings.sniaRoundNs(), settings.fioCriteria()));
        emitVerdicts(phase, op, slots.acceptWindow(startNs, sizeNs, ioCount, bytes));
    }

    private void emitVerdicts(int phase, int op, List<SteadyStateSlots.Emitted> emitted) {
        for (SteadyStateSlots.Emitted e : emitted) {
            latestVerdicts.put(verdictKey(phase, op, e.slot()), e.result());
            output.verdict(AvroMappers.steadyStateVerdict(runId, op, phase, e.result()), e.slot());
        }
    }

    private void emitSummary() {
        WaInterval lastWa = writeAmplification.lastInterval();
        Map<Integer, Long> phaseStarts = new TreeMap<>();
        phases.forEach((index, info) -> phaseStarts.put(index, info.startNs()));
        Map<Integer, PhaseWa> waByPhase = lastWa == null
                ? Map.of()
                : PhaseWriteAmplification.byPhase(phaseStarts, output.writeAmplificationSeries(runId));
        List<SteadyStateVerdict> verdicts = new ArrayList<>(latestVerdicts.size());
        latestVerdicts.forEach((key, result) -> verdicts.add(
                AvroMappers.steadyStateVerdict(runId, (int) ((key >> 8) & 0xff), (int) (key >> 16), result)));
        RunSummary runSummary = AvroMappers.runSummary(
                runId,
                status,
                reason,
                summary.summarize(endNs),
                this::label,
                lastWa == null ? null : AvroMappers.writeAmplification(runId, smartSource, lastWa),
                verdicts,
                ioCountExpected,
                windows.lateIoCount(),
                duplicateBatchCount,
                waByPhase,
                ioNotPublished,
                replayPhases);
        output.summary(runSummary);
    }

    private PhaseLabel label(int phase) {
        PhaseInfo info = phases.get(phase);
        return info == null ? null : new PhaseLabel(info.name(), info.kind());
    }

    private static long detectorKey(int phaseIndex, int op) {
        return ((long) phaseIndex << 8) | op;
    }

    /** Orders the summary's verdicts by phase, direction (all directions last), criterion. */
    private static long verdictKey(int phaseIndex, int op, int slot) {
        return ((long) phaseIndex << 16) | ((long) op << 8) | slot;
    }

    /** The whole state (windows with uncompressed histograms, summary, detectors, WA), for a state store. */
    public byte[] encode() {
        if (summaryBytes == null) {
            summaryBytes = summary.encodeState();
        }
        byte[] windowBytes = windows.encodeState();
        BinaryWriter out = new BinaryWriter(windowBytes.length + summaryBytes.length + 1024);
        out.writeByte(STATE_VERSION);
        out.writeByte(status == null ? 0 : 1 + status.ordinal());
        out.writeBoolean(reason != null);
        if (reason != null) {
            out.writeString(reason);
        }
        out.writeVarLong(endNs).writeVarLong(ioCountExpected).writeUnsignedVarLong(ioNotPublished);
        out.writeByte(smartSource.ordinal());
        out.writeVarLong(currentPhase);
        out.writeUnsignedVarLong(phases.size());
        for (Map.Entry<Integer, PhaseInfo> e : phases.entrySet()) {
            out.writeVarLong(e.getKey());
            out.writeBlock(e.getValue().name().getBytes(StandardCharsets.UTF_8));
            out.writeUnsignedVarLong(e.getValue().kind().ordinal());
            out.writeVarLong(e.getValue().startNs());
        }
        out.writeUnsignedVarLong(pendingPhaseEndsNs.size());
        for (Map.Entry<Integer, Long> e : pendingPhaseEndsNs.entrySet()) {
            out.writeVarLong(e.getKey()).writeVarLong(e.getValue());
        }
        out.writeUnsignedVarLong(finishedPhases.size());
        for (int p : finishedPhases) {
            out.writeVarLong(p);
        }
        out.writeUnsignedVarLong(maxBatchSequence.size());
        for (Map.Entry<Integer, Long> e : maxBatchSequence.entrySet()) {
            out.writeVarLong(e.getKey()).writeVarLong(e.getValue());
        }
        out.writeUnsignedVarLong(duplicateBatchCount).writeUnsignedVarLong(windowsSinceLatency);
        out.writeUnsignedVarLong(detectors.size());
        for (Map.Entry<Long, SteadyStateSlots> e : detectors.entrySet()) {
            out.writeVarLong(e.getKey());
            e.getValue().encodeInto(out);
        }
        out.writeUnsignedVarLong(latestVerdicts.size());
        for (Map.Entry<Long, SteadyStateResult> e : latestVerdicts.entrySet()) {
            out.writeVarLong(e.getKey());
            SteadyStateResultCodec.write(out, e.getValue());
        }
        out.writeBlock(windowBytes);
        out.writeBlock(summaryBytes);
        out.writeBlock(writeAmplification.encodeState());
        scatter.encodeInto(out);
        out.writeUnsignedVarLong(replayPhases.size());
        for (ReplayPhaseResult r : replayPhases.values()) {
            out.writeBlock(ReplayResultCodec.encode(r));
        }
        return out.toByteArray();
    }

    /**
     * Restores a run's analysis from {@link #encode()}; new detectors use {@code settings}, restored windows
     * and detectors keep the configuration they were created with.
     */
    public static RunAnalysis decode(String runId, byte[] bytes, AnalysisSettings settings, AnalysisOutput output) {
        BinaryReader in = new BinaryReader(bytes, "run analysis state of " + runId);
        int version = in.readByte("version");
        if (version != STATE_VERSION
                && version != STATE_VERSION_WITHOUT_REPLAY
                && version != STATE_VERSION_WITHOUT_SCATTER) {
            throw new IllegalStateException("the stored analysis state of run " + runId + " has format " + version
                    + ", this ssdpulse reads formats " + STATE_VERSION_WITHOUT_SCATTER + " to " + STATE_VERSION
                    + ": it was written by another version. Start the analytics under a new application id (or reset"
                    + " this one) and re-analyse stored runs from their topics");
        }
        int statusCode = in.readByte("status");
        if (statusCode > RunStatus.values().length) {
            throw new IllegalArgumentException("run analysis state of " + runId + ": unknown status " + statusCode);
        }
        RunStatus status = statusCode == 0 ? null : RunStatus.values()[statusCode - 1];
        String reason = in.readBoolean("reason present") ? in.readString("reason") : null;
        long endNs = in.readVarLong("endNs");
        long expected = in.readVarLong("ioCountExpected");
        long notPublished = in.readUnsignedVarLong("ioNotPublished");
        SmartSource source = SmartSource.values()[in.readCount("smart source", SmartSource.values().length - 1)];
        int currentPhase = (int) in.readVarLong("currentPhase");
        TreeMap<Integer, PhaseInfo> phases = new TreeMap<>();
        int n = in.readCount("phase count", 1 << 20);
        for (int i = 0; i < n; i++) {
            int index = (int) in.readVarLong("phase index");
            String name = new String(in.readBlock("phase name"), StandardCharsets.UTF_8);
            PhaseKind kind = PhaseKind.values()[in.readCount("phase kind", PhaseKind.values().length - 1)];
            phases.put(index, new PhaseInfo(name, kind, in.readVarLong("phase start")));
        }
        TreeMap<Integer, Long> pending = new TreeMap<>();
        n = in.readCount("pending count", 1 << 20);
        for (int i = 0; i < n; i++) {
            pending.put((int) in.readVarLong("pending phase"), in.readVarLong("pending end"));
        }
        TreeSet<Integer> finished = new TreeSet<>();
        n = in.readCount("finished count", 1 << 20);
        for (int i = 0; i < n; i++) {
            finished.add((int) in.readVarLong("finished phase"));
        }
        TreeMap<Integer, Long> sequences = new TreeMap<>();
        n = in.readCount("worker count", 1 << 20);
        for (int i = 0; i < n; i++) {
            sequences.put((int) in.readVarLong("worker"), in.readVarLong("max batch sequence"));
        }
        long duplicates = in.readUnsignedVarLong("duplicateBatchCount");
        long sinceLatency = in.readUnsignedVarLong("windowsSinceLatency");
        TreeMap<Long, SteadyStateSlots> detectors = new TreeMap<>();
        n = in.readCount("detector count", 1 << 20);
        for (int i = 0; i < n; i++) {
            detectors.put(in.readVarLong("detector key"), SteadyStateSlots.decodeFrom(in));
        }
        TreeMap<Long, SteadyStateResult> verdicts = new TreeMap<>();
        n = in.readCount("verdict count", 1 << 20);
        for (int i = 0; i < n; i++) {
            verdicts.put(in.readVarLong("verdict key"), SteadyStateResultCodec.read(in));
        }
        RunWindowAggregator windows = RunWindowAggregator.decodeState(in.readBlock("windows"), w -> {});
        byte[] summaryBytes = in.readBlock("summary");
        WriteAmplificationAccumulator wa =
                WriteAmplificationAccumulator.decodeState(in.readBlock("write amplification"));
        LatencyScatterSampler scatter = version == STATE_VERSION_WITHOUT_SCATTER
                ? newScatter(runId, settings)
                : LatencyScatterSampler.decodeFrom(in);
        List<ReplayPhaseResult> replays = new ArrayList<>();
        if (version >= STATE_VERSION) {
            n = in.readCount("replay phase count", 1 << 20);
            for (int i = 0; i < n; i++) {
                replays.add(ReplayResultCodec.decode(in.readBlock("replay phase result")));
            }
        }
        in.expectEnd();
        RunAnalysis analysis = new RunAnalysis(
                runId, settings, output, windows, RunSummaryAccumulator.decodeState(summaryBytes), wa, scatter);
        analysis.summaryBytes = summaryBytes;
        analysis.status = status;
        analysis.reason = reason;
        analysis.endNs = endNs;
        analysis.ioCountExpected = expected;
        analysis.ioNotPublished = notPublished;
        analysis.smartSource = source;
        analysis.currentPhase = currentPhase;
        analysis.phases.putAll(phases);
        analysis.pendingPhaseEndsNs.putAll(pending);
        analysis.finishedPhases.addAll(finished);
        analysis.maxBatchSequence.putAll(sequences);
        analysis.duplicateBatchCount = duplicates;
        analysis.windowsSinceLatency = sinceLatency;
        analysis.detectors.putAll(detectors);
        analysis.latestVerdicts.putAll(verdicts);
        replays.forEach(r -> analysis.replayPhases.put(r.getPhaseIndex(), r));
        return analysis;
    }
}
