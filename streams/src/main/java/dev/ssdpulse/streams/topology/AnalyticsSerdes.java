package dev.ssdpulse.streams.topology;

import dev.ssdpulse.schemas.registry.SchemaRegistryClient;
import dev.ssdpulse.schemas.serde.SerdeConfig;
import dev.ssdpulse.schemas.serde.SpecificAvroSerde;
import java.util.HashMap;
import java.util.Map;
import java.util.Objects;
import org.apache.avro.specific.SpecificRecord;

/**
 * Avro serdes of the topology, all on one registry client (not closed here: its owner closes it). The
 * configs go to every serde (e.g. {@code auto.register.schemas}).
 */
public final class AnalyticsSerdes {
    private final SchemaRegistryClient registry;
    private final Map<String, Object> configs;

    public AnalyticsSerdes(SchemaRegistryClient registry) {
        this(registry, Map.of());
    }

    public AnalyticsSerdes(SchemaRegistryClient registry, Map<String, ?> configs) {
        this.registry = Objects.requireNonNull(registry, "registry");
        this.configs = new HashMap<>(configs);
        // the registry client is given; the URL is only read when a serde must create one
        this.configs.putIfAbsent(SerdeConfig.SCHEMA_REGISTRY_URL, "unused://given-client");
    }

    public <T extends SpecificRecord> SpecificAvroSerde<T> value(Class<T> type) {
        return new SpecificAvroSerde<>(type, registry, configs, false);
    }

    public SchemaRegistryClient registry() {
        return registry;
    }
}
