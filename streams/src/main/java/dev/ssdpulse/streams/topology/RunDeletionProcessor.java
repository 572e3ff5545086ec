package dev.ssdpulse.streams.topology;

import dev.ssdpulse.schemas.avro.ResultSetStarted;
import dev.ssdpulse.schemas.avro.RunDeleted;
import dev.ssdpulse.streams.resultsets.ResultSetNames;
import java.util.ArrayList;
import java.util.List;
import org.apache.kafka.streams.processor.api.Processor;
import org.apache.kafka.streams.processor.api.ProcessorContext;
import org.apache.kafka.streams.processor.api.Record;
import org.apache.kafka.streams.state.KeyValueIterator;
import org.apache.kafka.streams.state.KeyValueStore;

/**
 * Applies ssdpulse.run-deletions.v1: marks the run deleted (its later raw events and result-set records are
 * ignored) and removes every view entry of the run and of its result sets, and its power-loss verification. The stores' changelogs get the
 * matching tombstones, so a restored instance does not bring them back.
 */
public final class RunDeletionProcessor implements Processor<String, RunDeleted, Void, Void> {
    private KeyValueStore<String, Long> deleted;
    private RunViewStores views;
    private EncodeOnCommitStore<?> runState;
    private KeyValueStore<String, Long> activity;
    private KeyValueStore<String, ?> verifications;

    @Override
    public void init(ProcessorContext<Void, Void> context) {
        deleted = context.getStateStore(Names.DELETED_RUNS_STORE);
        views = RunViewStores.of(context);
        runState = context.getStateStore(Names.RUN_STATE_STORE);
        activity = context.getStateStore(Names.RUN_ACTIVITY_STORE);
        verifications = context.getStateStore(Names.VERIFICATION_STORE);
    }

    @Override
    public void process(Record<String, RunDeleted> record) {
        String runId = record.key();
        if (runId == null || ResultSetNames.isAlias(runId)) {
            return;
        }
        if (record.value() == null) {
            // the marker was removed (tombstone): the run's raw events count again from now on
            deleted.delete(runId);
            return;
        }
        deleted.put(runId, record.value().getDeletedAtEpochMs().toEpochMilli());
        List<String> keys = new ArrayList<>();
        keys.add(runId);
        try (KeyValueIterator<String, ResultSetStarted> it =
                views.info().range(ResultSetNames.aliasesFrom(runId), ResultSetNames.aliasesTo(runId))) {
            it.forEachRemaining(kv -> keys.add(kv.key));
        }
        for (String key : keys) {
            views.clear(key);
        }
        runState.delete(runId);
        activity.delete(runId);
        verifications.delete(runId);
    }
}
