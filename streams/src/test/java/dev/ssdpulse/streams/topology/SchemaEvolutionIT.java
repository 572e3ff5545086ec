package dev.ssdpulse.streams.topology;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowableOfType;
import static org.awaitility.Awaitility.await;

import dev.ssdpulse.platform.TopicCreation;
import dev.ssdpulse.platform.testing.KafkaTestEnvironment;
import dev.ssdpulse.platform.testing.TestStack;
import dev.ssdpulse.schemas.avro.IoBatch;
import dev.ssdpulse.schemas.avro.IoStreamRecord;
import dev.ssdpulse.schemas.avro.RunStatus;
import dev.ssdpulse.schemas.avro.RunSummary;
import dev.ssdpulse.schemas.avro.SmartSample;
import dev.ssdpulse.schemas.avro.SmartSource;
import dev.ssdpulse.schemas.registry.CompatibilityLevel;
import dev.ssdpulse.schemas.registry.HttpSchemaRegistryClient;
import dev.ssdpulse.schemas.registry.SchemaRegistryException;
import dev.ssdpulse.schemas.serde.SpecificAvroDeserializer;
import dev.ssdpulse.schemas.serde.SpecificAvroSerializer;
import dev.ssdpulse.schemas.topics.Topics;
import dev.ssdpulse.streams.app.AnalyticsApp;
import dev.ssdpulse.streams.app.AnalyticsConfig;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.UUID;
import org.apache.avro.Schema;
import org.apache.avro.generic.GenericDatumReader;
import org.apache.avro.generic.GenericRecord;
import org.apache.avro.io.DecoderFactory;
import org.apache.avro.specific.SpecificRecord;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.serialization.ByteArrayDeserializer;
import org.apache.kafka.common.serialization.ByteArraySerializer;
import org.apache.kafka.common.serialization.StringDeserializer;
import org.apache.kafka.common.serialization.StringSerializer;
import org.apache.kafka.streams.errors.InvalidStateStoreException;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.io.TempDir;

/**
 * Schema evolution through the registry (BACKWARD): a v2 of the I/O event schema with optional fields is
 * accepted, incompatible changes are refused with 409, the v1 application analyses v2-written records exactly
 * as v1 ones (Avro resolution by writer id, not the v1-only fast codec), and a v2 reader reads v1 data.
 */
@ExtendWith(KafkaTestEnvironment.class)
class SchemaEvolutionIT {
    private static final long S = 1_000_000_000L;
    private static final String SUBJECT = Topics.IO.name() + "-value";

    @TempDir
    Path stateDir;

