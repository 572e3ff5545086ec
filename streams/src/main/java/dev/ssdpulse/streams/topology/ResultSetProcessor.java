package dev.ssdpulse.streams.topology;

import dev.ssdpulse.schemas.avro.ResultSetRecord;
import dev.ssdpulse.schemas.avro.ResultSetStarted;
import dev.ssdpulse.schemas.avro.RunSummary;
import dev.ssdpulse.schemas.avro.SteadyStateVerdict;
import dev.ssdpulse.schemas.avro.WindowMetrics;
import dev.ssdpulse.schemas.avro.WriteAmplification;
import dev.ssdpulse.streams.analysis.RunAnalysis;
import dev.ssdpulse.streams.resultsets.ResultSetNames;
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
    private RunViewStores views;
    private KeyValueStore<String, Long> deleted;

    @Override
    public void init(ProcessorContext<Void, Void> context) {
        views = RunViewStores.of(context);
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
            views.clear(alias);
            views.info().put(alias, started);
            views.status().put(alias, Names.STATUS_RUNNING);
            return;
        }
        if (views.info().get(alias) == null) {
            // outputs without their ResultSetStarted (a re-analysis whose start marker expired): not a result set
            return;
        }
        if (event instanceof WindowMetrics w) {
            views.series().put(StoreKeys.window(alias, w.getOp().ordinal(), w.getWindowStartNs()), w);
        } else if (event instanceof SteadyStateVerdict v) {
            views.verdicts().put(verdictKey(alias, v), v);
        } else if (event instanceof WriteAmplification wa) {
            views.waf().put(StoreKeys.waf(alias, wa.getToTimeNs()), wa);
        } else if (event instanceof RunSummary s) {
            views.summaries().put(alias, s);
            views.status().put(alias, s.getStatus().name());
        }
    }

    /**
     * The live processor keys verdicts by (phase, op, slot): slot 0 SNIA, 1 + i the i-th fio criterion, i.e. in
     * the order the criteria first produce a verdict; fio's all-directions judgement has no SNIA slot, so its
     * slots start at 1. Here the same order is kept: the slot of an earlier verdict of the same method and
     * criteria, else the next free one.
     */
    private String verdictKey(String alias, SteadyStateVerdict v) {
        int op = v.getAllOps() ? RunAnalysis.ALL_OPS : v.getOp().ordinal();
        String from = StoreKeys.verdict(alias, v.getPhaseIndex(), op, 0);
        String to = StoreKeys.verdict(alias, v.getPhaseIndex(), op, 0).replaceFirst("0$", "~");
        int next = v.getAllOps() ? 1 : 0;
        try (KeyValueIterator<String, SteadyStateVerdict> it = views.verdicts().range(from, to)) {
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
