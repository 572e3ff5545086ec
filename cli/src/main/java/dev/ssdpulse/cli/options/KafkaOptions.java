package dev.ssdpulse.cli.options;

import dev.ssdpulse.schemas.registry.HttpSchemaRegistryClient;
import dev.ssdpulse.schemas.serde.SerdeConfig;
import picocli.CommandLine.Option;

import java.io.IOException;
import java.io.Reader;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Properties;

/**
 * Where Kafka and the schema registry are, shared by every command that talks to them. Security settings
 * (SASL, TLS) pass through unchanged from {@code --kafka-config} or {@code -X key=value}.
 */
public final class KafkaOptions {

    @Option(names = "--bootstrap-servers", paramLabel = "HOST:PORT[,...]",
            description = "Kafka bootstrap servers (default: ${DEFAULT-VALUE}).",
            defaultValue = "${env:SSDPULSE_BOOTSTRAP_SERVERS:-127.0.0.1:9092}")
    String bootstrapServers;

    @Option(names = "--schema-registry-url", paramLabel = "URL[,...]",
            description = "Confluent-API schema registry (default: ${DEFAULT-VALUE}).",
            defaultValue = "${env:SSDPULSE_SCHEMA_REGISTRY_URL:-http://127.0.0.1:8081}")
    String schemaRegistryUrl;

    @Option(names = "--kafka-config", paramLabel = "FILE",
            description = "Kafka client properties file (security.protocol, sasl.*, ssl.*, ...).")
    Path kafkaConfigFile;

    @Option(names = {"-X", "--kafka-property"}, paramLabel = "KEY=VALUE",
            description = "A Kafka client or serde property; repeatable, wins over --kafka-config.")
    Map<String, String> kafkaProperties = new LinkedHashMap<>();

    public String bootstrapServers() {
        return bootstrapServers;
    }

    public String schemaRegistryUrl() {
        return schemaRegistryUrl;
    }

    public KafkaOptions with(String bootstrapServers, String schemaRegistryUrl) {
        this.bootstrapServers = bootstrapServers;
        this.schemaRegistryUrl = schemaRegistryUrl;
        return this;
    }

    /** Client properties: file, then -X overrides, then the bootstrap and registry options. */
    public Map<String, Object> clientProperties() {
        Map<String, Object> props = new HashMap<>();
        if (kafkaConfigFile != null) {
            Properties fromFile = new Properties();
            try (Reader reader = Files.newBufferedReader(kafkaConfigFile)) {
                fromFile.load(reader);
            } catch (IOException e) {
                throw new IllegalArgumentException("--kafka-config " + kafkaConfigFile + ": cannot read: " + e.getMessage(), e);
            }
            fromFile.forEach((k, v) -> props.put((String) k, v));
        }
        props.putAll(kafkaProperties);
        props.put("bootstrap.servers", bootstrapServers);
        props.put(SerdeConfig.SCHEMA_REGISTRY_URL, schemaRegistryUrl);
        return props;
    }

    /**
     * A registry client with the registry settings among the client properties ({@code basic.auth.user.info},
     * {@code schema.registry.request.timeout.ms}, ...), so -X / --kafka-config reach the registry too.
     */
    public HttpSchemaRegistryClient registryClient() {
        return HttpSchemaRegistryClient.fromConfig(clientProperties());
    }
}