    @Test
    void v2WrittenEventsAreAnalysedByTheV1AppAndIncompatibleChangesAreRefused(TestStack stack) throws Exception {
        AnalyticsConfig config = AnalyticsConfig.defaults(stack.bootstrapServers(), stack.schemaRegistryUrl(), stateDir)
                .withApplicationId("it-evolution-" + UUID.randomUUID());
        TopicCreation.createCatalogueIfMissing(config.bootstrapServers(), (short) 1);
        String nonce = UUID.randomUUID().toString();
        String v1RunId = "it-v1-" + nonce;
        String v2RunId = "it-v2-" + nonce;
        SyntheticRun v1Run = SyntheticRun.random(v1RunId, 11, 0, 8, 400);
        SyntheticRun v2Run = SyntheticRun.random(v2RunId, 11, 0, 8, 400);
        Schema v2 = IoSchemaVersions.v2();

        try (HttpSchemaRegistryClient registry = new HttpSchemaRegistryClient(stack.schemaRegistryUrl());
                SpecificAvroSerializer<SpecificRecord> serializer =
                        new SpecificAvroSerializer<>(registry, Map.of(), false);
                SpecificAvroDeserializer<IoStreamRecord> deserializer =
                        new SpecificAvroDeserializer<>(IoStreamRecord.class, registry);
                KafkaProducer<String, byte[]> producer = new KafkaProducer<>(
                        Map.of("bootstrap.servers", stack.bootstrapServers()),
                        new StringSerializer(),
                        new ByteArraySerializer())) {
            publish(producer, serializer, v1Run, null, -1);
            int v1Id = registry.lookup(SUBJECT, IoStreamRecord.SCHEMA$).id();
            assertThat(registry.getCompatibility(SUBJECT)).isEqualTo(CompatibilityLevel.BACKWARD);

            int v2Id = registry.register(SUBJECT, v2);
            assertThat(v2Id).isNotEqualTo(v1Id);
            assertThat(registry.getLatest(SUBJECT).id()).isEqualTo(v2Id);

            for (Schema incompatible :
                    List.of(IoSchemaVersions.withRequiredField(), IoSchemaVersions.withTypeChange())) {
                assertThat(registry.testCompatibility(SUBJECT, incompatible)).isFalse();
                SchemaRegistryException refused = catchThrowableOfType(
                        SchemaRegistryException.class, () -> registry.register(SUBJECT, incompatible));
                assertThat(refused).as("registering an incompatible schema").isNotNull();
                assertThat(refused.httpStatus()).isEqualTo(409);
            }
            assertThat(registry.getLatest(SUBJECT).id())
                    .as("refused versions are not stored")
                    .isEqualTo(v2Id);

            // the v1 deserializer resolves a v2 record to the v1 record it was derived from
            IoStreamRecord sample = v1Run.records(128).get(1);
            byte[] v2Bytes = wire(v2Id, IoSchemaVersions.v2Binary(v2, sample, "bench-7", 41));
            assertThat(deserializer.deserialize(Topics.IO.name(), v2Bytes)).isEqualTo(sample);

            publish(producer, serializer, v2Run, v2, v2Id);
            producer.flush();

            try (AnalyticsApp app = new AnalyticsApp(config)) {
                app.start();
                app.awaitRunning(Duration.ofSeconds(60));
                RunSummary fromV1 = await().atMost(Duration.ofSeconds(90))
                        .ignoreException(InvalidStateStoreException.class)
                        .until(() -> finished(app, v1RunId), Optional::isPresent)
                        .get();
                RunSummary fromV2 = await().atMost(Duration.ofSeconds(90))
                        .ignoreException(InvalidStateStoreException.class)
                        .until(() -> finished(app, v2RunId), Optional::isPresent)
                        .get();
                assertThat(fromV2.getStatus()).isEqualTo(RunStatus.COMPLETED);
                assertThat(fromV2.getIoCount()).isEqualTo(v2Run.ios.size());
                assertThat(fromV2.toString().replace(v2RunId, v1RunId))
                        .as("v2-written run analysed like v1")
                        .isEqualTo(fromV1.toString());
            }

            // a v2 reader reads the v1-written events from the topic: new fields null, the rest unchanged
            List<byte[]> v1Events = eventsOf(stack, v1RunId);
            assertThat(v1Events).hasSize(v1Run.records(128).size());
            for (byte[] value : v1Events) {
                int writerId = ByteBuffer.wrap(value, 1, 4).getInt();
                assertThat(writerId).isEqualTo(v1Id);
                Schema writer = registry.getById(writerId);
                GenericRecord asV1 = read(value, writer, writer);
                GenericRecord asV2 = read(value, writer, v2);
                assertThat(asV2.get("producerHost")).isNull();
                GenericRecord event = (GenericRecord) asV2.get("event");
                GenericRecord v1Event = (GenericRecord) asV1.get("event");
                assertThat(event.getSchema().getName())
                        .isEqualTo(v1Event.getSchema().getName());
                if (event.getSchema().getName().equals("IoBatch")) {
                    assertThat(event.get("deviceTemperatureC")).isNull();
                }
                for (Schema.Field f : v1Event.getSchema().getFields()) {
                    assertThat(String.valueOf(event.get(f.name())))
                            .as(f.name())
                            .isEqualTo(String.valueOf(v1Event.get(f.name())));
                }
            }
        }
    }

