package dev.ssdpulse.streams.topology;

import dev.ssdpulse.schemas.avro.RunStarted;
import org.apache.kafka.streams.processor.api.Processor;
import org.apache.kafka.streams.processor.api.ProcessorContext;
import org.apache.kafka.streams.processor.api.Record;
import org.apache.kafka.streams.state.KeyValueStore;

/** Materializes the compacted runs topic (RunStarted per run id) into {@link Names#RUNS_STORE}. */
public final class RunsProcessor implements Processor<String, RunStarted, Void, Void> {
    private KeyValueStore<String, RunStarted> runs;

    @Override
    public void init(ProcessorContext<Void, Void> context) {
        runs = context.getStateStore(Names.RUNS_STORE);
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
        }
    }
}
