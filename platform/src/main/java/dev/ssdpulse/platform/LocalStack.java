package dev.ssdpulse.platform;

import dev.ssdpulse.platform.kafka.BrokerSettings;
import dev.ssdpulse.platform.kafka.EmbeddedKafkaBroker;
import dev.ssdpulse.platform.kafka.EmbeddedKafkaCluster;
import dev.ssdpulse.platform.registry.EmbeddedSchemaRegistry;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Collection;
import java.util.List;
import org.apache.kafka.clients.admin.NewTopic;

/**
 * The local infrastructure ssdpulse runs on: a real Kafka cluster (one broker, or a KRaft cluster of
 * three) and a Confluent-API schema registry storing its schemas in it. With a given data directory,
 * stopping and starting again keeps topics, records and schema ids.
 */
public final class LocalStack implements AutoCloseable {
    private final EmbeddedKafkaCluster cluster;
    private final int registryPort;
    private EmbeddedSchemaRegistry registry;
    private Duration startDuration = Duration.ZERO;

    private LocalStack(BrokerSettings brokerSettings, int brokerCount, int registryPort) {
        this.cluster = new EmbeddedKafkaCluster(brokerSettings, brokerCount);
        this.registryPort = registryPort;
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
        LocalStack stack = new LocalStack(brokerSettings, brokerCount, registryPort);
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
        registry = EmbeddedSchemaRegistry.startOnKafka(cluster.bootstrapServers(), registryPort);
        startDuration = Duration.ofNanos(System.nanoTime() - t0);
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
        return TopicCreation.createIfMissing(bootstrapServers(), topics);
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
        }
    }
}
