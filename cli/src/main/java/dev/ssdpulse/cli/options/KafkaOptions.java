package dev.ssdpulse.cli.options;

import dev.ssdpulse.platform.KafkaReachability;
import dev.ssdpulse.schemas.registry.HttpSchemaRegistryClient;
import dev.ssdpulse.schemas.serde.SerdeConfig;
import java.io.IOException;
import java.io.Reader;
import java.nio.file.AccessDeniedException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Properties;
import picocli.CommandLine.Option;

/**
 * Where Kafka and the schema registry are, shared by every command that talks to them. Security settings
 * (SASL, TLS) pass through unchanged from {@code --kafka-config} or {@code -X key=value}.
 */
public final class KafkaOptions {

    static final String DEFAULT_BOOTSTRAP_SERVERS = "127.0.0.1:9092";
    static final String DEFAULT_SCHEMA_REGISTRY_URL = "http://127.0.0.1:8081";

    @Option(
            names = "--bootstrap-servers",
            paramLabel = "HOST:PORT[,...]",
            description = "Kafka bootstrap servers (default: bootstrap.servers of -X or --kafka-config, else "
                    + "$SSDPULSE_BOOTSTRAP_SERVERS, else " + DEFAULT_BOOTSTRAP_SERVERS + ").")
    String bootstrapServers;

    @Option(
            names = "--schema-registry-url",
            paramLabel = "URL[,...]",
            description = "Confluent-API schema registry (default: schema.registry.url of -X or --kafka-config, else "
                    + "$SSDPULSE_SCHEMA_REGISTRY_URL, else " + DEFAULT_SCHEMA_REGISTRY_URL + ").")
    String schemaRegistryUrl;

    @Option(
            names = "--kafka-config",
            paramLabel = "FILE",
            description = "Kafka client properties file (security.protocol, sasl.*, ssl.*, ...).")
    Path kafkaConfigFile;

    @Option(
            names = {"-X", "--kafka-property"},
            paramLabel = "KEY=VALUE",
            description = "A Kafka client or serde property; repeatable, wins over --kafka-config.")
    Map<String, String> kafkaProperties = new LinkedHashMap<>();

    /** The option, else the client properties' (-X, then the file's), else the environment's, else the default. */
    public String bootstrapServers() {
        return resolve(bootstrapServers, "bootstrap.servers", "SSDPULSE_BOOTSTRAP_SERVERS", DEFAULT_BOOTSTRAP_SERVERS);
    }

    /** As {@link #bootstrapServers()}: a secured stack's client file names its registry, https included. */
    public String schemaRegistryUrl() {
        return resolve(
                schemaRegistryUrl,
                SerdeConfig.SCHEMA_REGISTRY_URL,
                "SSDPULSE_SCHEMA_REGISTRY_URL",
                DEFAULT_SCHEMA_REGISTRY_URL);
    }

    private String resolve(String option, String property, String environmentVariable, String fallback) {
        if (option != null && !option.isBlank()) {
            return option;
        }
        Object configured = fileAndOverrides().get(property);
        if (configured != null && !configured.toString().isBlank()) {
            return configured.toString().trim();
        }
        String fromEnvironment = System.getenv(environmentVariable);
        return fromEnvironment != null && !fromEnvironment.isBlank() ? fromEnvironment : fallback;
    }

    private String clusterId;

    /**
     * The id of the cluster the bootstrap servers lead to, asked once.
     *
     * @throws KafkaReachability.KafkaUnreachableException when no broker answers within a few seconds
     */
    public String clusterId() {
        if (clusterId == null) {
            clusterId = KafkaReachability.clusterId(clientProperties(), KafkaReachability.DEFAULT_TIMEOUT);
        }
        return clusterId;
    }

    public KafkaOptions with(String bootstrapServers, String schemaRegistryUrl) {
        this.bootstrapServers = bootstrapServers;
        this.schemaRegistryUrl = schemaRegistryUrl;
        return this;
    }

    /** Client properties: file, then -X overrides, then the bootstrap servers and registry resolved as above. */
    public Map<String, Object> clientProperties() {
        Map<String, Object> props = fileAndOverrides();
        props.put("bootstrap.servers", bootstrapServers());
        props.put(SerdeConfig.SCHEMA_REGISTRY_URL, schemaRegistryUrl());
        return props;
    }

    private Map<String, Object> fileAndOverrides() {
        Map<String, Object> props = new HashMap<>();
        if (kafkaConfigFile != null) {
            Properties fromFile = new Properties();
            try (Reader reader = Files.newBufferedReader(kafkaConfigFile)) {
                fromFile.load(reader);
            } catch (AccessDeniedException e) {
                throw new IllegalArgumentException(
                        "--kafka-config " + kafkaConfigFile + ": permission denied (a "
                                + "secured stack's client files are readable by their owner only)",
                        e);
            } catch (IOException e) {
                throw new IllegalArgumentException("--kafka-config " + kafkaConfigFile + ": cannot read: " + e, e);
            }
            fromFile.forEach((k, v) -> props.put((String) k, v));
        }
        props.putAll(kafkaProperties);
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
