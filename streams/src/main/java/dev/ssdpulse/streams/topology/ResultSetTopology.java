package dev.ssdpulse.streams.topology;

import dev.ssdpulse.schemas.avro.ResultSetRecord;
import dev.ssdpulse.schemas.avro.ResultSetStarted;
import dev.ssdpulse.schemas.avro.RunDeleted;
import dev.ssdpulse.schemas.topics.Topics;
import org.apache.kafka.common.serialization.ByteArrayDeserializer;
import org.apache.kafka.common.serialization.ByteArraySerializer;
import org.apache.kafka.common.serialization.Serdes;
import org.apache.kafka.common.serialization.StringDeserializer;
import org.apache.kafka.common.serialization.StringSerializer;
import org.apache.kafka.streams.Topology;

/**
 * The live application's part for stored runs: result sets and deletions.
 * <pre>
 * result-sets.v1 -> result-sets-decode -> result-sets-materialize (alias keys RUN@NAME in the view stores)
 * run-deletions.v1 -> run-deletions-decode -> run-deletions-apply (view entries removed, run marked deleted)
 * </pre>
 * Both share the per-run view stores with the run aggregation, so they join its sub-topology: the topics are
 * keyed by run id with the catalogue's partition count, hence a run's result sets live with its views on the
 * same instance (the HTTP routing by run id holds). The io and smart decoders get the deleted-runs store to
 * drop the raw events of deleted runs.
 */
public final class ResultSetTopology {
    private ResultSetTopology() {}

    public static void addTo(
            Topology topology, AnalyticsSerdes serdes, String deadLetterTopic, String rejectedBy, StoreFactory stores) {
        topology.addSource(
                Names.RESULT_SETS_SOURCE,
                new StringDeserializer(),
                new ByteArrayDeserializer(),
                Topics.RESULT_SETS.name());
        topology.addSource(
                Names.DELETIONS_SOURCE,
                new StringDeserializer(),
                new ByteArrayDeserializer(),
                Topics.RUN_DELETIONS.name());
        topology.addProcessor(
                Names.RESULT_SETS_DECODE,
                () -> new DecodeOrDeadLetterProcessor<>(
                        serdes.value(ResultSetRecord.class).deserializer(),
                        Names.RESULT_SETS_PROCESSOR,
                        Names.RESULT_SETS_DEAD_LETTER_SINK,
                        Names.RESULT_SETS_DEAD_LETTER_COUNT_STORE,
                        rejectedBy,
                        k -> true),
                Names.RESULT_SETS_SOURCE);
        topology.addProcessor(
                Names.DELETIONS_DECODE,
                () -> new DecodeOrDeadLetterProcessor<>(
                        serdes.value(RunDeleted.class).deserializer(),
                        Names.DELETIONS_PROCESSOR,
                        Names.DELETIONS_DEAD_LETTER_SINK,
                        Names.DELETIONS_DEAD_LETTER_COUNT_STORE,
                        rejectedBy,
                        k -> true),
                Names.DELETIONS_SOURCE);
        topology.addProcessor(Names.RESULT_SETS_PROCESSOR, ResultSetProcessor::new, Names.RESULT_SETS_DECODE);
        topology.addProcessor(Names.DELETIONS_PROCESSOR, RunDeletionProcessor::new, Names.DELETIONS_DECODE);

        topology.addStateStore(
                stores.keyValue(Names.RESULT_SETS_DEAD_LETTER_COUNT_STORE, Serdes.Long()), Names.RESULT_SETS_DECODE);
        topology.addStateStore(
                stores.keyValue(Names.DELETIONS_DEAD_LETTER_COUNT_STORE, Serdes.Long()), Names.DELETIONS_DECODE);
        topology.addStateStore(
                stores.keyValue(Names.RESULT_SET_INFO_STORE, serdes.value(ResultSetStarted.class)),
                Names.RESULT_SETS_PROCESSOR,
                Names.DELETIONS_PROCESSOR);
        topology.addStateStore(
                stores.keyValue(Names.DELETED_RUNS_STORE, Serdes.Long()),
                Names.DELETIONS_PROCESSOR,
                Names.RESULT_SETS_PROCESSOR,
                Names.IO_DECODE,
                Names.SMART_DECODE);
        topology.connectProcessorAndStateStores(
                Names.RESULT_SETS_PROCESSOR,
                Names.RUN_STATUS_STORE,
                Names.RUN_SUMMARY_STORE,
                Names.WINDOW_SERIES_STORE,
                Names.STEADY_STATE_STORE,
                Names.WAF_SERIES_STORE,
                Names.LATENCY_SCATTER_STORE);
        topology.connectProcessorAndStateStores(
                Names.DELETIONS_PROCESSOR,
                Names.RUN_STATUS_STORE,
                Names.RUN_SUMMARY_STORE,
                Names.WINDOW_SERIES_STORE,
                Names.STEADY_STATE_STORE,
                Names.WAF_SERIES_STORE,
                Names.LATENCY_SCATTER_STORE,
                Names.RUN_STATE_STORE,
                Names.RUN_ACTIVITY_STORE);

        ByteArraySerializer raw = new ByteArraySerializer();
        topology.addSink(
                Names.RESULT_SETS_DEAD_LETTER_SINK,
                deadLetterTopic,
                new StringSerializer(),
                raw,
                Names.RESULT_SETS_DECODE);
        topology.addSink(
                Names.DELETIONS_DEAD_LETTER_SINK, deadLetterTopic, new StringSerializer(), raw, Names.DELETIONS_DECODE);
    }
}
