package dev.ssdpulse.schemas.topics;

import dev.ssdpulse.schemas.registry.SchemaRegistryClient;
import dev.ssdpulse.schemas.serde.SpecificAvroSerde;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Objects;
import org.apache.avro.specific.SpecificRecord;
import org.apache.kafka.clients.admin.NewTopic;
import org.apache.kafka.common.config.TopicConfig;
import org.apache.kafka.common.serialization.Serde;
import org.apache.kafka.common.serialization.Serdes;

/**
 * One topic of the ssdpulse contract: its name, what its key and value are, and how it is created.
 * Keys are always run ids as UTF-8 strings; values are Avro {@link SpecificRecord}s in the Confluent wire
 * format, except for the dead-letter topic whose value is the original raw bytes ({@code byte[].class}).
 *
 * @param name              topic name, {@code ssdpulse.<dataset>.v<major>}
 * @param keyDescription    what the key holds
 * @param valueType         the generated Avro class of the value, or {@code byte[].class} for raw bytes
 * @param defaultPartitions partitions when the topic is created without an explicit count
 * @param cleanupPolicy     delete or compact
 * @param retentionMs       {@code retention.ms}; -1 = keep forever
 * @param description       one line on what the topic carries
 * @param <V>               value type
 */
public record TopicSpec<V>(
        String name,
        String keyDescription,
        Class<V> valueType,
        int defaultPartitions,
        CleanupPolicy cleanupPolicy,
        long retentionMs,
        String description) {

    /** {@code retention.ms} value that keeps data forever. */
    public static final long RETAIN_FOREVER = -1L;

    public TopicSpec {
        Objects.requireNonNull(name, "name");
        Objects.requireNonNull(keyDescription, "keyDescription");
        Objects.requireNonNull(valueType, "valueType");
        Objects.requireNonNull(cleanupPolicy, "cleanupPolicy");
        Objects.requireNonNull(description, "description");
        if (name.isBlank()) {
            throw new IllegalArgumentException("topic name must not be blank");
        }
        if (defaultPartitions < 1) {
            throw new IllegalArgumentException(
                    "topic " + name + ": defaultPartitions must be >= 1, got " + defaultPartitions);
        }
        if (retentionMs < -1) {
            throw new IllegalArgumentException(
                    "topic " + name + ": retentionMs must be -1 (forever) or >= 0, got " + retentionMs);
        }
        if (valueType != byte[].class && !SpecificRecord.class.isAssignableFrom(valueType)) {
            throw new IllegalArgumentException("topic " + name + ": value type " + valueType.getName()
                    + " is neither an Avro SpecificRecord nor byte[]");
        }
    }

    /** True when values are Avro records in the Confluent wire format; false for raw bytes. */
    public boolean avroValue() {
        return valueType != byte[].class;
    }

    /** Schema registry subject of the value (TopicNameStrategy). */
    public String valueSubject() {
        return name + "-value";
    }

    /** Topic-level configs to create the topic with ({@code cleanup.policy}, {@code retention.ms}). */
    public Map<String, String> topicConfigs() {
        Map<String, String> configs = new LinkedHashMap<>();
        configs.put(TopicConfig.CLEANUP_POLICY_CONFIG, cleanupPolicy.configValue());
        configs.put(TopicConfig.RETENTION_MS_CONFIG, Long.toString(retentionMs));
        return Map.copyOf(configs);
    }

    /** A {@link NewTopic} for AdminClient with the default partition count. */
    public NewTopic toNewTopic(short replicationFactor) {
        return toNewTopic(defaultPartitions, replicationFactor);
    }

    /** A {@link NewTopic} for AdminClient. */
    public NewTopic toNewTopic(int partitions, short replicationFactor) {
        if (partitions < 1) {
            throw new IllegalArgumentException("topic " + name + ": partitions must be >= 1, got " + partitions);
        }
        if (replicationFactor < 1) {
            throw new IllegalArgumentException(
                    "topic " + name + ": replication factor must be >= 1, got " + replicationFactor);
        }
        return new NewTopic(name, partitions, replicationFactor).configs(topicConfigs());
    }

    /** Serde of the key: run id as a UTF-8 string. */
    public Serde<String> keySerde() {
        return Serdes.String();
    }

    /**
     * Serde of the value, already configured as a value serde. Avro values use the given registry client
     * (not closed by the serde); raw-byte values ignore it.
     *
     * @param registry      shared registry client
     * @param serdeConfigs  serde configs (see {@link dev.ssdpulse.schemas.serde.SerdeConfig}); the registry URL
     *                      is not needed since the client is given
     */
    @SuppressWarnings({"unchecked", "rawtypes"})
    public Serde<V> valueSerde(SchemaRegistryClient registry, Map<String, ?> serdeConfigs) {
        if (!avroValue()) {
            return (Serde<V>) Serdes.ByteArray();
        }
        SpecificAvroSerde serde = new SpecificAvroSerde((Class) valueType, registry);
        serde.configure(serdeConfigs, false);
        return (Serde<V>) serde;
    }
}
