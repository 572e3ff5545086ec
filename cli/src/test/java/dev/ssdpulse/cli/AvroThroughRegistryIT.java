package dev.ssdpulse.cli;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

import dev.ssdpulse.platform.testing.KafkaTestEnvironment;
import dev.ssdpulse.platform.testing.TestStack;
import dev.ssdpulse.schemas.avro.IoBatch;
import dev.ssdpulse.schemas.avro.IoStreamRecord;
import dev.ssdpulse.schemas.avro.PhaseChanged;
import dev.ssdpulse.schemas.avro.PhaseKind;
import dev.ssdpulse.schemas.avro.RunHeartbeat;
import dev.ssdpulse.schemas.iobatch.IoBatchBuilder;
import dev.ssdpulse.schemas.iobatch.IoBatchReader;
import dev.ssdpulse.schemas.registry.HttpSchemaRegistryClient;
import dev.ssdpulse.schemas.registry.SchemaRegistryException;
import dev.ssdpulse.schemas.serde.SpecificAvroDeserializer;
import dev.ssdpulse.schemas.serde.SpecificAvroSerializer;
import dev.ssdpulse.schemas.serde.WireFormat;
import dev.ssdpulse.schemas.topics.Topics;
import java.nio.ByteBuffer;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import org.apache.avro.Schema;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.NewTopic;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.config.ConfigResource;
import org.apache.kafka.common.errors.SerializationException;
import org.apache.kafka.common.serialization.ByteArrayDeserializer;
import org.apache.kafka.common.serialization.StringDeserializer;
import org.apache.kafka.common.serialization.StringSerializer;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * The foundation end to end: ssdpulse's Avro records go through the schema registry (the embedded one on
 * the embedded broker here, Confluent Schema Registry in a container where Docker exists) and a real
 * broker, in the Confluent wire format, and come back field for field.
 */
@ExtendWith(KafkaTestEnvironment.class)
class AvroThroughRegistryIT {
    private static TestStack stack;

    @BeforeAll
    static void init(TestStack shared) {
        stack = shared;
    }

    @Test
    void ioEventsRoundTripThroughRegistryAndBrokerInTheConfluentWireFormat() throws Exception {
        String topic = "it.io." + UUID.randomUUID();
        createTopic(topic);
        String runId = "run-" + UUID.randomUUID();
        IoBatchBuilder builder = new IoBatchBuilder(runId, 0, 7);
        List<IoStreamRecord> sent = new ArrayList<>();
        sent.add(new IoStreamRecord(new PhaseChanged(runId, 0, "test", PhaseKind.TEST, 0L)));
        for (int i = 0; i < 20; i++) {
            var batch = builder.add(0, (byte) (i % 2), 4096L * i, 4096, 1_000L * i, 50_000L + i, 1, 0);
            if (batch != null) {
                sent.add(new IoStreamRecord(batch));
            }
        }
        sent.add(new IoStreamRecord(builder.flush()));
        sent.add(new IoStreamRecord(new RunHeartbeat(
                runId, 20_000L, Instant.ofEpochMilli(System.currentTimeMillis()), 20L, 20L, 0L, null, null)));

        try (var registry = new HttpSchemaRegistryClient(stack.schemaRegistryUrl());
                var producer = new KafkaProducer<>(
                        Map.<String, Object>of("bootstrap.servers", stack.bootstrapServers()),
                        new StringSerializer(),
                        new SpecificAvroSerializer<IoStreamRecord>(registry))) {
            for (IoStreamRecord record : sent) {
                producer.send(new ProducerRecord<>(topic, runId, record)).get();
            }
            int registeredId = registry.getLatest(topic + "-value").id();

            List<ConsumerRecord<String, byte[]>> raw = consume(topic, sent.size());
            for (ConsumerRecord<String, byte[]> record : raw) {
                assertThat(record.value()[0]).as("magic byte").isEqualTo((byte) 0);
                assertThat(ByteBuffer.wrap(record.value(), 1, 4).getInt())
                        .as("schema id")
                        .isEqualTo(registeredId);
                assertThat(WireFormat.schemaId(record.value())).isEqualTo(registeredId);
            }
            try (var deserializer = new SpecificAvroDeserializer<>(IoStreamRecord.class, registry)) {
                List<IoStreamRecord> received = raw.stream()
                        .map(r -> deserializer.deserialize(topic, r.value()))
                        .toList();
                assertThat(received).isEqualTo(sent);
                long ios = 0;
                IoBatchReader reader = new IoBatchReader();
                for (IoStreamRecord record : received) {
                    if (record.getEvent() instanceof IoBatch batch) {
                        reader.reset(batch);
                        while (reader.next()) {
                            assertThat(reader.offsetBytes()).isEqualTo(4096L * reader.ioSequence());
                            assertThat(reader.latencyNs()).isEqualTo(50_000L + reader.ioSequence());
                            ios++;
                        }
                    }
                }
                assertThat(ios).isEqualTo(20);
            }
        }
    }

