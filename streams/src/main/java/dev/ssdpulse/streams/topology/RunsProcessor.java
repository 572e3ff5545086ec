package dev.ssdpulse.streams.topology;

import dev.ssdpulse.schemas.avro.RunStarted;
import org.apache.kafka.streams.processor.api.Processor;
import org.apache.kafka.streams.processor.api.ProcessorContext;
import org.apache.kafka.streams.processor.api.Record;
import org.apache.kafka.streams.state.KeyValueStore;

/**
 * Materializes the compacted runs topic (RunStarted per run id) into {@link Names#RUNS_STORE}. A run is RUNNING
 * from its RunStarted on (not only from its first I/O-stream event), and its silence counts from then: a producer
 * that dies right after announcing a run gets the run ended INCOMPLETE by the heartbeat timeout. The topic is
 * co-partitioned with the I/O stream, so this shares the run processor's task and stores.
 */
public final class RunsProcessor implements Processor<String, RunStarted, Void, Void> {
    private ProcessorContext<Void, Void> context;
    private KeyValueStore<String, RunStarted> runs;
    private KeyValueStore<String, String> statuses;
    private KeyValueStore<String, Long> activity;

    @Override
    public void init(ProcessorContext<Void, Void> context) {
        this.context = context;
        runs = context.getStateStore(Names.RUNS_STORE);
        statuses = context.getStateStore(Names.RUN_STATUS_STORE);
        activity = context.getStateStore(Names.RUN_ACTIVITY_STORE);
    }

    @Override
    public void process(Record<String, RunStarted> record) {
        if (record.key() == null) {
            return;
        }
        if (record.value() == null) {
            // tombstone of `ssdpulse runs delete`
            runs.delete(record.key());
        } else {
            runs.put(record.key(), record.value());
            if (statuses.get(record.key()) == null) {
                statuses.put(record.key(), Names.STATUS_RUNNING);
                activity.put(record.key(), context.currentSystemTimeMs());
            }
        }
    }
}
