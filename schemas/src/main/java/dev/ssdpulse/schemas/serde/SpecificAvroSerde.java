package dev.ssdpulse.schemas.serde;

import dev.ssdpulse.schemas.registry.HttpSchemaRegistryClient;
import dev.ssdpulse.schemas.registry.SchemaRegistryClient;
import java.util.Map;
import java.util.Objects;
import org.apache.avro.specific.SpecificRecord;
import org.apache.kafka.common.serialization.Deserializer;
import org.apache.kafka.common.serialization.Serde;
import org.apache.kafka.common.serialization.Serializer;

/**
 * Serde of Avro {@link SpecificRecord}s in the Confluent wire format: a {@link SpecificAvroSerializer} and a
 * {@link SpecificAvroDeserializer} sharing one registry client. A client given to the constructor is never
 * closed by the serde; one created from {@code schema.registry.url} in {@link #configure} is closed by
 * {@link #close()}.
 */
public class SpecificAvroSerde<T extends SpecificRecord> implements Serde<T> {
    private final SpecificAvroSerializer<T> serializer = new SpecificAvroSerializer<>();
    private final SpecificAvroDeserializer<T> deserializer;
    private SchemaRegistryClient registry;
    private boolean ownsRegistry;

    /** Target class from {@code specific.avro.value.type} or the writer schema's name; client from configs. */
    public SpecificAvroSerde() {
        this.deserializer = new SpecificAvroDeserializer<>();
    }

    /** Reads into {@code targetType}; client from {@code schema.registry.url} in {@link #configure}. */
    public SpecificAvroSerde(Class<T> targetType) {
        this.deserializer = new SpecificAvroDeserializer<>(targetType);
    }

    /** Reads into {@code targetType} using {@code registry} (not closed by the serde). */
    public SpecificAvroSerde(Class<T> targetType, SchemaRegistryClient registry) {
        this(targetType);
        this.registry = Objects.requireNonNull(registry, "registry");
        serializer.useRegistry(registry, false);
        deserializer.useRegistry(registry, false);
    }

    /** Reads into {@code targetType} using {@code registry} (not closed by the serde), configured at once. */
    public SpecificAvroSerde(
            Class<T> targetType, SchemaRegistryClient registry, Map<String, ?> configs, boolean isKey) {
        this(targetType, registry);
        configure(configs, isKey);
    }

    @Override
    public void configure(Map<String, ?> configs, boolean isKey) {
        if (registry == null) {
            registry = HttpSchemaRegistryClient.fromConfig(configs);
            ownsRegistry = true;
            serializer.useRegistry(registry, false);
            deserializer.useRegistry(registry, false);
        }
        serializer.configure(configs, isKey);
        deserializer.configure(configs, isKey);
    }

    @Override
    public Serializer<T> serializer() {
        return serializer;
    }

    @Override
    public Deserializer<T> deserializer() {
        return deserializer;
    }

    @Override
    public void close() {
        serializer.close();
        deserializer.close();
        if (ownsRegistry && registry != null) {
            registry.close();
        }
    }
}
