package dev.ssdpulse.schemas.serde;

import dev.ssdpulse.schemas.avro.IoStreamRecord;
import dev.ssdpulse.schemas.iobatch.IoStreamRecordCodec;
import dev.ssdpulse.schemas.registry.HttpSchemaRegistryClient;
import dev.ssdpulse.schemas.registry.SchemaRegistryClient;
import dev.ssdpulse.schemas.registry.SchemaRegistryException;
import java.io.IOException;
import java.util.Map;
import java.util.Objects;
import java.util.concurrent.ConcurrentHashMap;
import org.apache.avro.Schema;
import org.apache.avro.io.BinaryDecoder;
import org.apache.avro.io.DatumReader;
import org.apache.avro.io.DecoderFactory;
import org.apache.avro.specific.SpecificData;
import org.apache.avro.specific.SpecificDatumReader;
import org.apache.avro.specific.SpecificRecord;
import org.apache.kafka.common.errors.SerializationException;
import org.apache.kafka.common.serialization.Deserializer;

/**
 * Kafka deserializer of Avro {@link SpecificRecord}s in the Confluent wire format. The writer schema comes from
 * the registry by the id in the payload (cached); the reader schema is that of the target class, so data
 * written with an older or newer compatible schema is resolved by Avro's schema-resolution rules. One
 * {@link DatumReader} is cached per writer id; decoders are reused per thread.
 *
 * <p>The target class is the one given to the constructor, else {@code specific.avro.value.type} /
 * {@code specific.avro.key.type}, else the generated class named like the writer schema.
 */
public class SpecificAvroDeserializer<T extends SpecificRecord> implements Deserializer<T> {
    private final ConcurrentHashMap<Integer, DatumReader<T>> readersByWriterId = new ConcurrentHashMap<>();
    private final ThreadLocal<BinaryDecoder[]> decoder = ThreadLocal.withInitial(() -> new BinaryDecoder[1]);
    private Class<T> targetType;
    private SchemaRegistryClient registry;
    private boolean ownsRegistry;
    private boolean isKey;
    private volatile CachedReader lastReader;

    private record CachedReader(int writerId, DatumReader<?> reader) {}

    /** Target class and registry client come from {@link #configure}. */
    public SpecificAvroDeserializer() {}

    /** Reads into {@code targetType}; the registry client comes from {@link #configure}. */
    public SpecificAvroDeserializer(Class<T> targetType) {
        setTargetType(Objects.requireNonNull(targetType, "targetType"));
    }

    /** Reads into {@code targetType} using {@code registry}, which it does not close. */
    public SpecificAvroDeserializer(Class<T> targetType, SchemaRegistryClient registry) {
        this(targetType);
        this.registry = Objects.requireNonNull(registry, "registry");
    }

    /** Reads into {@code targetType} using {@code registry} (not closed by it), configured at once. */
    public SpecificAvroDeserializer(
            Class<T> targetType, SchemaRegistryClient registry, Map<String, ?> configs, boolean isKey) {
        this(targetType, registry);
        configure(configs, isKey);
    }

    @Override
    @SuppressWarnings("unchecked")
    public void configure(Map<String, ?> configs, boolean isKey) {
        this.isKey = isKey;
        SerdeConfig.requireTopicNameStrategy(configs, isKey);
        Object typeConfig =
                configs.get(isKey ? SerdeConfig.SPECIFIC_AVRO_KEY_TYPE : SerdeConfig.SPECIFIC_AVRO_VALUE_TYPE);
        if (targetType == null && typeConfig != null) {
            setTargetType((Class<T>) loadClass(typeConfig, isKey));
        }
        if (registry == null) {
            registry = HttpSchemaRegistryClient.fromConfig(configs);
            ownsRegistry = true;
        }
        readersByWriterId.clear();
        lastReader = null;
    }

    void useRegistry(SchemaRegistryClient shared, boolean owns) {
        this.registry = shared;
        this.ownsRegistry = owns;
    }

    @Override
    @SuppressWarnings("unchecked")
    public T deserialize(String topic, byte[] data) {
        if (data == null) {
            return null;
        }
        if (data.length < WireFormat.HEADER_SIZE_BYTES) {
            throw new SerializationException("Cannot deserialize " + what(topic) + ": payload has " + data.length
                    + " bytes, fewer than the 5-byte Confluent header (magic byte 0x00 + 4-byte schema id)");
        }
        if (data[0] != WireFormat.MAGIC_BYTE) {
            throw new SerializationException(String.format(
                    "Unknown magic byte 0x%02x at offset 0 of %s "
                            + "(expected 0x00): not in the Confluent Avro wire format",
                    data[0] & 0xff, what(topic)));
        }
        int writerId = WireFormat.schemaId(data);
        CachedReader last = lastReader;
        DatumReader<T> reader;
        if (last != null && last.writerId() == writerId) {
            reader = (DatumReader<T>) last.reader();
        } else {
            reader = readersByWriterId.computeIfAbsent(writerId, id -> createReader(topic, id));
            lastReader = new CachedReader(writerId, reader);
        }
        try {
            if (reader instanceof IoStreamRecordCodec.Reader direct) {
                return (T) direct.read(data, WireFormat.HEADER_SIZE_BYTES, data.length - WireFormat.HEADER_SIZE_BYTES);
            }
            BinaryDecoder[] slot = decoder.get();
            slot[0] = DecoderFactory.get()
                    .binaryDecoder(
                            data, WireFormat.HEADER_SIZE_BYTES, data.length - WireFormat.HEADER_SIZE_BYTES, slot[0]);
            return reader.read(null, slot[0]);
        } catch (IOException | RuntimeException e) {
            throw new SerializationException(
                    "Avro decode failure of " + what(topic) + " with writer schema id " + writerId + " ("
                            + (data.length - WireFormat.HEADER_SIZE_BYTES) + " body bytes): " + e,
                    e);
        }
    }

