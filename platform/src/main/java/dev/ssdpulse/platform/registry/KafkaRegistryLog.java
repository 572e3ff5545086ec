package dev.ssdpulse.platform.registry;

import dev.ssdpulse.schemas.registry.SchemaRegistryException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.Set;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.AdminClientConfig;
import org.apache.kafka.clients.admin.NewTopic;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.KafkaException;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.config.TopicConfig;
import org.apache.kafka.common.errors.InvalidProducerEpochException;
import org.apache.kafka.common.errors.ProducerFencedException;
import org.apache.kafka.common.errors.TopicExistsException;
import org.apache.kafka.common.serialization.ByteArrayDeserializer;
import org.apache.kafka.common.serialization.ByteArraySerializer;

/**
 * The registry log in a compacted single-partition Kafka topic (`_schemas` by default), as
 * Confluent's registry keeps it. Each append is a synchronous acks=all send in a transaction; readAll
 * reads the topic from the beginning to the end offset taken when it starts.
 *
 * <p>One writer per topic: every instance writes with the same transactional id (derived from the
 * topic), so the instance started last fences the earlier ones. A fenced instance refuses writes with a
 * clear error instead of giving out ids that collide with the new writer's (it only reads what it had).
 * Confluent's registry elects a primary and forwards writes to it; this registry does not forward.
 */
public final class KafkaRegistryLog implements RegistryLog {
    public static final String DEFAULT_TOPIC = "_schemas";
    private static final Duration TIMEOUT = Duration.ofSeconds(30);

    private final String bootstrapServers;
    /** Security settings of every client of the log (SASL, TLS); empty on a PLAINTEXT cluster. */
    private final Map<String, Object> securityProperties;

    private final String topic;
    private final KafkaProducer<byte[], byte[]> producer;

    /**
     * Creates the topic when missing (1 partition, up to 3 replicas as the cluster has brokers,
     * cleanup.policy=compact) and fences any earlier writer of it.
     */
    public KafkaRegistryLog(String bootstrapServers, String topic) {
        this(bootstrapServers, topic, Map.of());
    }

    /**
     * As {@link #KafkaRegistryLog(String, String)} on a secured cluster.
     *
     * @param securityProperties client settings added to every client of the log (security.protocol, sasl.*, ssl.*):
     *                           its user needs to create, read and write the topic and its transactional id
     */
    public KafkaRegistryLog(String bootstrapServers, String topic, Map<String, Object> securityProperties) {
        this.bootstrapServers = bootstrapServers;
        this.securityProperties = Map.copyOf(securityProperties);
        this.topic = topic;
        createTopicIfMissing();
        Properties p = new Properties();
        p.putAll(this.securityProperties);
        p.put(ProducerConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrapServers);
        p.put(ProducerConfig.ACKS_CONFIG, "all");
        p.put(ProducerConfig.ENABLE_IDEMPOTENCE_CONFIG, "true");
        p.put(ProducerConfig.LINGER_MS_CONFIG, "0");
        p.put(ProducerConfig.CLIENT_ID_CONFIG, "ssdpulse-schema-registry");
        p.put(ProducerConfig.MAX_BLOCK_MS_CONFIG, Long.toString(TIMEOUT.toMillis()));
        p.put(ProducerConfig.DELIVERY_TIMEOUT_MS_CONFIG, Long.toString(TIMEOUT.toMillis()));
        p.put(ProducerConfig.REQUEST_TIMEOUT_MS_CONFIG, Long.toString(TIMEOUT.toMillis() / 2));
        p.put(ProducerConfig.TRANSACTIONAL_ID_CONFIG, transactionalId(topic));
        this.producer = new KafkaProducer<>(p, new ByteArraySerializer(), new ByteArraySerializer());
        try {
            // fences every earlier instance on this topic and aborts a write it left open
            producer.initTransactions();
        } catch (RuntimeException e) {
            producer.close(Duration.ZERO);
            throw new IllegalStateException(
                    "cannot become the writer of registry topic '" + topic + "' on " + bootstrapServers + ": "
                            + e.getMessage(),
                    e);
        }
    }

    /** The transactional id shared by every registry instance that writes {@code topic}. */
    static String transactionalId(String topic) {
        return "ssdpulse-schema-registry-" + topic;
    }

    public KafkaRegistryLog(String bootstrapServers) {
        this(bootstrapServers, DEFAULT_TOPIC);
    }

