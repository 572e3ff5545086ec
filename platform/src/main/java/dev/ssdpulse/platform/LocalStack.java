package dev.ssdpulse.platform;

import dev.ssdpulse.platform.kafka.BrokerSettings;
import dev.ssdpulse.platform.kafka.EmbeddedKafkaBroker;
import dev.ssdpulse.platform.registry.EmbeddedSchemaRegistry;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Collection;
import java.util.List;
import org.apache.kafka.clients.admin.NewTopic;

/**
 * The local infrastructure ssdpulse runs on: a real Kafka broker and a Confluent-API schema registry
 * storing its schemas in that broker. With a given data directory, stopping and starting again keeps
 * topics, records and schema ids.
 */
public final class LocalStack implements AutoCloseable {
    private final EmbeddedKafkaBroker broker;
    private final int registryPort;
    private EmbeddedSchemaRegistry registry;
    private Duration startDuration = Duration.ZERO;

    private LocalStack(BrokerSettings brokerSettings, int registryPort) {
        this.broker = new EmbeddedKafkaBroker(brokerSettings);
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
     * @param registryPort 0 for a free port
     */
    public static LocalStack start(BrokerSettings brokerSettings, int registryPort) {
        LocalStack stack = new LocalStack(brokerSettings, registryPort);
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
        broker.start();
        registry = EmbeddedSchemaRegistry.startOnKafka(broker.bootstrapServers(), registryPort);
        startDuration = Duration.ofNanos(System.nanoTime() - t0);
    }

    public String bootstrapServers() {
        return broker.bootstrapServers();
    }

    /** "http://127.0.0.1:port" */
    public String schemaRegistryUrl() {
        return registry.url();
    }

    public EmbeddedKafkaBroker broker() {
        return broker;
    }

    public EmbeddedSchemaRegistry registry() {
        return registry;
    }

    public Path dataDir() {
        return broker.dataDir();
    }

    /** Broker start plus registry start (including replay of `_schemas`). */
    public Duration startDuration() {
        return startDuration;
    }

    /** Creates the topics that do not exist yet; see {@link TopicCreation#createIfMissing}. */
    public List<String> createTopics(Collection<NewTopic> topics) {
        return TopicCreation.createIfMissing(bootstrapServers(), topics);
    }

    /** Stops the registry, then the broker. */
    @Override
    public void close() {
        try {
            if (registry != null) {
                registry.close();
                registry = null;
            }
        } finally {
            broker.close();
        }
    }
}