    private DatumReader<T> createReader(String topic, int writerId) {
        if (registry == null) {
            throw new SerializationException("Deserializer for " + what(topic) + " is not configured: call configure()"
                    + " with '" + SerdeConfig.SCHEMA_REGISTRY_URL + "' or pass a SchemaRegistryClient");
        }
        Schema writerSchema;
        try {
            writerSchema = registry.getById(writerId);
        } catch (SchemaRegistryException e) {
            if (e.errorCode() == SchemaRegistryException.SCHEMA_NOT_FOUND || e.isNotFound()) {
                throw new SerializationException(
                        "Unknown schema id " + writerId + " in " + what(topic)
                                + ": the schema registry has no schema with id " + writerId + " (" + e.getMessage()
                                + ")",
                        e);
            }
            throw new SerializationException(
                    "Could not fetch schema id " + writerId + " for " + what(topic) + " from the schema registry: "
                            + e.getMessage(),
                    e);
        }
        Class<?> type = targetType != null ? targetType : classByName(topic, writerId, writerSchema);
        SpecificData data = new GeneratedSpecificData(type);
        if (type == IoStreamRecord.class && IoStreamRecordCodec.canRead(writerSchema)) {
            @SuppressWarnings({"unchecked", "rawtypes"})
            DatumReader<T> fast = (DatumReader) IoStreamRecordCodec.reader(data);
            return fast;
        }
        return new SpecificDatumReader<>(writerSchema, data.getSchema(type), data);
    }

    /**
     * The generated class named like the writer schema. Loaded without initialization and accepted only if it
     * is a SpecificRecord, so a schema from the registry cannot make us initialize arbitrary classes.
     */
    private Class<?> classByName(String topic, int writerId, Schema writerSchema) {
        Class<?> generated;
        try {
            generated = Class.forName(writerSchema.getFullName(), false, classLoader());
        } catch (ClassNotFoundException e) {
            generated = null;
        }
        if (generated == null || !SpecificRecord.class.isAssignableFrom(generated)) {
            throw new SerializationException("No generated Avro class " + writerSchema.getFullName()
                    + " on the classpath for writer schema id " + writerId + " of " + what(topic) + "; set '"
                    + (isKey ? SerdeConfig.SPECIFIC_AVRO_KEY_TYPE : SerdeConfig.SPECIFIC_AVRO_VALUE_TYPE)
                    + "' or construct the deserializer with the target class");
        }
        return generated;
    }

    private static ClassLoader classLoader() {
        ClassLoader context = Thread.currentThread().getContextClassLoader();
        return context != null ? context : SpecificAvroDeserializer.class.getClassLoader();
    }

    private void setTargetType(Class<T> type) {
        this.targetType = type;
    }

    private static Class<?> loadClass(Object typeConfig, boolean isKey) {
        if (typeConfig instanceof Class<?> c) {
            return c;
        }
        String name = typeConfig.toString().trim();
        try {
            Class<?> c = Class.forName(name, false, classLoader());
            if (!SpecificRecord.class.isAssignableFrom(c)) {
                throw new IllegalArgumentException(
                        "config '" + (isKey ? SerdeConfig.SPECIFIC_AVRO_KEY_TYPE : SerdeConfig.SPECIFIC_AVRO_VALUE_TYPE)
                                + "' = '" + name + "' is not an Avro SpecificRecord");
            }
            return c;
        } catch (ClassNotFoundException e) {
            throw new IllegalArgumentException(
                    "config '" + (isKey ? SerdeConfig.SPECIFIC_AVRO_KEY_TYPE : SerdeConfig.SPECIFIC_AVRO_VALUE_TYPE)
                            + "': class '" + name + "' not found",
                    e);
        }
    }

    private String what(String topic) {
        return (isKey ? "key" : "value") + " of topic '" + topic + "'";
    }

    @Override
    public void close() {
        decoder.remove();
        if (ownsRegistry && registry != null) {
            registry.close();
        }
    }
}
