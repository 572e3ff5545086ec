package dev.ssdpulse.streams.topology;

import dev.ssdpulse.schemas.avro.IoBatch;
import dev.ssdpulse.schemas.avro.IoStreamRecord;
import dev.ssdpulse.schemas.avro.LatencyScatter;
import dev.ssdpulse.schemas.avro.PhaseChanged;
import dev.ssdpulse.schemas.avro.RunFinished;
import dev.ssdpulse.schemas.avro.RunLatency;
import dev.ssdpulse.schemas.avro.RunStatus;
import dev.ssdpulse.schemas.avro.RunSummary;
import dev.ssdpulse.schemas.avro.SmartSample;
import dev.ssdpulse.schemas.avro.SteadyStateVerdict;
import dev.ssdpulse.schemas.avro.WindowMetrics;
import dev.ssdpulse.schemas.avro.WriteAmplification;
import dev.ssdpulse.streams.analysis.AnalysisOutput;
import dev.ssdpulse.streams.analysis.AnalysisSettings;
import dev.ssdpulse.streams.analysis.RunAnalysis;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import org.apache.avro.specific.SpecificRecord;
import org.apache.kafka.streams.KeyValue;
import org.apache.kafka.streams.processor.PunctuationType;
import org.apache.kafka.streams.processor.api.Processor;
import org.apache.kafka.streams.processor.api.ProcessorContext;
import org.apache.kafka.streams.processor.api.Record;
import org.apache.kafka.streams.state.KeyValueIterator;
import org.apache.kafka.streams.state.KeyValueStore;

/**
 * The Kafka Streams adapter of {@link RunAnalysis}: feeds it the decoded records of ssdpulse.io.v1 (I/O batches,
 * phase changes, run ends) and ssdpulse.smart.v1 (SMART samples; the topics are co-partitioned, so one task sees
 * both of a run), routes its outputs to the sinks and the queryable stores, and ends runs that fell silent.
 *
 * <p><b>Why the Processor API and not DSL windowedBy.</b> DSL windows close on the partition's stream time
 * (the max record timestamp seen by the task). Many runs share a partition and are at unrelated run times (a
 * simulated run at 100x next to a live one, a replay next to both), so one run's windows would close because
 * of another run's progress, or never. The analysis closes each run's windows on its own watermark. Record
 * timestamps play no part in any result.
 *
 * <p><b>State.</b> One value per run in {@link Names#RUN_STATE_STORE}, an {@link EncodeOnCommitStore}: the live
 * {@link RunAnalysis} is updated by every event and encoded into the changelogged store at every commit (so a
 * crash + restart under exactly_once_v2 resumes from exactly the committed state); it is decoded only on a miss
 * (a new task, a restart). The other stores are views of the outputs, for the HTTP API.
 */
public final class RunEventProcessor implements Processor<String, SpecificRecord, String, SpecificRecord> {
    private final AnalysisSettings settings;
    private final Duration heartbeatTimeout;
    private final StoreOutput output = new StoreOutput();
    private ProcessorContext<String, SpecificRecord> context;
    private EncodeOnCommitStore<RunAnalysis> stateStore;
    private KeyValueStore<String, Long> activityStore;
    private KeyValueStore<String, String> statusStore;
    private KeyValueStore<String, RunSummary> summaryStore;
    private KeyValueStore<String, WindowMetrics> seriesStore;
    private KeyValueStore<String, LatencyScatter> scatterStore;
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

    /** @param heartbeatTimeout a run with no event for this long (wall clock) is marked INCOMPLETE */
    public RunEventProcessor(AnalysisSettings settings, Duration heartbeatTimeout) {
        this.settings = settings;
        this.heartbeatTimeout = heartbeatTimeout;
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
        scatterStore = context.getStateStore(Names.LATENCY_SCATTER_STORE);
        verdictStore = context.getStateStore(Names.STEADY_STATE_STORE);
        wafStore = context.getStateStore(Names.WAF_SERIES_STORE);
        Duration timeout = heartbeatTimeout;
        Duration every = timeout.dividedBy(4).compareTo(Duration.ofSeconds(5)) < 0
                ? timeout.dividedBy(4)
                : Duration.ofSeconds(5);
        if (every.isZero()) {
            every = Duration.ofMillis(1);
        }
        context.schedule(every, PunctuationType.WALL_CLOCK_TIME, this::checkHeartbeats);
    }

