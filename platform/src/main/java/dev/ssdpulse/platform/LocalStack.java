package dev.ssdpulse.platform;

import dev.ssdpulse.platform.kafka.BrokerSettings;
import dev.ssdpulse.platform.kafka.EmbeddedKafkaBroker;
import dev.ssdpulse.platform.kafka.EmbeddedKafkaCluster;
import dev.ssdpulse.platform.registry.EmbeddedSchemaRegistry;
import dev.ssdpulse.platform.security.SecureStack;
import dev.ssdpulse.platform.security.StackUser;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Collection;
import java.util.Comparator;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.NewTopic;

/**
 * The local infrastructure ssdpulse runs on: a real Kafka cluster (one broker, or a KRaft cluster of
 * three) and a Confluent-API schema registry storing its schemas in it. With a given data directory,
 * stopping and starting again keeps topics, records and schema ids.
 */
public final class LocalStack implements AutoCloseable {
    private static final Duration SECURE_START_TIMEOUT = Duration.ofSeconds(120);
    private final EmbeddedKafkaCluster cluster;
    private final int registryPort;
    /** Empty for a PLAINTEXT stack without authorization. */
    private final Optional<SecureStack> security;

    private Map<StackUser, Path> clientFiles = Map.of();
    /** The temporary data directory of a secured stack started without one: deleted on close. */
    private Optional<Path> temporaryDataDir = Optional.empty();

    private EmbeddedSchemaRegistry registry;
    private Duration startDuration = Duration.ZERO;

    private LocalStack(
            BrokerSettings brokerSettings, int brokerCount, int registryPort, Optional<SecureStack> security) {
        this.cluster = new EmbeddedKafkaCluster(
                security.map(s -> brokerSettings.withSecurity(s.brokerSecurity()))
                        .orElse(brokerSettings),
                brokerCount);
        this.registryPort = registryPort;
        this.security = security;
    }

    /** Starts a stack in a temporary directory (deleted on close), on free ports. */
    public static LocalStack start() {
        return start(BrokerSettings.defaults(), 0);
    }

    /** Starts a stack on a data directory kept between runs, on free ports. */
    public static LocalStack start(Path dataDir) {
        return start(BrokerSettings.defaults().withDataDir(dataDir), 0);
    }

    /**
     * A one-broker stack.
     *
     * @param registryPort 0 for a free port
     */
    public static LocalStack start(BrokerSettings brokerSettings, int registryPort) {
        return start(brokerSettings, 1, registryPort);
    }

    /**
     * @param brokerSettings each broker's settings; the broker port is the first broker's
     * @param brokerCount    1, or an odd number of KRaft nodes (see {@link EmbeddedKafkaCluster})
     * @param registryPort   0 for a free port
     * @throws IllegalArgumentException if the data directory holds a cluster of another size
     */
    public static LocalStack start(BrokerSettings brokerSettings, int brokerCount, int registryPort) {
        return start(brokerSettings, brokerCount, registryPort, false);
    }

    /**
     * As {@link #start(BrokerSettings, int, int)}; {@code secure}: SASL_SSL with SCRAM users and ACLs on the brokers,
     * HTTPS with basic auth on the registry, the material in the data directory's {@code secure/} (see
     * {@link SecureStack}). A secured stack needs a data directory of its own (a temporary one when the settings name
     * none).
     */
    public static LocalStack start(BrokerSettings brokerSettings, int brokerCount, int registryPort, boolean secure) {
        Optional<SecureStack> security = Optional.empty();
        Optional<Path> temporary = Optional.empty();
        if (secure) {
            if (brokerSettings.dataDir().isEmpty()) {
                // the certificates and passwords need a directory before the brokers have theirs
                temporary = Optional.of(temporaryDirectory());
                brokerSettings = brokerSettings.withDataDir(temporary.get());
            }
            security = Optional.of(
                    SecureStack.prepare(brokerSettings.dataDir().get().toAbsolutePath()));
            if (brokerSettings.startTimeout().compareTo(SECURE_START_TIMEOUT) < 0) {
                // every readiness probe is a TLS handshake plus a SCRAM exchange: on two loaded cores a restart can
                // be ready in the broker log and still not answer within 60 s
                brokerSettings = brokerSettings.withStartTimeout(SECURE_START_TIMEOUT);
            }
        }
        LocalStack stack = new LocalStack(brokerSettings, brokerCount, registryPort, security);
        stack.temporaryDataDir = temporary;
        try {
            stack.startAll();
        } catch (RuntimeException e) {
            stack.close();
            throw e;
        }
        return stack;
    }

