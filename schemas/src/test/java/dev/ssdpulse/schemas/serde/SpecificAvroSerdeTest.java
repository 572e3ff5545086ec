package dev.ssdpulse.schemas.serde;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.ssdpulse.schemas.SampleRecords;
import dev.ssdpulse.schemas.avro.IoStreamRecord;
import dev.ssdpulse.schemas.avro.RunFinished;
import dev.ssdpulse.schemas.avro.RunHeartbeat;
import dev.ssdpulse.schemas.avro.RunStarted;
import dev.ssdpulse.schemas.registry.InMemorySchemaRegistryClient;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.stream.Collectors;
import java.util.stream.Stream;
import org.apache.avro.Schema;
import org.apache.avro.data.TimeConversions;
import org.apache.avro.generic.GenericData;
import org.apache.avro.generic.GenericDatumWriter;
import org.apache.avro.generic.GenericRecord;
import org.apache.avro.io.BinaryEncoder;
import org.apache.avro.io.EncoderFactory;
import org.apache.avro.specific.SpecificRecord;
import org.apache.kafka.common.errors.SerializationException;
import org.apache.kafka.common.serialization.Deserializer;
import org.apache.kafka.common.serialization.Serializer;
import org.junit.jupiter.api.Test;

class SpecificAvroSerdeTest {
    private static final String TOPIC = "ssdpulse.io.v1";
    private final InMemorySchemaRegistryClient registry = new InMemorySchemaRegistryClient();

    private <T extends SpecificRecord> Serializer<T> serializer(Map<String, ?> configs) {
        return new SpecificAvroSerializer<>(registry, configs, false);
    }

    private <T extends SpecificRecord> Deserializer<T> deserializer(Class<T> type) {
        return new SpecificAvroDeserializer<>(type, registry, Map.of(), false);
    }

    @Test
    void wireBytesStartWithMagicByteAndTheRegisteredId() {
        // Occupy a few ids first so the id is not trivially 1.
        registry.register("other-value", RunHeartbeat.getClassSchema());
        registry.register("other2-value", RunStarted.getClassSchema());
        byte[] bytes = this.<IoStreamRecord>serializer(Map.of())
                .serialize(TOPIC, SampleRecords.ioStream(SampleRecords.ioBatch()));

        int id = registry.lookup(TOPIC + "-value", IoStreamRecord.getClassSchema())
                .id();
        assertThat(id).isEqualTo(3);
        assertThat(bytes[0]).isEqualTo((byte) 0x00);
        assertThat(ByteBuffer.wrap(bytes, 1, 4).getInt()).isEqualTo(id);
        assertThat(Arrays.copyOfRange(bytes, 0, 5)).containsExactly(0, 0, 0, 0, 3);
    }

    @Test
    void roundTripsEveryGeneratedRecordType() {
        for (SpecificRecord record : SampleRecords.everyRecordType()) {
            String topic = "roundtrip." + record.getSchema().getName();
            byte[] bytes = serializer(Map.of()).serialize(topic, record);
            @SuppressWarnings("unchecked")
            Class<SpecificRecord> type = (Class<SpecificRecord>) record.getClass();
            SpecificRecord back = deserializer(type).deserialize(topic, bytes);
            assertThat(back).as(record.getSchema().getName()).isEqualTo(record);
        }
    }

    @Test
    void ioStreamCarriesEachUnionBranch() {
        Serializer<IoStreamRecord> ser = serializer(Map.of());
        Deserializer<IoStreamRecord> de = deserializer(IoStreamRecord.class);
        for (Object event : List.of(
                SampleRecords.ioBatch(),
                SampleRecords.phaseChanged(),
                SampleRecords.heartbeat(),
                SampleRecords.runFinished())) {
            IoStreamRecord back = de.deserialize(TOPIC, ser.serialize(TOPIC, SampleRecords.ioStream(event)));
            assertThat(back.getEvent()).isEqualTo(event).hasSameClassAs(event);
        }
    }

