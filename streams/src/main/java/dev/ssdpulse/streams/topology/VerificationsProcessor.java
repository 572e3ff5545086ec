package dev.ssdpulse.streams.topology;

import dev.ssdpulse.schemas.avro.WriteVerification;
import dev.ssdpulse.schemas.topics.Topics;
import org.apache.kafka.common.serialization.ByteArrayDeserializer;
import org.apache.kafka.common.serialization.ByteArraySerializer;
import org.apache.kafka.common.serialization.Serdes;
import org.apache.kafka.common.serialization.StringDeserializer;
import org.apache.kafka.common.serialization.StringSerializer;
import org.apache.kafka.streams.Topology;
import org.apache.kafka.streams.processor.api.Processor;
import org.apache.kafka.streams.processor.api.ProcessorContext;
import org.apache.kafka.streams.processor.api.Record;
import org.apache.kafka.streams.state.KeyValueStore;

/**
 * Materializes ssdpulse.write-verification.v1 (the power-loss verifications {@code ssdpulse verify} publishes) into
 * {@link Names#VERIFICATION_STORE}, the latest per run, for the run's page of the dashboard. The topic is keyed by run
 * id like the others and the processor reads the deleted-runs store, so it joins the run aggregation's
 * sub-topology: a run's verification lives on the instance that serves its views. A deleted run's verification is
 * dropped.
 */
public final class VerificationsProcessor implements Processor<String, WriteVerification, Void, Void> {
    private KeyValueStore<String, WriteVerification> verifications;
    private KeyValueStore<String, Long> deleted;

    /** The live application's branch (after the result-set branch, whose deleted-runs store it reads). */
    public static void addTo(
            Topology topology, AnalyticsSerdes serdes, String deadLetterTopic, String rejectedBy, StoreFactory stores) {
        topology.addSource(
                Names.VERIFICATIONS_SOURCE,
                new StringDeserializer(),
                new ByteArrayDeserializer(),
                Topics.WRITE_VERIFICATION.name());
        topology.addProcessor(
                Names.VERIFICATIONS_DECODE,
                () -> new DecodeOrDeadLetterProcessor<>(
                        serdes.value(WriteVerification.class).deserializer(),
                        Names.VERIFICATIONS_PROCESSOR,
                        Names.VERIFICATIONS_DEAD_LETTER_SINK,
                        Names.VERIFICATIONS_DEAD_LETTER_COUNT_STORE,
                        rejectedBy,
                        k -> true),
                Names.VERIFICATIONS_SOURCE);
        topology.addProcessor(Names.VERIFICATIONS_PROCESSOR, VerificationsProcessor::new, Names.VERIFICATIONS_DECODE);
        topology.addStateStore(
                stores.keyValue(Names.VERIFICATIONS_DEAD_LETTER_COUNT_STORE, Serdes.Long()),
                Names.VERIFICATIONS_DECODE);
        topology.addStateStore(
                stores.keyValue(Names.VERIFICATION_STORE, serdes.value(WriteVerification.class)),
                Names.VERIFICATIONS_PROCESSOR,
                Names.DELETIONS_PROCESSOR);
        topology.connectProcessorAndStateStores(Names.VERIFICATIONS_PROCESSOR, Names.DELETED_RUNS_STORE);
        topology.addSink(
                Names.VERIFICATIONS_DEAD_LETTER_SINK,
                deadLetterTopic,
                new StringSerializer(),
                new ByteArraySerializer(),
                Names.VERIFICATIONS_DECODE);
    }

    @Override
    public void init(ProcessorContext<Void, Void> context) {
        verifications = context.getStateStore(Names.VERIFICATION_STORE);
        deleted = context.getStateStore(Names.DELETED_RUNS_STORE);
    }

    @Override
    public void process(Record<String, WriteVerification> record) {
        if (record.key() == null || deleted.get(record.key()) != null) {
            return;
        }
        if (record.value() == null) {
            verifications.delete(record.key());
        } else {
            verifications.put(record.key(), record.value());
        }
    }
}