    @Test
    void anUnknownSchemaIdOnReadIsAClearSerializationExceptionNamingTheId() {
        try (var registry = new HttpSchemaRegistryClient(stack.schemaRegistryUrl());
                var deserializer = new SpecificAvroDeserializer<>(IoStreamRecord.class, registry)) {
            byte[] bogus = ByteBuffer.allocate(9)
                    .put((byte) 0)
                    .putInt(987_654)
                    .putInt(0)
                    .array();
            assertThatThrownBy(() -> deserializer.deserialize("ssdpulse.io.v1", bogus))
                    .isInstanceOf(SerializationException.class)
                    .hasMessageContaining("987654");
        }
    }

    @Test
    void aBackwardIncompatibleVersionIsRefusedWith409() {
        String subject = "it-compat-" + UUID.randomUUID() + "-value";
        Schema v1 = new Schema.Parser().parse("""
                {"type":"record","name":"Probe","namespace":"it","fields":[{"name":"a","type":"long"}]}""");
        Schema compatible = new Schema.Parser().parse("""
                {"type":"record","name":"Probe","namespace":"it","fields":[{"name":"a","type":"long"},
                 {"name":"b","type":["null","string"],"default":null}]}""");
        Schema incompatible = new Schema.Parser().parse("""
                {"type":"record","name":"Probe","namespace":"it","fields":[{"name":"a","type":"long"},
                 {"name":"c","type":"string"}]}""");
        try (var registry = new HttpSchemaRegistryClient(stack.schemaRegistryUrl())) {
            int id1 = registry.register(subject, v1);
            int id2 = registry.register(subject, compatible);
            assertThat(id2).isNotEqualTo(id1);
            assertThatThrownBy(() -> registry.register(subject, incompatible))
                    .isInstanceOfSatisfying(SchemaRegistryException.class, e -> {
                        assertThat(e.httpStatus()).isEqualTo(409);
                        assertThat(e.errorCode()).isEqualTo(409);
                    });
            assertThat(registry.listVersions(subject)).containsExactly(1, 2);
        }
    }

    @Test
    void everyCatalogueTopicCanBeCreatedWithItsCleanupPolicy() throws Exception {
        try (Admin admin = Admin.create(Map.of("bootstrap.servers", stack.bootstrapServers()))) {
            List<NewTopic> topics = Topics.all().stream()
                    .map(t -> new NewTopic("it." + UUID.randomUUID() + "." + t.name(), 1, (short) 1)
                            .configs(t.topicConfigs()))
                    .toList();
            admin.createTopics(topics).all().get();
            var described = admin.describeConfigs(topics.stream()
                            .map(t -> new ConfigResource(ConfigResource.Type.TOPIC, t.name()))
                            .toList())
                    .all()
                    .get();
            assertThat(described.entrySet()).allSatisfy(e -> {
                String name = e.getKey().name();
                String expected = name.endsWith(Topics.RUNS.name()) || name.endsWith(Topics.RUN_DELETIONS.name())
                        ? "compact"
                        : "delete";
                assertThat(e.getValue().get("cleanup.policy").value()).as(name).isEqualTo(expected);
            });
        }
    }

    private static void createTopic(String topic) throws Exception {
        try (Admin admin = Admin.create(Map.of("bootstrap.servers", stack.bootstrapServers()))) {
            admin.createTopics(List.of(new NewTopic(topic, 1, (short) 1))).all().get();
        }
    }

    private static List<ConsumerRecord<String, byte[]>> consume(String topic, int expected) {
        Map<String, Object> props = Map.of(
                "bootstrap.servers",
                stack.bootstrapServers(),
                "group.id",
                "it-" + UUID.randomUUID(),
                "auto.offset.reset",
                "earliest");
        List<ConsumerRecord<String, byte[]>> out = new ArrayList<>();
        try (var consumer = new KafkaConsumer<>(props, new StringDeserializer(), new ByteArrayDeserializer())) {
            consumer.subscribe(List.of(topic));
            // the consumer stays on this thread (KafkaConsumer is single-threaded)
            await(expected + " records on " + topic)
                    .atMost(Duration.ofSeconds(60))
                    .pollInSameThread()
                    .pollInterval(Duration.ofMillis(1))
                    .until(() -> {
                        consumer.poll(Duration.ofMillis(200)).forEach(out::add);
                        return out.size() >= expected;
                    });
        }
        assertThat(out).hasSize(expected);
        return out;
    }
}