    /**
     * RunStarted, the run's I/O stream records and one SMART sample per run second. With a v2 schema, every
     * other I/O stream record is written with it (new fields set), the rest with v1.
     */
    private static void publish(
            KafkaProducer<String, byte[]> producer,
            SpecificAvroSerializer<SpecificRecord> ser,
            SyntheticRun run,
            Schema v2,
            int v2Id)
            throws Exception {
        producer.send(new ProducerRecord<>(
                        Topics.RUNS.name(),
                        run.runId,
                        ser.serialize(Topics.RUNS.name(), TestRuns.runStarted(run.runId))))
                .get();
        long nextSmartNs = 0;
        List<IoStreamRecord> records = run.records(128);
        for (int i = 0; i < records.size(); i++) {
            IoStreamRecord r = records.get(i);
            if (r.getEvent() instanceof IoBatch b && b.getBaseSubmitTimeNs() >= nextSmartNs) {
                long host = nextSmartNs / 1000;
                producer.send(new ProducerRecord<>(
                        Topics.SMART.name(),
                        run.runId,
                        ser.serialize(
                                Topics.SMART.name(),
                                SmartSample.newBuilder()
                                        .setRunId(run.runId)
                                        .setTimeNs(nextSmartNs)
                                        .setSource(SmartSource.SIMULATOR)
                                        .setHostBytesWritten(host)
                                        .setNandBytesWritten(host * 3)
                                        .build())));
                nextSmartNs += S;
            }
            byte[] value = v2 != null && i % 2 == 0
                    ? wire(v2Id, IoSchemaVersions.v2Binary(v2, r, "bench-" + i, 30 + i % 20))
                    : ser.serialize(Topics.IO.name(), r);
            producer.send(new ProducerRecord<>(Topics.IO.name(), run.runId, value));
        }
        producer.flush();
    }

    private static List<byte[]> eventsOf(TestStack stack, String runId) {
        Map<String, Object> props = new HashMap<>();
        props.put("bootstrap.servers", stack.bootstrapServers());
        props.put("isolation.level", "read_committed");
        List<byte[]> out = new ArrayList<>();
        try (KafkaConsumer<String, byte[]> consumer =
                new KafkaConsumer<>(props, new StringDeserializer(), new ByteArrayDeserializer())) {
            List<TopicPartition> partitions = consumer.partitionsFor(Topics.IO.name()).stream()
                    .map(p -> new TopicPartition(p.topic(), p.partition()))
                    .toList();
            consumer.assign(partitions);
            consumer.seekToBeginning(partitions);
            Map<TopicPartition, Long> end = consumer.endOffsets(partitions);
            // the consumer stays on this thread (KafkaConsumer is single-threaded)
            await("reading " + Topics.IO.name() + " to its end")
                    .atMost(Duration.ofSeconds(60))
                    .pollInSameThread()
                    .pollInterval(Duration.ofMillis(1))
                    .until(() -> {
                        if (partitions.stream().noneMatch(tp -> consumer.position(tp) < end.get(tp))) {
                            return true;
                        }
                        for (ConsumerRecord<String, byte[]> r : consumer.poll(Duration.ofMillis(200))) {
                            if (runId.equals(r.key())) {
                                out.add(r.value());
                            }
                        }
                        return false;
                    });
        }
        return out;
    }

    private static GenericRecord read(byte[] wire, Schema writer, Schema reader) throws IOException {
        return new GenericDatumReader<GenericRecord>(writer, reader)
                .read(null, DecoderFactory.get().binaryDecoder(wire, 5, wire.length - 5, null));
    }

    private static byte[] wire(int schemaId, byte[] body) {
        return ByteBuffer.allocate(5 + body.length)
                .put((byte) 0)
                .putInt(schemaId)
                .put(body)
                .array();
    }

    private static Optional<RunSummary> finished(AnalyticsApp app, String runId) {
        return app.views().summary(runId).filter(s -> s.getStatus() != RunStatus.INCOMPLETE);
    }
}