    @Test
    void everySchemaInTheAvroSourcesHasASample() throws IOException {
        Set<String> sampled = SampleRecords.everyRecordType().stream()
                .map(r -> r.getSchema().getName())
                .collect(Collectors.toCollection(TreeSet::new));
        Set<String> records = new TreeSet<>();
        try (Stream<Path> files = Files.walk(Path.of("src/main/avro"))) {
            for (Path file : files.filter(f -> f.toString().endsWith(".avsc")).toList()) {
                String text = Files.readString(file);
                if (text.contains("\"type\": \"record\"") || text.contains("\"type\":\"record\"")) {
                    records.add(file.getFileName().toString().replace(".avsc", ""));
                }
            }
        }
        assertThat(records).hasSizeGreaterThan(15);
        assertThat(sampled).containsAll(records);
    }

    @Test
    void steadyStateMakesNoRegistryCalls() {
        Serializer<RunFinished> ser = serializer(Map.of());
        Deserializer<RunFinished> de = deserializer(RunFinished.class);
        RunFinished record = SampleRecords.runFinished();
        for (int i = 0; i < 1000; i++) {
            assertThat(de.deserialize(TOPIC, ser.serialize(TOPIC, record))).isEqualTo(record);
        }
        assertThat(registry.calls("register")).isEqualTo(1);
        assertThat(registry.calls("getById")).isEqualTo(1);
        assertThat(registry.totalCalls()).isEqualTo(2);
    }

    @Test
    void nullIsATombstoneBothWays() {
        assertThat(serializer(Map.of()).serialize(TOPIC, null)).isNull();
        assertThat(deserializer(RunFinished.class).deserialize(TOPIC, null)).isNull();
    }

    @Test
    void unknownSchemaIdGivesASerializationExceptionNamingTheId() {
        byte[] bytes = {0, 0, 0, 0x30, 0x39, 2, 4};
        assertThatThrownBy(() -> deserializer(RunFinished.class).deserialize(TOPIC, bytes))
                .isInstanceOf(SerializationException.class)
                .hasMessageContaining("Unknown schema id 12345")
                .hasMessageContaining(TOPIC);
    }

    @Test
    void wrongMagicByteIsNamed() {
        byte[] bytes = serializer(Map.of()).serialize(TOPIC, SampleRecords.runFinished());
        bytes[0] = 0x7b; // '{': someone wrote JSON
        assertThatThrownBy(() -> deserializer(RunFinished.class).deserialize(TOPIC, bytes))
                .isInstanceOf(SerializationException.class)
                .hasMessageContaining("Unknown magic byte 0x7b")
                .hasMessageContaining("expected 0x00")
                .hasMessageContaining(TOPIC);
    }

    @Test
    void tooShortPayloadsAreRejectedWithTheirLength() {
        Deserializer<RunFinished> de = deserializer(RunFinished.class);
        assertThatThrownBy(() -> de.deserialize(TOPIC, new byte[0]))
                .isInstanceOf(SerializationException.class)
                .hasMessageContaining("payload has 0 bytes");
        assertThatThrownBy(() -> de.deserialize(TOPIC, new byte[] {0, 0, 1}))
                .isInstanceOf(SerializationException.class)
                .hasMessageContaining("payload has 3 bytes")
                .hasMessageContaining("5-byte");
    }

    @Test
    void corruptBodyNamesTopicAndSchemaId() {
        byte[] bytes = serializer(Map.of()).serialize(TOPIC, SampleRecords.runFinished());
        int id = ByteBuffer.wrap(bytes, 1, 4).getInt();
        byte[] truncated = Arrays.copyOf(bytes, 12);
        assertThatThrownBy(() -> deserializer(RunFinished.class).deserialize(TOPIC, truncated))
                .isInstanceOf(SerializationException.class)
                .hasMessageContaining("Avro decode failure")
                .hasMessageContaining("topic '" + TOPIC + "'")
                .hasMessageContaining("writer schema id " + id);
    }