    private void createTopicIfMissing() {
        Map<String, Object> adminProps = new HashMap<>(securityProperties);
        adminProps.put(AdminClientConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrapServers);
        try (Admin admin = Admin.create(adminProps)) {
            Set<String> existing = admin.listTopics().names().get(TIMEOUT.toMillis(), TimeUnit.MILLISECONDS);
            if (existing.contains(topic)) {
                return;
            }
            int brokers = admin.describeCluster()
                    .nodes()
                    .get(TIMEOUT.toMillis(), TimeUnit.MILLISECONDS)
                    .size();
            NewTopic newTopic = new NewTopic(topic, 1, (short) Math.max(1, Math.min(3, brokers)))
                    .configs(Map.of(TopicConfig.CLEANUP_POLICY_CONFIG, TopicConfig.CLEANUP_POLICY_COMPACT));
            admin.createTopics(List.of(newTopic)).all().get(TIMEOUT.toMillis(), TimeUnit.MILLISECONDS);
        } catch (ExecutionException e) {
            if (!(e.getCause() instanceof TopicExistsException)) {
                throw new IllegalStateException(
                        "cannot create registry topic '" + topic + "' on " + bootstrapServers + ": " + e.getCause(),
                        e.getCause());
            }
        } catch (TimeoutException e) {
            throw new IllegalStateException(
                    "Kafka at " + bootstrapServers + " did not answer within " + TIMEOUT.toSeconds()
                            + " s while creating registry topic '" + topic + "'",
                    e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted while creating registry topic '" + topic + "'", e);
        }
    }

    @Override
    public List<RegistryRecord> readAll() {
        Properties p = new Properties();
        p.putAll(securityProperties);
        p.put(ConsumerConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrapServers);
        p.put(ConsumerConfig.ENABLE_AUTO_COMMIT_CONFIG, "false");
        p.put(ConsumerConfig.CLIENT_ID_CONFIG, "ssdpulse-schema-registry-reader");
        // Only committed data: an aborted or half-written record must not become registry state.
        p.put(ConsumerConfig.ISOLATION_LEVEL_CONFIG, "read_committed");
        TopicPartition partition = new TopicPartition(topic, 0);
        List<RegistryRecord> records = new ArrayList<>();
        try (KafkaConsumer<byte[], byte[]> consumer =
                new KafkaConsumer<>(p, new ByteArrayDeserializer(), new ByteArrayDeserializer())) {
            consumer.assign(List.of(partition));
            consumer.seekToBeginning(List.of(partition));
            long endOffset = consumer.endOffsets(List.of(partition), TIMEOUT).get(partition);
            long deadline = System.nanoTime() + TIMEOUT.toNanos();
            while (consumer.position(partition, TIMEOUT) < endOffset) {
                if (System.nanoTime() > deadline) {
                    throw new IllegalStateException(
                            "reading registry topic '" + topic + "' did not reach end offset " + endOffset + " within "
                                    + TIMEOUT.toSeconds() + " s (at " + consumer.position(partition) + ")");
                }
                for (ConsumerRecord<byte[], byte[]> r : consumer.poll(Duration.ofMillis(200))) {
                    try {
                        RegistryRecordCodec.decode(r.key(), r.value()).ifPresent(records::add);
                    } catch (IllegalArgumentException e) {
                        throw new IllegalStateException(
                                "registry topic '" + topic + "' offset " + r.offset() + ": " + e.getMessage(), e);
                    }
                }
            }
        }
        return records;
    }

    @Override
    public synchronized void append(RegistryRecord record) {
        try {
            producer.beginTransaction();
            producer.send(new ProducerRecord<>(
                            topic, 0, RegistryRecordCodec.key(record), RegistryRecordCodec.value(record)))
                    .get(TIMEOUT.toMillis(), TimeUnit.MILLISECONDS);
            producer.commitTransaction();
        } catch (ProducerFencedException | InvalidProducerEpochException e) {
            throw SchemaRegistryException.storeError(
                    "another schema registry instance started later on '" + topic
                            + "' and is now its only writer; this instance refuses writes (point clients at that one, "
                            + "or "
                            + "restart this one to make it the writer)",
                    e);
        } catch (KafkaException e) {
            abortQuietly();
            throw SchemaRegistryException.storeError("write to '" + topic + "' failed: " + e, e);
        } catch (ExecutionException e) {
            if (e.getCause() instanceof ProducerFencedException
                    || e.getCause() instanceof InvalidProducerEpochException) {
                throw SchemaRegistryException.storeError(
                        "another schema registry instance started later on '" + topic
                                + "' and is now its only writer; this instance refuses writes (point clients at that "
                                + "one, or "
                                + "restart this one to make it the writer)",
                        e.getCause());
            }
            abortQuietly();
            throw SchemaRegistryException.storeError("write to '" + topic + "' failed: " + e.getCause(), e.getCause());
        } catch (TimeoutException e) {
            abortQuietly();
            throw SchemaRegistryException.storeError(
                    "write to '" + topic + "' timed out after " + TIMEOUT.toSeconds() + " s", e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            abortQuietly();
            throw SchemaRegistryException.storeError("interrupted while writing to '" + topic + "'", e);
        }
    }

    private void abortQuietly() {
        try {
            producer.abortTransaction();
        } catch (RuntimeException e) {
            // the transaction may not have begun, or the producer is fenced: nothing was committed either way
        }
    }

    @Override
    public void close() {
        producer.close(Duration.ofSeconds(5));
    }
}
