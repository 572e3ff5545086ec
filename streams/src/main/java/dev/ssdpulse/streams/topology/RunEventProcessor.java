package dev.ssdpulse.streams.topology;

import dev.ssdpulse.schemas.avro.IoBatch;
import dev.ssdpulse.schemas.avro.IoStreamRecord;
import dev.ssdpulse.schemas.avro.PhaseChanged;
import dev.ssdpulse.schemas.avro.PhaseKind;
import dev.ssdpulse.schemas.avro.RunFinished;
import dev.ssdpulse.schemas.avro.RunStatus;
import dev.ssdpulse.schemas.avro.RunSummary;
import dev.ssdpulse.schemas.avro.SteadyStateVerdict;
import dev.ssdpulse.schemas.avro.WindowMetrics;
import dev.ssdpulse.schemas.avro.WriteAmplification;
import dev.ssdpulse.schemas.iobatch.IoBatchReader;
import dev.ssdpulse.streams.app.AnalyticsConfig;
import dev.ssdpulse.streams.avro.AvroMappers;
import dev.ssdpulse.streams.avro.PhaseLabel;
import dev.ssdpulse.streams.latency.LatencyBins;
import dev.ssdpulse.streams.summary.OpTotals;
import dev.ssdpulse.streams.summary.RunSummaryAccumulator;
import dev.ssdpulse.streams.window.IoOps;
import dev.ssdpulse.streams.window.RunWindowAggregator;
import dev.ssdpulse.streams.window.WindowResult;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.apache.avro.specific.SpecificRecord;
import org.apache.kafka.streams.KeyValue;
import org.apache.kafka.streams.processor.PunctuationType;
import org.apache.kafka.streams.processor.api.Processor;
import org.apache.kafka.streams.processor.api.ProcessorContext;
import org.apache.kafka.streams.processor.api.Record;
import org.apache.kafka.streams.state.KeyValueIterator;
import org.apache.kafka.streams.state.KeyValueStore;

/**
 * The per-run aggregation of ssdpulse.io.v1: windows, latency, steady state, summaries.
 *
 * <p><b>Why the Processor API and not DSL windowedBy.</b> DSL windows close on the partition's stream time
 * (the max record timestamp seen by the task). Many runs share a partition and are at unrelated run times (a
 * simulated run at 100x next to a live one, a replay next to both), so one run's windows would close because
 * of another run's progress, or never. Here each run has its own watermark (max completion time of its I/Os
 * minus grace, kept by {@link RunWindowAggregator}) and windows close on it alone. Record timestamps play no
 * part in any result.
 *
 * <p><b>State.</b> Per run: one value in {@link Names#RUN_STATE_STORE}, an {@link EncodeOnCommitStore}: the live
 * {@link RunState} object is updated by every event and encoded into the changelogged store at every commit (so
 * nothing lives only in memory at a commit, and a crash + restart under exactly_once_v2 resumes from exactly the
 * committed state); it is decoded only on a miss (a new task, a restart). Steady-state detectors are rebuilt on a
 * miss by replaying the run's closed windows from {@link Names#WINDOW_SERIES_STORE}. The aggregator's state
 * carries raw I/O tails between histogram checkpoints, so even a commit's encode costs byte copies, not
 * histogram encoding.
 *
 * <p><b>Phase outputs.</b> On PhaseChanged the previous phase ends; its RunLatency records and final
 * steady-state verdicts are emitted once the run's watermark has closed the window holding the change time.
 * An old-phase I/O that completes after that window closed is still exact in the RunSummary, but not in that
 * phase's RunLatency record.
 */
public final class RunEventProcessor implements Processor<String, IoStreamRecord, String, SpecificRecord> {
    /**
     * No raw I/O tails in the encoded window state: the state is encoded once per commit (every 100 ms under
     * exactly_once_v2), not per batch, so re-encoding the open windows' histograms then (~6 per run, tens of us
     * each) is cheaper than appending five varints per I/O to keep a tail (measured: the tail writes were ~15 %
     * of the stream thread's CPU samples end to end).
     */
    static final int STATE_TAIL_LIMIT = 0;
    private final AnalyticsConfig config;
    private final LatencyBins bins;
    private final IoBatchReader reader = new IoBatchReader();
    private ProcessorContext<String, SpecificRecord> context;
    private EncodeOnCommitStore<RunState> stateStore;
    private KeyValueStore<String, Long> activityStore;
    private KeyValueStore<String, String> statusStore;
    private KeyValueStore<String, RunSummary> summaryStore;
    private KeyValueStore<String, WindowMetrics> seriesStore;
    private KeyValueStore<String, SteadyStateVerdict> verdictStore;
    private KeyValueStore<String, WriteAmplification> wafStore;
    /** Timestamp for outputs: the input record's (Kafka bookkeeping only), or wall clock in a punctuation. */
    private long outputTimestampMs;
    /**
     * Wall clock when this task started: a run's silence is measured from no earlier than this, so an analytics
     * outage longer than the heartbeat timeout does not expire live runs whose newer events still wait in the
     * backlog.
     */
    private long initWallMs;

