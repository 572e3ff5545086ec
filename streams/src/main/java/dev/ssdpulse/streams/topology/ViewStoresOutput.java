package dev.ssdpulse.streams.topology;

import dev.ssdpulse.schemas.avro.LatencyScatter;
import dev.ssdpulse.schemas.avro.RunLatency;
import dev.ssdpulse.schemas.avro.RunSummary;
import dev.ssdpulse.schemas.avro.SteadyStateVerdict;
import dev.ssdpulse.schemas.avro.WindowMetrics;
import dev.ssdpulse.schemas.avro.WriteAmplification;
import dev.ssdpulse.schemas.iobatch.IoOpCode;
import dev.ssdpulse.streams.analysis.AnalysisOutput;
import dev.ssdpulse.streams.analysis.RunAnalysis;
import java.util.ArrayList;
import java.util.List;
import org.apache.avro.specific.SpecificRecord;
import org.apache.kafka.streams.processor.api.ProcessorContext;
import org.apache.kafka.streams.processor.api.Record;
import org.apache.kafka.streams.state.KeyValueIterator;
import org.apache.kafka.streams.state.KeyValueStore;

/**
 * Where the analysis of a run (or of a run group) goes in the topology: each output to its sink topic and, where the
 * HTTP API reads it, to a view store, after which the listeners of the run's views hear of it ({@link ViewChanges}).
 * A closed window also takes the place of the open one the views showed for its direction.
 */
final class ViewStoresOutput implements AnalysisOutput {
    private final ProcessorContext<String, SpecificRecord> context;
    private final ViewChanges changes;
    private final KeyValueStore<String, String> statusStore;
    private final KeyValueStore<String, RunSummary> summaryStore;
    private final KeyValueStore<String, WindowMetrics> seriesStore;
    private final KeyValueStore<String, WindowMetrics> openWindowStore;
    private final KeyValueStore<String, LatencyScatter> scatterStore;
    private final KeyValueStore<String, SteadyStateVerdict> verdictStore;
    private final KeyValueStore<String, WriteAmplification> wafStore;
    /** Timestamp of the outputs: the input record's (Kafka bookkeeping only), or wall clock in a punctuation. */
    private long timestampMs;

    ViewStoresOutput(ProcessorContext<String, SpecificRecord> context, ViewChanges changes) {
        this.context = context;
        this.changes = changes;
        statusStore = context.getStateStore(Names.RUN_STATUS_STORE);
        summaryStore = context.getStateStore(Names.RUN_SUMMARY_STORE);
        seriesStore = context.getStateStore(Names.WINDOW_SERIES_STORE);
        openWindowStore = context.getStateStore(Names.OPEN_WINDOW_STORE);
        scatterStore = context.getStateStore(Names.LATENCY_SCATTER_STORE);
        verdictStore = context.getStateStore(Names.STEADY_STATE_STORE);
        wafStore = context.getStateStore(Names.WAF_SERIES_STORE);
    }

    void timestamp(long ms) {
        timestampMs = ms;
    }

    KeyValueStore<String, String> statusStore() {
        return statusStore;
    }

    @Override
    public void window(WindowMetrics window) {
        String runId = window.getRunId();
        int op = window.getOp().ordinal();
        seriesStore.put(StoreKeys.window(runId, op, window.getWindowStartNs()), window);
        String openKey = StoreKeys.openWindow(runId, op);
        WindowMetrics open = openWindowStore.get(openKey);
        if (open != null && open.getWindowStartNs() <= window.getWindowStartNs()) {
            openWindowStore.delete(openKey);
        }
        forward(Names.METRICS_SINK, runId, window);
        changes.changed(runId);
    }

    /**
     * The open windows of a run as they stand (provisional; see {@link RunAnalysis#openWindow}), replacing what the
     * views showed; a direction without an open window shows none.
     */
    void openWindows(String runId, RunAnalysis run) {
        boolean any = false;
        for (int op = 0; op < IoOpCode.COUNT; op++) {
            String key = StoreKeys.openWindow(runId, op);
            WindowMetrics open = run == null ? null : run.openWindow(op);
            if (open != null) {
                openWindowStore.put(key, open);
                any = true;
            } else if (openWindowStore.get(key) != null) {
                openWindowStore.delete(key);
                any = true;
            }
        }
        if (any) {
            changes.changed(runId);
        }
    }

    @Override
    public void latency(RunLatency latency) {
        forward(Names.LATENCY_SINK, latency.getRunId(), latency);
    }

    @Override
    public void scatter(LatencyScatter scatter) {
        String runId = scatter.getRunId();
        scatterStore.put(StoreKeys.scatter(runId, scatter.getWindowStartNs()), scatter);
        forward(Names.LATENCY_SCATTER_SINK, runId, scatter);
    }

    @Override
    public void verdict(SteadyStateVerdict verdict, int slot) {
        String runId = verdict.getRunId();
        int op = verdict.getAllOps() ? RunAnalysis.ALL_OPS : verdict.getOp().ordinal();
        verdictStore.put(StoreKeys.verdict(runId, verdict.getPhaseIndex(), op, slot), verdict);
        forward(Names.STEADY_STATE_SINK, runId, verdict);
        changes.changed(runId);
    }

    @Override
    public void writeAmplification(WriteAmplification interval) {
        String runId = interval.getRunId();
        wafStore.put(StoreKeys.waf(runId, interval.getToTimeNs()), interval);
        forward(Names.WAF_SINK, runId, interval);
        changes.changed(runId);
    }

    @Override
    public void summary(RunSummary summary) {
        String runId = summary.getRunId();
        summaryStore.put(runId, summary);
        statusStore.put(runId, summary.getStatus().name());
        forward(Names.SUMMARY_SINK, runId, summary);
        changes.changed(runId);
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

    private void forward(String sink, String key, SpecificRecord value) {
        context.forward(new Record<>(key, value, timestampMs), sink);
    }
}
