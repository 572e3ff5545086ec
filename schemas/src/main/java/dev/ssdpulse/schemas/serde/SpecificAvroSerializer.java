package dev.ssdpulse.schemas.serde;

import dev.ssdpulse.schemas.avro.IoStreamRecord;
import dev.ssdpulse.schemas.iobatch.IoStreamRecordCodec;
import dev.ssdpulse.schemas.registry.HttpSchemaRegistryClient;
import dev.ssdpulse.schemas.registry.SchemaRegistryClient;
import dev.ssdpulse.schemas.registry.SchemaRegistryException;
import dev.ssdpulse.schemas.registry.SchemaVersion;
import java.io.IOException;
import java.util.Map;
import java.util.Objects;
import java.util.concurrent.ConcurrentHashMap;
import org.apache.avro.Schema;
import org.apache.avro.SchemaCompatibility;
import org.apache.avro.generic.GenericDatumReader;
import org.apache.avro.generic.GenericDatumWriter;
import org.apache.avro.io.BinaryDecoder;
import org.apache.avro.io.BinaryEncoder;
import org.apache.avro.io.DatumWriter;
import org.apache.avro.io.DecoderFactory;
import org.apache.avro.io.EncoderFactory;
import org.apache.avro.specific.SpecificData;
import org.apache.avro.specific.SpecificDatumWriter;
import org.apache.avro.specific.SpecificRecord;
import org.apache.kafka.common.errors.SerializationException;
import org.apache.kafka.common.serialization.Serializer;

/**
 * Kafka serializer of Avro {@link SpecificRecord}s in the Confluent wire format (magic byte 0, 4-byte
 * big-endian schema id, Avro binary), subject by TopicNameStrategy.
 *
 * <p>The schema id is resolved once per (topic, record schema) - by registering ({@code auto.register.schemas},
 * default), by looking the schema up under the subject, or by taking the subject's latest version
 * ({@code use.latest.version}) - and cached with its {@link DatumWriter}, so steady-state serialization makes
 * no registry call. Encoder and buffer are per thread (Streams may share one serde between threads); a record
 * costs one array allocation, the result.
 */
public class SpecificAvroSerializer<T extends SpecificRecord> implements Serializer<T> {
    private static final int INITIAL_BUFFER_BYTES = 16 * 1024;

    private final ConcurrentHashMap<PlanKey, WritePlan> plans = new ConcurrentHashMap<>();
    private final EncoderFactory encoderFactory = new EncoderFactory().configureBufferSize(8 * 1024);
    private final ThreadLocal<EncoderState> encoderState = ThreadLocal.withInitial(EncoderState::new);
    private SchemaRegistryClient registry;
    private boolean ownsRegistry;
    private boolean autoRegister = SerdeConfig.DEFAULT_AUTO_REGISTER_SCHEMAS;
    private boolean useLatestVersion = SerdeConfig.DEFAULT_USE_LATEST_VERSION;
    private boolean isKey;
    private volatile WritePlan lastPlan;

    private record PlanKey(String topic, Schema schema) {}

    /** How records of one schema are written to one topic. */
    private record WritePlan(
            String topic, Schema recordSchema, int schemaId, DatumWriter<Object> writer, Projection projection) {}

    /** Converts a record to the subject's latest schema when it differs from the record's own. */
    private record Projection(Schema recordSchema, Schema targetSchema, SpecificData recordData) {}

    private final class EncoderState {
        final GrowableBuffer buffer = new GrowableBuffer(INITIAL_BUFFER_BYTES);
        BinaryEncoder encoder;
        GrowableBuffer projectionBuffer;
        BinaryDecoder projectionDecoder;
    }

    /** A serializer that creates its registry client from {@code schema.registry.url} in {@link #configure}. */
    public SpecificAvroSerializer() {}

    /** A serializer using {@code registry}, which it does not close; call {@link #configure} for other options. */
    public SpecificAvroSerializer(SchemaRegistryClient registry) {
        this.registry = Objects.requireNonNull(registry, "registry");
    }

    /** A serializer using {@code registry} (not closed by it), configured at once. */
    public SpecificAvroSerializer(SchemaRegistryClient registry, Map<String, ?> configs, boolean isKey) {
        this(registry);
        configure(configs, isKey);
    }

    @Override
    public void configure(Map<String, ?> configs, boolean isKey) {
        this.isKey = isKey;
        this.autoRegister = SerdeConfig.booleanConfig(
                configs, SerdeConfig.AUTO_REGISTER_SCHEMAS, SerdeConfig.DEFAULT_AUTO_REGISTER_SCHEMAS);
        this.useLatestVersion = SerdeConfig.booleanConfig(
                configs, SerdeConfig.USE_LATEST_VERSION, SerdeConfig.DEFAULT_USE_LATEST_VERSION);
        SerdeConfig.requireTopicNameStrategy(configs, isKey);
        if (registry == null) {
            registry = HttpSchemaRegistryClient.fromConfig(configs);
            ownsRegistry = true;
        }
        plans.clear();
        lastPlan = null;
    }

    /** Lets {@link SpecificAvroSerde} share one client between its serializer and deserializer. */
    void useRegistry(SchemaRegistryClient shared, boolean owns) {
        this.registry = shared;
        this.ownsRegistry = owns;
    }