    private void startAll() {
        long t0 = System.nanoTime();
        cluster.start();
        if (security.isPresent()) {
            try (Admin admin = Admin.create(adminClientProperties())) {
                SecureStack.applyAcls(admin);
            }
            registry = EmbeddedSchemaRegistry.startOnKafka(
                    cluster.bootstrapServers(),
                    security.get().brokerSecurity().adminClientProperties(),
                    registryPort,
                    security.get().registrySecurity());
            clientFiles = security.get().writeClientFiles(cluster.bootstrapServers(), registry.url());
        } else {
            registry = EmbeddedSchemaRegistry.startOnKafka(cluster.bootstrapServers(), registryPort);
        }
        startDuration = Duration.ofNanos(System.nanoTime() - t0);
    }

    private static Path temporaryDirectory() {
        try {
            return Files.createTempDirectory("ssdpulse-secure-stack-");
        } catch (IOException e) {
            throw new UncheckedIOException("cannot create a temporary data directory", e);
        }
    }

    /**
     * The stack's own client settings: the bootstrap servers, and on a secured stack the admin's login and the CA's
     * truststore (with the registry's, so a registry client made from them works too).
     */
    public Map<String, Object> adminClientProperties() {
        Map<String, Object> p = new HashMap<>();
        security.ifPresent(s -> p.putAll(s.clientProperties(
                StackUser.ADMIN, bootstrapServers(), registry == null ? "https://127.0.0.1:0" : registry.url())));
        p.put("bootstrap.servers", bootstrapServers());
        if (registry != null) {
            p.put("schema.registry.url", registry.url());
        }
        return p;
    }

    /** Whether this stack authenticates and authorizes every client. */
    public boolean secure() {
        return security.isPresent();
    }

    /** The secured stack's material (passwords, certificates, client files); empty on a PLAINTEXT stack. */
    public Optional<SecureStack> security() {
        return security;
    }

    /** Each user's client properties file on a secured stack; empty otherwise. */
    public Map<StackUser, Path> clientFiles() {
        return clientFiles;
    }

    /** Every broker's "127.0.0.1:port", comma-separated. */
    public String bootstrapServers() {
        return cluster.bootstrapServers();
    }

    /** "http://127.0.0.1:port" */
    public String schemaRegistryUrl() {
        return registry.url();
    }

    /** The broker of a one-broker stack; node 1 of a larger cluster. */
    public EmbeddedKafkaBroker broker() {
        return cluster.node(1);
    }

    /** The brokers, for a caller that stops, kills or restarts one of them. */
    public EmbeddedKafkaCluster cluster() {
        return cluster;
    }

    public EmbeddedSchemaRegistry registry() {
        return registry;
    }

    public Path dataDir() {
        return cluster.dataDir();
    }

    /** Brokers' start plus registry start (including replay of `_schemas`). */
    public Duration startDuration() {
        return startDuration;
    }

    /** Creates the topics that do not exist yet; see {@link TopicCreation#createIfMissing}. */
    public List<String> createTopics(Collection<NewTopic> topics) {
        try (Admin admin = Admin.create(adminClientProperties())) {
            return TopicCreation.createIfMissing(admin, topics);
        }
    }

    /** Stops the registry, then the brokers. */
    @Override
    public void close() {
        try {
            if (registry != null) {
                registry.close();
                registry = null;
            }
        } finally {
            cluster.close();
            temporaryDataDir.ifPresent(LocalStack::deleteRecursively);
        }
    }

    private static void deleteRecursively(Path dir) {
        try (var paths = Files.walk(dir)) {
            paths.sorted(Comparator.reverseOrder()).forEach(p -> p.toFile().delete());
        } catch (IOException e) {
            throw new UncheckedIOException("cannot delete the temporary data directory " + dir, e);
        }
    }
}