    public RunEventProcessor(AnalyticsConfig config) {
        this.config = config;
        this.bins = config.latencyBins();
    }

    @Override
    public void init(ProcessorContext<String, SpecificRecord> context) {
        this.context = context;
        initWallMs = context.currentSystemTimeMs();
        stateStore = context.getStateStore(Names.RUN_STATE_STORE);
        activityStore = context.getStateStore(Names.RUN_ACTIVITY_STORE);
        statusStore = context.getStateStore(Names.RUN_STATUS_STORE);
        summaryStore = context.getStateStore(Names.RUN_SUMMARY_STORE);
        seriesStore = context.getStateStore(Names.WINDOW_SERIES_STORE);
        verdictStore = context.getStateStore(Names.STEADY_STATE_STORE);
        wafStore = context.getStateStore(Names.WAF_SERIES_STORE);
        Duration timeout = config.heartbeatTimeout();
        Duration every = timeout.dividedBy(4).compareTo(Duration.ofSeconds(5)) < 0
                ? timeout.dividedBy(4) : Duration.ofSeconds(5);
        if (every.isZero()) {
            every = Duration.ofMillis(1);
        }
        context.schedule(every, PunctuationType.WALL_CLOCK_TIME, this::checkHeartbeats);
    }

    @Override
    public void process(Record<String, IoStreamRecord> record) {
        String runId = record.key();
        if (runId == null || record.value() == null) {
            return;
        }
        outputTimestampMs = record.timestamp();
        RunState state = load(runId);
        Object event = record.value().getEvent();
        if (event instanceof IoBatch batch) {
            onBatch(state, batch);
        } else if (event instanceof PhaseChanged change) {
            onPhaseChanged(state, change);
        } else if (event instanceof RunFinished finished) {
            finish(state, finished.getStatus(), finished.getReason(), finished.getTimeNs(), finished.getIoCount());
        }
        if (state.isRunning()) {
            activityStore.put(runId, context.currentSystemTimeMs());
        }
        stateStore.put(runId, state);
        if (!state.isRunning()) {
            // a finished run rarely gets more events (late or duplicate ones): encoded now and kept in the store
            // only, so memory holds live runs and does not grow with the number of runs ever seen
            stateStore.evict(runId);
        }
    }

    private RunState load(String runId) {
        RunState state = stateStore.getLive(runId);
        if (state != null) {
            return state;
        }
        byte[] stored = stateStore.getEncoded(runId);
        if (stored == null) {
            state = new RunState(runId, new RunWindowAggregator(config.windowSizeNs(), config.graceNs(), bins,
                    STATE_TAIL_LIMIT, w -> { }), new RunSummaryAccumulator(bins));
            statusStore.put(runId, Names.STATUS_RUNNING);
        } else {
            state = RunState.decode(runId, stored);
            rebuildDetectors(state);
        }
        RunState owner = state;
        state.setOnClosed(w -> onWindowClosed(owner, w));
        stateStore.put(runId, state);
        return state;
    }

    private void onBatch(RunState state, IoBatch batch) {
        Long max = state.maxBatchSequence.get(batch.getWorker());
        if (max != null && batch.getBatchSequence() <= max) {
            // one worker's batches arrive in order in one partition: a sequence not above the highest seen is
            // a duplicate (producer retry without idempotence, a replayed record); its I/Os are counted once
            state.duplicateBatchCount++;
            state.summaryChanged();
            return;
        }
        state.maxBatchSequence.put(batch.getWorker(), batch.getBatchSequence());
        int phase = batch.getPhaseIndex();
        reader.reset(batch);
        while (reader.next()) {
            int op = reader.opOrdinal();
            long completion = reader.completionTimeNs();
            long size = reader.sizeBytes();
            long latency = reader.latencyNs();
            int status = reader.status();
            if (!state.windows.add(op, phase, completion, size, latency, status)) {
                state.summary.add(op, phase, completion, size, latency, status);
                state.summaryChanged();
            }
        }
        emitReadyPhaseEnds(state);
    }

    private void onPhaseChanged(RunState state, PhaseChanged change) {
        int phase = change.getPhaseIndex();
        state.phases.put(phase, new RunState.PhaseInfo(change.getPhaseName(), change.getPhaseKind(),
                change.getTimeNs()));
        if (state.currentPhase != Integer.MIN_VALUE && state.currentPhase != phase
                && !state.finishedPhases.contains(state.currentPhase)) {
            state.pendingPhaseEndsNs.put(state.currentPhase, change.getTimeNs());
        }
        state.currentPhase = phase;
        emitReadyPhaseEnds(state);
    }

