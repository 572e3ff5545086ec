package dev.ssdpulse.streams.resultsets;

import dev.ssdpulse.schemas.avro.ResultSetRecord;
import dev.ssdpulse.schemas.avro.ResultSetStarted;
import dev.ssdpulse.schemas.avro.RunSummary;
import dev.ssdpulse.schemas.avro.SteadyStateVerdict;
import dev.ssdpulse.schemas.avro.WindowMetrics;
import dev.ssdpulse.schemas.avro.WriteAmplification;
import dev.ssdpulse.streams.topology.Names;
import dev.ssdpulse.streams.topology.StoreKeys;
import java.util.Objects;
import org.apache.kafka.streams.processor.api.Processor;
import org.apache.kafka.streams.processor.api.ProcessorContext;
import org.apache.kafka.streams.processor.api.Record;
import org.apache.kafka.streams.state.KeyValueIterator;
import org.apache.kafka.streams.state.KeyValueStore;

/**
 * Materializes ssdpulse.result-sets.v1 into the per-run view stores under the alias key {@code RUN@NAME}, so every
 * view and endpoint serves a result set exactly as it serves a run. A ResultSetStarted replaces an earlier result
 * set of the same name. The run's own keys are never written. Runs deleted by the user are ignored.
 */
public final class ResultSetProcessor implements Processor<String, ResultSetRecord, Void, Void> {
    private KeyValueStore<String, ResultSetStarted> info;
    private KeyValueStore<String, String> status;
    private KeyValueStore<String, RunSummary> summaries;
    private KeyValueStore<String, WindowMetrics> series;
    private KeyValueStore<String, SteadyStateVerdict> verdicts;
    private KeyValueStore<String, WriteAmplification> waf;
    private KeyValueStore<String, Long> deleted;

    @Override
    public void init(ProcessorContext<Void, Void> context) {
        info = context.getStateStore(Names.RESULT_SET_INFO_STORE);
        status = context.getStateStore(Names.RUN_STATUS_STORE);
        summaries = context.getStateStore(Names.RUN_SUMMARY_STORE);
        series = context.getStateStore(Names.WINDOW_SERIES_STORE);
        verdicts = context.getStateStore(Names.STEADY_STATE_STORE);
        waf = context.getStateStore(Names.WAF_SERIES_STORE);
        deleted = context.getStateStore(Names.DELETED_RUNS_STORE);
    }

    @Override
    public void process(Record<String, ResultSetRecord> record) {
        String runId = record.key();
        if (runId == null || record.value() == null || ResultSetNames.isAlias(runId) || deleted.get(runId) != null) {
            return;
        }
        String name = record.value().getResultSet();
        String alias = ResultSetNames.alias(runId, name);
        Object event = record.value().getEvent();
        if (event instanceof ResultSetStarted started) {
            clear(alias, summaries, status, series, verdicts, waf, info);
            info.put(alias, started);
            status.put(alias, Names.STATUS_RUNNING);
            return;
        }
        if (info.get(alias) == null) {
            // outputs without their ResultSetStarted (a re-analysis whose start marker expired): not a result set
            return;
        }
        if (event instanceof WindowMetrics w) {
            series.put(StoreKeys.window(alias, w.getOp().ordinal(), w.getWindowStartNs()), w);
        } else if (event instanceof SteadyStateVerdict v) {
            verdicts.put(verdictKey(alias, v), v);
        } else if (event instanceof WriteAmplification wa) {
            waf.put(StoreKeys.waf(alias, wa.getToTimeNs()), wa);
        } else if (event instanceof RunSummary s) {
            summaries.put(alias, s);
            status.put(alias, s.getStatus().name());
        }
    }

    /** Deletes every view entry of a run or alias key. */
    static void clear(String key, KeyValueStore<String, RunSummary> summaries, KeyValueStore<String, String> status,
                      KeyValueStore<String, WindowMetrics> series, KeyValueStore<String, SteadyStateVerdict> verdicts,
                      KeyValueStore<String, WriteAmplification> waf, KeyValueStore<String, ResultSetStarted> info) {
        summaries.delete(key);
        status.delete(key);
        info.delete(key);
        RunKeys.deletePrefixed(series, key);
        RunKeys.deletePrefixed(verdicts, key);
        RunKeys.deletePrefixed(waf, key);
    }

    /**
     * The live processor keys verdicts by (phase, op, slot): slot 0 SNIA, 1 + i the i-th fio criterion, i.e. in
     * the order the criteria first produce a verdict. Here the same order is kept: the slot of an earlier verdict
     * of the same method and criteria, else the next free one.
     */
    private String verdictKey(String alias, SteadyStateVerdict v) {
        int op = v.getOp().ordinal();
        String from = StoreKeys.verdict(alias, v.getPhaseIndex(), op, 0);
        String to = StoreKeys.verdict(alias, v.getPhaseIndex(), op, 0).replaceFirst("0$", "~");
        int next = 0;
        try (KeyValueIterator<String, SteadyStateVerdict> it = verdicts.range(from, to)) {
            while (it.hasNext()) {
                var kv = it.next();
                int slot = Integer.parseInt(kv.key.substring(kv.key.lastIndexOf(StoreKeys.SEPARATOR) + 1));
                if (kv.value.getMethod() == v.getMethod()
                        && Objects.equals(String.valueOf(kv.value.getCriteria()), String.valueOf(v.getCriteria()))) {
                    return kv.key;
                }
                next = Math.max(next, slot + 1);
            }
        }
        return StoreKeys.verdict(alias, v.getPhaseIndex(), op, next);
    }
}
