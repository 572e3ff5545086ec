package dev.ssdpulse.cli.reliability;

import dev.ssdpulse.cli.reliability.WindowLags.RunWindow;
import dev.ssdpulse.schemas.avro.WindowMetrics;
import dev.ssdpulse.schemas.registry.HttpSchemaRegistryClient;
import dev.ssdpulse.schemas.serde.SpecificAvroDeserializer;
import dev.ssdpulse.schemas.topics.Topics;
import java.time.Duration;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.AdminClientConfig;
import org.apache.kafka.clients.admin.AlterConfigOp;
import org.apache.kafka.clients.admin.ConfigEntry;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.config.ConfigResource;
import org.apache.kafka.common.errors.WakeupException;
import org.apache.kafka.common.record.TimestampType;
import org.apache.kafka.common.serialization.StringDeserializer;

/**
 * When each window of the measured runs reached the views: the broker's append time of its records in
 * {@code ssdpulse.metrics-1s.v1}, read by a consumer thread. The analytics put a window into the series store the
 * HTTP API reads and forward it to this topic in the same {@code process()} call, and interactive queries read
 * through the record cache, so the append time is the view's visibility plus the analytics producer's send
 * (linger and one replicated acks=all round trip, milliseconds), without the up-to-500-ms sampling error that
 * polling the API or its Server-Sent Events (polled server-side every 500 ms) would add. The topic is switched to
 * {@code message.timestamp.type=LogAppendTime} for this (by default a record keeps the timestamp the analytics give
 * it, the input batch's creation time); nothing in ssdpulse reads those timestamps.
 */
final class WindowAppendTimes implements AutoCloseable {
    private final String runIdPrefix;
    private final long windowNs;
    private final KafkaConsumer<String, WindowMetrics> consumer;
    private final HttpSchemaRegistryClient registry;
    private final Map<RunWindow, Long> appendWallMs = new ConcurrentHashMap<>();
    private final Thread thread;
    private volatile RuntimeException failure;

    /** Switches the metrics topic to broker append times and starts reading it from the beginning. */
    WindowAppendTimes(String bootstrapServers, String schemaRegistryUrl, String runIdPrefix, long windowNs)
            throws Exception {
        this.runIdPrefix = runIdPrefix;
        this.windowNs = windowNs;
        try (Admin admin = Admin.create(Map.of(AdminClientConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrapServers))) {
            ConfigResource topic = new ConfigResource(ConfigResource.Type.TOPIC, Topics.METRICS_1S.name());
            admin.incrementalAlterConfigs(Map.of(
                            topic,
                            List.of(new AlterConfigOp(
                                    new ConfigEntry("message.timestamp.type", "LogAppendTime"),
                                    AlterConfigOp.OpType.SET))))
                    .all()
                    .get(30, TimeUnit.SECONDS);
        }
        registry = new HttpSchemaRegistryClient(schemaRegistryUrl);
        consumer = new KafkaConsumer<>(
                Map.of(
                        ConsumerConfig.BOOTSTRAP_SERVERS_CONFIG,
                        bootstrapServers,
                        ConsumerConfig.ISOLATION_LEVEL_CONFIG,
                        "read_committed"),
                new StringDeserializer(),
                new SpecificAvroDeserializer<>(WindowMetrics.class, registry));
        List<TopicPartition> partitions = consumer.partitionsFor(Topics.METRICS_1S.name()).stream()
                .map(p -> new TopicPartition(p.topic(), p.partition()))
                .toList();
        consumer.assign(partitions);
        consumer.seekToBeginning(partitions);
        thread = new Thread(this::poll, "window-append-times");
        thread.start();
    }

    private void poll() {
        try {
            while (true) {
                for (ConsumerRecord<String, WindowMetrics> r : consumer.poll(Duration.ofSeconds(1))) {
                    if (r.key() == null || !r.key().startsWith(runIdPrefix)) {
                        continue;
                    }
                    if (r.timestampType() != TimestampType.LOG_APPEND_TIME) {
                        throw new IllegalStateException(Topics.METRICS_1S.name() + " record at offset " + r.offset()
                                + " has a " + r.timestampType() + ", not the broker's append time");
                    }
                    // one record per op: the window is whole in the views with the last of them
                    appendWallMs.merge(
                            new RunWindow(r.key(), r.value().getWindowStartNs() / windowNs), r.timestamp(), Math::max);
                }
            }
        } catch (WakeupException e) {
            // closing
        } catch (RuntimeException e) {
            failure = e;
        }
    }

    /** Append wall ms of every window seen so far; throws what stopped the reader, if anything did. */
    Map<RunWindow, Long> appendWallMs() {
        if (failure != null) {
            throw failure;
        }
        return new HashMap<>(appendWallMs);
    }

    boolean containsAll(Iterable<RunWindow> windows) {
        if (failure != null) {
            throw failure;
        }
        for (RunWindow w : windows) {
            if (!appendWallMs.containsKey(w)) {
                return false;
            }
        }
        return true;
    }

    @Override
    public void close() {
        consumer.wakeup();
        try {
            thread.join(30_000);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
        consumer.close();
        registry.close();
    }
}