    private void emitReadyPhaseEnds(RunState state) {
        if (state.pendingPhaseEndsNs.isEmpty()) {
            return;
        }
        long size = config.windowSizeNs();
        List<Integer> ready = new ArrayList<>(1);
        for (Map.Entry<Integer, Long> e : state.pendingPhaseEndsNs.entrySet()) {
            long windowEnd = (Math.floorDiv(e.getValue(), size) + 1) * size;
            if (state.windows.watermarkNs() >= windowEnd) {
                ready.add(e.getKey());
            }
        }
        for (int phase : ready) {
            endPhase(state, phase, state.pendingPhaseEndsNs.remove(phase));
        }
    }

    private void endPhase(RunState state, int phase, long endNs) {
        if (!state.finishedPhases.add(phase)) {
            return;
        }
        for (int op = 0; op < IoOps.COUNT; op++) {
            OpTotals totals = state.summary.phaseTotals(phase, op);
            if (totals != null) {
                forward(Names.LATENCY_SINK, state.runId, AvroMappers.runLatency(state.runId, op, phase, endNs,
                        totals.latency(), totals.bytes()));
            }
            SteadyStateSlots slots = state.detectors.remove(RunState.detectorKey(phase, op));
            if (slots != null) {
                emitVerdicts(state, phase, op, slots.finish(endNs));
            }
        }
    }

    private void emitRunLatency(RunState state, long asOfNs) {
        for (int op = 0; op < IoOps.COUNT; op++) {
            OpTotals totals = state.summary.runTotals(op);
            if (totals != null) {
                forward(Names.LATENCY_SINK, state.runId, AvroMappers.runLatency(state.runId, op, -1, asOfNs,
                        totals.latency(), totals.bytes()));
            }
        }
    }

    private void onWindowClosed(RunState state, WindowResult window) {
        state.summary.addWindow(window);
        state.summaryChanged();
        WindowMetrics metrics = AvroMappers.windowMetrics(state.runId, window, true);
        seriesStore.put(StoreKeys.window(state.runId, window.op(), window.windowStartNs()), metrics);
        forward(Names.METRICS_SINK, state.runId, metrics);
        feedDetectors(state, window.op(), window.phaseIndex(), window.windowStartNs(), window.windowSizeNs(),
                window.ioCount(), window.bytes(), true);
        if (++state.windowsSinceLatency >= config.latencyEveryWindows()) {
            state.windowsSinceLatency = 0;
            emitRunLatency(state, window.windowEndNs());
        }
    }

    /** Feeds a closed window of a TEST phase to its detectors; emit=false while rebuilding after a miss. */
    private void feedDetectors(RunState state, int op, int phase, long startNs, long sizeNs, long ioCount,
                               long bytes, boolean emit) {
        RunState.PhaseInfo info = state.phases.get(phase);
        if (info == null || info.kind() != PhaseKind.TEST || state.finishedPhases.contains(phase)) {
            return;
        }
        long alignedStart = alignedStart(info.startNs());
        if (startNs < alignedStart) {
            return;
        }
        SteadyStateSlots slots = state.detectors.computeIfAbsent(RunState.detectorKey(phase, op),
                k -> new SteadyStateSlots(alignedStart, config.windowSizeNs(), config.sniaRoundNs(),
                        config.fioCriteria()));
        List<SteadyStateSlots.Emitted> emitted = slots.acceptWindow(startNs, sizeNs, ioCount, bytes);
        if (emit) {
            emitVerdicts(state, phase, op, emitted);
        }
    }

    /** Detector rounds start at the first window boundary at or after the phase start. */
    private long alignedStart(long phaseStartNs) {
        long size = config.windowSizeNs();
        return -Math.floorDiv(-phaseStartNs, size) * size;
    }

    private void emitVerdicts(RunState state, int phase, int op, List<SteadyStateSlots.Emitted> emitted) {
        for (SteadyStateSlots.Emitted e : emitted) {
            SteadyStateVerdict verdict = AvroMappers.steadyStateVerdict(state.runId, op, phase, e.result());
            verdictStore.put(StoreKeys.verdict(state.runId, phase, op, e.slot()), verdict);
            forward(Names.STEADY_STATE_SINK, state.runId, verdict);
        }
    }