    /** RunFinished as an older producer wrote it: without the two fields added later with defaults. */
    private static Schema runFinishedV1() {
        Schema current = RunFinished.getClassSchema();
        List<Schema.Field> fields = new ArrayList<>();
        for (Schema.Field f : current.getFields()) {
            if (!f.name().equals("bytesTrimmed") && !f.name().equals("ioNotPublished")) {
                fields.add(new Schema.Field(f, f.schema()));
            }
        }
        return Schema.createRecord(current.getName(), current.getDoc(), current.getNamespace(), false, fields);
    }

    /** RunFinished as a newer producer writes it: one more optional field. */
    private static Schema runFinishedV3() {
        Schema current = RunFinished.getClassSchema();
        List<Schema.Field> fields = new ArrayList<>();
        for (Schema.Field f : current.getFields()) {
            fields.add(new Schema.Field(f, f.schema()));
        }
        fields.add(new Schema.Field(
                "hostname",
                Schema.createUnion(Schema.create(Schema.Type.NULL), Schema.create(Schema.Type.STRING)),
                "Producer host.",
                Schema.Field.NULL_DEFAULT_VALUE));
        return Schema.createRecord(current.getName(), current.getDoc(), current.getNamespace(), false, fields);
    }

    private static byte[] confluentBytes(int id, GenericRecord record) throws IOException {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        out.write(new byte[] {0, (byte) (id >>> 24), (byte) (id >>> 16), (byte) (id >>> 8), (byte) id});
        BinaryEncoder encoder = EncoderFactory.get().binaryEncoder(out, null);
        // the generic copy holds the generated record's values, java.time.Instant for timestamps included
        GenericData withTimestamps = new GenericData();
        withTimestamps.addLogicalTypeConversion(new TimeConversions.TimestampMillisConversion());
        new GenericDatumWriter<GenericRecord>(record.getSchema(), withTimestamps).write(record, encoder);
        encoder.flush();
        return out.toByteArray();
    }

    private static GenericRecord asGeneric(RunFinished source, Schema schema) {
        GenericRecord record = new GenericData.Record(schema);
        for (Schema.Field f : schema.getFields()) {
            Schema.Field own = RunFinished.getClassSchema().getField(f.name());
            Object value = own == null ? "bench-01" : source.get(own.pos());
            if (value instanceof RunFinished.Builder) {
                continue;
            }
            record.put(f.name(), value instanceof Enum<?> e ? new GenericData.EnumSymbol(f.schema(), e.name()) : value);
        }
        return record;
    }

    @Test
    void oldWriterNewReaderFillsDefaults() throws IOException {
        String subject = TOPIC + "-value";
        int oldId = registry.register(subject, runFinishedV1());
        RunFinished original = SampleRecords.runFinished();
        byte[] bytes = confluentBytes(oldId, asGeneric(original, runFinishedV1()));

        RunFinished read = deserializer(RunFinished.class).deserialize(TOPIC, bytes);
        assertThat(read.getBytesTrimmed()).isZero();
        assertThat(read.getIoNotPublished()).isZero();
        assertThat(read.getIoCountPerWorker()).isEqualTo(original.getIoCountPerWorker());
        assertThat(read.getReason()).isEqualTo("SIGINT");

        // The current schema is a BACKWARD-compatible next version and serializes under the same subject.
        byte[] current = serializer(Map.of()).serialize(TOPIC, original);
        assertThat(ByteBuffer.wrap(current, 1, 4).getInt()).isNotEqualTo(oldId);
        assertThat(registry.listVersions(subject)).containsExactly(1, 2);
    }

    @Test
    void newWriterOldReaderIgnoresTheAddedField() throws IOException {
        int newId = registry.register(TOPIC + "-value", runFinishedV3());
        RunFinished original = SampleRecords.runFinished();
        byte[] bytes = confluentBytes(newId, asGeneric(original, runFinishedV3()));
        assertThat(deserializer(RunFinished.class).deserialize(TOPIC, bytes)).isEqualTo(original);
    }