    @Override
    public byte[] serialize(String topic, T data) {
        if (data == null) {
            return null;
        }
        WritePlan plan = planFor(topic, data);
        EncoderState state = encoderState.get();
        GrowableBuffer buffer = state.buffer;
        buffer.resetWithPrefix(WireFormat.HEADER_SIZE_BYTES);
        WireFormat.writeHeader(buffer.array(), plan.schemaId());
        try {
            state.encoder = encoderFactory.binaryEncoder(buffer, state.encoder);
            Object datum = plan.projection() == null ? data : project(plan.projection(), data, state);
            plan.writer().write(datum, state.encoder);
            state.encoder.flush();
        } catch (IOException | RuntimeException e) {
            throw new SerializationException(
                    "Error serializing Avro " + data.getSchema().getFullName() + " for topic '" + topic
                            + "' with schema id " + plan.schemaId() + ": " + e.getMessage(),
                    e);
        }
        return buffer.toByteArray();
    }

    private WritePlan planFor(String topic, T record) {
        Schema recordSchema = record.getSchema();
        WritePlan last = lastPlan;
        if (last != null && last.recordSchema() == recordSchema && last.topic().equals(topic)) {
            return last;
        }
        WritePlan plan = plans.computeIfAbsent(
                new PlanKey(topic, recordSchema), k -> resolvePlan(topic, recordSchema, record.getClass()));
        lastPlan = plan;
        return plan;
    }

    private WritePlan resolvePlan(String topic, Schema recordSchema, Class<?> recordClass) {
        if (registry == null) {
            throw new SerializationException("Serializer for topic '" + topic + "' is not configured: call "
                    + "configure() with '" + SerdeConfig.SCHEMA_REGISTRY_URL + "' or pass a SchemaRegistryClient");
        }
        String subject = SerdeConfig.subject(topic, isKey);
        SpecificData data = new GeneratedSpecificData(recordClass);
        try {
            if (autoRegister) {
                int id = registry.register(subject, recordSchema);
                return new WritePlan(topic, recordSchema, id, writerFor(recordSchema, data), null);
            }
            if (useLatestVersion) {
                SchemaVersion latest = registry.getLatest(subject);
                if (latest.schema().equals(recordSchema)) {
                    return new WritePlan(topic, recordSchema, latest.id(), writerFor(recordSchema, data), null);
                }
                // The latest version must be able to read what the record's own schema writes.
                SchemaCompatibility.SchemaPairCompatibility compatibility =
                        SchemaCompatibility.checkReaderWriterCompatibility(latest.schema(), recordSchema);
                if (compatibility.getType() != SchemaCompatibility.SchemaCompatibilityType.COMPATIBLE) {
                    throw new SerializationException("use.latest.version: latest schema of subject '" + subject
                            + "' (version " + latest.version() + ", id " + latest.id() + ") cannot represent a "
                            + recordSchema.getFullName() + ": " + compatibility.getDescription());
                }
                return new WritePlan(
                        topic,
                        recordSchema,
                        latest.id(),
                        new GenericDatumWriter<>(latest.schema()),
                        new Projection(recordSchema, latest.schema(), data));
            }
            SchemaVersion registered = registry.lookup(subject, recordSchema);
            return new WritePlan(topic, recordSchema, registered.id(), writerFor(recordSchema, data), null);
        } catch (SchemaRegistryException e) {
            throw new SerializationException(
                    "Could not obtain a schema id for " + recordSchema.getFullName()
                            + " under subject '" + subject + "' (auto.register.schemas=" + autoRegister
                            + ", use.latest.version=" + useLatestVersion + "): " + e.getMessage(),
                    e);
        }
    }

    /** The hand-written codec for the I/O hot path, Avro's specific writer otherwise. */
    @SuppressWarnings({"unchecked", "rawtypes"})
    private static DatumWriter<Object> writerFor(Schema recordSchema, SpecificData data) {
        if (recordSchema == IoStreamRecord.getClassSchema()) {
            return (DatumWriter) IoStreamRecordCodec.writer(data);
        }
        return new SpecificDatumWriter<>(recordSchema, data);
    }

    /** Rewrites {@code data} in the target schema by field name (slow path, only for use.latest.version). */
    private Object project(Projection projection, T data, EncoderState state) throws IOException {
        if (state.projectionBuffer == null) {
            state.projectionBuffer = new GrowableBuffer(INITIAL_BUFFER_BYTES);
        }
        GrowableBuffer tmp = state.projectionBuffer;
        tmp.resetWithPrefix(0);
        BinaryEncoder encoder = EncoderFactory.get().directBinaryEncoder(tmp, null);
        new SpecificDatumWriter<T>(projection.recordSchema(), projection.recordData()).write(data, encoder);
        byte[] own = tmp.toByteArray();
        state.projectionDecoder = DecoderFactory.get().binaryDecoder(own, state.projectionDecoder);
        return new GenericDatumReader<>(projection.recordSchema(), projection.targetSchema())
                .read(null, state.projectionDecoder);
    }

    @Override
    public void close() {
        encoderState.remove();
        if (ownsRegistry && registry != null) {
            registry.close();
        }
    }
}
