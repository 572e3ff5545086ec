package dev.ssdpulse.streams.topology;

import dev.ssdpulse.schemas.avro.LatencyScatter;
import dev.ssdpulse.schemas.avro.ResultSetStarted;
import dev.ssdpulse.schemas.avro.RunSummary;
import dev.ssdpulse.schemas.avro.SteadyStateVerdict;
import dev.ssdpulse.schemas.avro.WindowMetrics;
import dev.ssdpulse.schemas.avro.WriteAmplification;
import org.apache.kafka.streams.processor.api.ProcessorContext;
import org.apache.kafka.streams.state.KeyValueStore;

/**
 * The view stores a run or a result-set alias ({@code RUN@NAME}) has entries in, as one processor sees them:
 * written by the result-set processor, cleared by it (a replaced result set) and by the deletion processor.
 */
record RunViewStores(
        KeyValueStore<String, ResultSetStarted> info,
        KeyValueStore<String, String> status,
        KeyValueStore<String, RunSummary> summaries,
        KeyValueStore<String, WindowMetrics> series,
        KeyValueStore<String, SteadyStateVerdict> verdicts,
        KeyValueStore<String, WriteAmplification> waf,
        KeyValueStore<String, LatencyScatter> scatter) {

    static RunViewStores of(ProcessorContext<?, ?> context) {
        return new RunViewStores(
                context.getStateStore(Names.RESULT_SET_INFO_STORE),
                context.getStateStore(Names.RUN_STATUS_STORE),
                context.getStateStore(Names.RUN_SUMMARY_STORE),
                context.getStateStore(Names.WINDOW_SERIES_STORE),
                context.getStateStore(Names.STEADY_STATE_STORE),
                context.getStateStore(Names.WAF_SERIES_STORE),
                context.getStateStore(Names.LATENCY_SCATTER_STORE));
    }

    /** Deletes every view entry of a run or alias key. */
    void clear(String key) {
        summaries.delete(key);
        status.delete(key);
        info.delete(key);
        RunKeys.deletePrefixed(series, key);
        RunKeys.deletePrefixed(verdicts, key);
        RunKeys.deletePrefixed(waf, key);
        RunKeys.deletePrefixed(scatter, key);
    }
}