    @Test
    void withoutAutoRegisterTheSchemaIsLookedUpAndMustExist() {
        Map<String, Object> configs = Map.of(SerdeConfig.AUTO_REGISTER_SCHEMAS, "false");
        assertThatThrownBy(() -> serializer(configs).serialize(TOPIC, SampleRecords.runFinished()))
                .isInstanceOf(SerializationException.class)
                .hasMessageContaining("subject '" + TOPIC + "-value'")
                .hasMessageContaining("auto.register.schemas=false");
        int id = registry.register(TOPIC + "-value", RunFinished.getClassSchema());
        byte[] bytes = serializer(configs).serialize(TOPIC, SampleRecords.runFinished());
        assertThat(ByteBuffer.wrap(bytes, 1, 4).getInt()).isEqualTo(id);
        assertThat(registry.calls("register")).isEqualTo(1);
    }

    @Test
    void useLatestVersionWritesWithTheSubjectsLatestSchema() {
        int latestId = registry.register(TOPIC + "-value", runFinishedV3());
        Map<String, Object> configs =
                Map.of(SerdeConfig.AUTO_REGISTER_SCHEMAS, false, SerdeConfig.USE_LATEST_VERSION, true);
        RunFinished original = SampleRecords.runFinished();
        Serializer<RunFinished> ser = serializer(configs);
        byte[] bytes = ser.serialize(TOPIC, original);
        assertThat(ByteBuffer.wrap(bytes, 1, 4).getInt()).isEqualTo(latestId);
        assertThat(deserializer(RunFinished.class).deserialize(TOPIC, bytes)).isEqualTo(original);
        ser.serialize(TOPIC, original);
        assertThat(registry.calls("getLatest")).isEqualTo(1);
    }

    @Test
    void keysUseTheKeySubject() {
        new SpecificAvroSerializer<RunHeartbeat>(registry, Map.of(), true).serialize("t", SampleRecords.heartbeat());
        assertThat(registry.listSubjects()).containsExactly("t-key");
    }

    @Test
    void otherSubjectNameStrategiesAreRejected() {
        assertThatThrownBy(() -> new SpecificAvroSerializer<RunHeartbeat>(
                        registry,
                        Map.of(
                                SerdeConfig.VALUE_SUBJECT_NAME_STRATEGY,
                                "io.confluent.kafka.serializers.subject.RecordNameStrategy"),
                        false))
                .hasMessageContaining("RecordNameStrategy")
                .hasMessageContaining("TopicNameStrategy");
        new SpecificAvroSerializer<RunHeartbeat>(
                registry, Map.of(SerdeConfig.VALUE_SUBJECT_NAME_STRATEGY, SerdeConfig.TOPIC_NAME_STRATEGY), false);
    }

    @Test
    void isSafeWhenThreadsShareOneSerde() throws Exception {
        SpecificAvroSerde<RunFinished> serde = new SpecificAvroSerde<>(RunFinished.class, registry, Map.of(), false);
        ExecutorService pool = Executors.newFixedThreadPool(4);
        try {
            List<Future<Boolean>> results = new ArrayList<>();
            for (int t = 0; t < 4; t++) {
                long ioCount = t;
                results.add(pool.submit(() -> {
                    boolean allEqual = true;
                    for (int i = 0; i < 2000; i++) {
                        RunFinished record = SampleRecords.runFinished();
                        record.setIoCount(ioCount * 1_000_000 + i);
                        record.setReason("thread " + ioCount + " " + "x".repeat(i % 300));
                        allEqual &= serde.deserializer()
                                .deserialize(TOPIC, serde.serializer().serialize(TOPIC, record))
                                .equals(record);
                    }
                    return allEqual;
                }));
            }
            for (Future<Boolean> result : results) {
                assertThat(result.get()).isTrue();
            }
        } finally {
            pool.shutdownNow();
        }
    }

    @Test
    void missingRegistryUrlIsAClearConfigError() {
        assertThatThrownBy(() -> new SpecificAvroSerializer<RunStarted>().configure(Map.of(), false))
                .hasMessageContaining("schema.registry.url");
    }
}