    /** After a miss: replays the closed windows of unfinished TEST phases into fresh detectors, silently. */
    private void rebuildDetectors(RunState state) {
        for (Map.Entry<Integer, RunState.PhaseInfo> phase : state.phases.entrySet()) {
            int p = phase.getKey();
            if (phase.getValue().kind() != PhaseKind.TEST || state.finishedPhases.contains(p)) {
                continue;
            }
            for (int op = 0; op < IoOps.COUNT; op++) {
                String from = StoreKeys.window(state.runId, op, alignedStart(phase.getValue().startNs()));
                String to = StoreKeys.window(state.runId, op, Long.MAX_VALUE);
                try (KeyValueIterator<String, WindowMetrics> it = seriesStore.range(from, to)) {
                    while (it.hasNext()) {
                        WindowMetrics w = it.next().value;
                        if (w.getPhaseIndex() == p) {
                            feedDetectors(state, op, p, w.getWindowStartNs(), w.getWindowSizeNs(), w.getIoCount(),
                                    w.getBytes(), false);
                        }
                    }
                }
                SteadyStateSlots slots = state.detectors.get(RunState.detectorKey(p, op));
                if (slots != null) {
                    for (int slot = 0; slot < slots.slotCount(); slot++) {
                        SteadyStateVerdict last = verdictStore.get(StoreKeys.verdict(state.runId, p, op, slot));
                        if (last != null) {
                            slots.restoreEmitted(slot, last.getReached(), last.getFinalVerdict());
                        }
                    }
                }
            }
        }
    }

    private void finish(RunState state, RunStatus status, CharSequence reason, long endNs, long ioCountExpected) {
        state.windows.flushAll();
        List<Integer> pending = new ArrayList<>(state.pendingPhaseEndsNs.keySet());
        for (int phase : pending) {
            endPhase(state, phase, state.pendingPhaseEndsNs.remove(phase));
        }
        if (state.currentPhase != Integer.MIN_VALUE) {
            endPhase(state, state.currentPhase, endNs);
        }
        emitRunLatency(state, endNs);
        state.status = status.name();
        state.summaryChanged();
        RunSummary summary = AvroMappers.runSummary(state.runId, status, reason == null ? null : reason.toString(),
                state.summary.summarize(endNs), p -> label(state, p), latestWriteAmplification(state.runId),
                verdicts(state.runId), ioCountExpected, state.windows.lateIoCount(), state.duplicateBatchCount);
        summaryStore.put(state.runId, summary);
        statusStore.put(state.runId, state.status);
        activityStore.delete(state.runId);
        forward(Names.SUMMARY_SINK, state.runId, summary);
    }

    private static PhaseLabel label(RunState state, int phase) {
        RunState.PhaseInfo info = state.phases.get(phase);
        return info == null ? null : new PhaseLabel(info.name(), info.kind());
    }

    private WriteAmplification latestWriteAmplification(String runId) {
        try (KeyValueIterator<String, WriteAmplification> it =
                     wafStore.reverseRange(StoreKeys.runPrefix(runId), StoreKeys.runEnd(runId))) {
            return it.hasNext() ? it.next().value : null;
        }
    }

    private List<SteadyStateVerdict> verdicts(String runId) {
        List<SteadyStateVerdict> list = new ArrayList<>();
        try (KeyValueIterator<String, SteadyStateVerdict> it =
                     verdictStore.range(StoreKeys.runPrefix(runId), StoreKeys.runEnd(runId))) {
            it.forEachRemaining(kv -> list.add(kv.value));
        }
        return list;
    }

    /** Marks runs silent for longer than the heartbeat timeout INCOMPLETE and emits their summary. */
    private void checkHeartbeats(long nowMs) {
        long limitMs = nowMs - config.heartbeatTimeout().toMillis();
        if (initWallMs >= limitMs) {
            return; // not one timeout since this task started: every stored activity counts as "now"
        }
        List<String> expired = new ArrayList<>();
        try (KeyValueIterator<String, Long> it = activityStore.all()) {
            while (it.hasNext()) {
                KeyValue<String, Long> kv = it.next();
                if (kv.value != null && kv.value < limitMs) {
                    expired.add(kv.key);
                }
            }
        }
        for (String runId : expired) {
            outputTimestampMs = nowMs;
            RunState state = load(runId);
            if (!state.isRunning()) {
                activityStore.delete(runId);
                stateStore.evict(runId);
                continue;
            }
            long endNs = state.windows.maxCompletionTimeNs() == Long.MIN_VALUE ? 0 : state.windows.maxCompletionTimeNs();
            finish(state, RunStatus.INCOMPLETE, "no event for more than " + config.heartbeatTimeout().toSeconds()
                    + " s (heartbeat timeout)", endNs, -1);
            stateStore.put(runId, state);
            stateStore.evict(runId);
        }
    }

    private void forward(String sink, String runId, SpecificRecord value) {
        context.forward(new Record<>(runId, value, outputTimestampMs), sink);
    }
}