    @Override
    public void process(Record<String, SpecificRecord> record) {
        String runId = record.key();
        if (runId == null || record.value() == null) {
            return;
        }
        outputTimestampMs = record.timestamp();
        RunAnalysis run = load(runId);
        if (record.value() instanceof SmartSample sample) {
            run.smart(sample);
        } else if (record.value() instanceof IoStreamRecord io) {
            Object event = io.getEvent();
            if (event instanceof IoBatch batch) {
                run.ioBatch(batch);
            } else if (event instanceof PhaseChanged change) {
                run.phaseChanged(
                        change.getPhaseIndex(),
                        change.getPhaseName().toString(),
                        change.getPhaseKind(),
                        change.getTimeNs());
            } else if (event instanceof RunFinished finished) {
                finished.getReplayPhases().forEach(run::replayFinished);
                run.finish(
                        finished.getStatus(),
                        finished.getReason() == null
                                ? null
                                : finished.getReason().toString(),
                        finished.getTimeNs(),
                        finished.getIoCount(),
                        finished.getIoNotPublished());
            }
        }
        if (run.isRunning()) {
            activityStore.put(runId, context.currentSystemTimeMs());
        }
        stateStore.put(runId, run);
        if (!run.isRunning()) {
            // a finished run rarely gets more events (late samples, duplicates): encoded now and kept in the
            // store only, so memory holds live runs and does not grow with the number of runs ever seen
            stateStore.evict(runId);
        }
    }

    private RunAnalysis load(String runId) {
        RunAnalysis run = stateStore.getLive(runId);
        if (run != null) {
            return run;
        }
        byte[] stored = stateStore.getEncoded(runId);
        if (stored == null) {
            run = new RunAnalysis(runId, settings, output);
            statusStore.put(runId, Names.STATUS_RUNNING);
        } else {
            run = RunAnalysis.decode(runId, stored, settings, output);
        }
        stateStore.put(runId, run);
        return run;
    }

    /** Marks runs silent for longer than the heartbeat timeout INCOMPLETE and emits their summary. */
    private void checkHeartbeats(long nowMs) {
        long limitMs = nowMs - heartbeatTimeout.toMillis();
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
            RunAnalysis run = load(runId);
            activityStore.delete(runId);
            if (run.isRunning()) {
                long endNs = run.maxCompletionTimeNs() == Long.MIN_VALUE ? 0 : run.maxCompletionTimeNs();
                run.finish(
                        RunStatus.INCOMPLETE,
                        "no event for more than " + heartbeatTimeout.toSeconds() + " s (heartbeat timeout)",
                        endNs,
                        -1,
                        0);
                stateStore.put(runId, run);
            }
            stateStore.evict(runId);
        }
    }

    /** Outputs go to their sink topic and, where the HTTP API reads them, to a store. */
    private final class StoreOutput implements AnalysisOutput {
        @Override
        public void window(WindowMetrics window) {
            String runId = window.getRunId().toString();
            seriesStore.put(StoreKeys.window(runId, window.getOp().ordinal(), window.getWindowStartNs()), window);
            forward(Names.METRICS_SINK, runId, window);
        }

        @Override
        public void latency(RunLatency latency) {
            forward(Names.LATENCY_SINK, latency.getRunId().toString(), latency);
        }

        @Override
        public void scatter(LatencyScatter scatter) {
            String runId = scatter.getRunId().toString();
            scatterStore.put(StoreKeys.scatter(runId, scatter.getWindowStartNs()), scatter);
            forward(Names.LATENCY_SCATTER_SINK, runId, scatter);
        }

        @Override
        public void verdict(SteadyStateVerdict verdict, int slot) {
            String runId = verdict.getRunId().toString();
            int op = verdict.getAllOps() ? RunAnalysis.ALL_OPS : verdict.getOp().ordinal();
            verdictStore.put(StoreKeys.verdict(runId, verdict.getPhaseIndex(), op, slot), verdict);
            forward(Names.STEADY_STATE_SINK, runId, verdict);
        }

        @Override
        public void writeAmplification(WriteAmplification interval) {
            String runId = interval.getRunId().toString();
            wafStore.put(StoreKeys.waf(runId, interval.getToTimeNs()), interval);
            forward(Names.WAF_SINK, runId, interval);
        }

        @Override
        public void summary(RunSummary summary) {
            String runId = summary.getRunId().toString();
            summaryStore.put(runId, summary);
            statusStore.put(runId, summary.getStatus().name());
            activityStore.delete(runId);
            forward(Names.SUMMARY_SINK, runId, summary);
        }

        @Override
        public List<WriteAmplification> writeAmplificationSeries(String runId) {
            List<WriteAmplification> series = new ArrayList<>();
            try (KeyValueIterator<String, WriteAmplification> it =
                    wafStore.range(StoreKeys.runPrefix(runId), StoreKeys.runEnd(runId))) {
                it.forEachRemaining(kv -> series.add(kv.value));
            }
            return series;
        }

        private void forward(String sink, String runId, SpecificRecord value) {
            context.forward(new Record<>(runId, value, outputTimestampMs), sink);
        }
    }
}
