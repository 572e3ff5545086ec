package dev.ssdpulse.producer.publish;

import java.time.Duration;
import java.util.Map;
import java.util.Objects;

/**
 * Settings of a {@link RunPublisher}.
 *
 * @param kafkaProperties   Kafka producer properties (bootstrap.servers, security settings, ...) and serde
 *                          settings (schema.registry.url, ...); ssdpulse's producer defaults apply where absent
 * @param maxBatchIos       I/Os per IoBatch record (DESIGN: 512; 1 gives one record per I/O)
 * @param queueCapacity     IoBatch records (and other events) the hand-off queue holds
 * @param overflowPolicy    what the I/O path does when the queue is full
 * @param heartbeatInterval wall-clock interval of RunHeartbeat events
 * @param lingerFlush       a worker's partial batch is published after this much wall-clock time without
 *                          filling, so a slow (QD1, rate-limited) live run still shows up promptly (and at once when
 *                          its driver reports a new second of run time: {@link RunPublisher#completedThrough})
 */
public record PublisherConfig(
        Map<String, Object> kafkaProperties,
        int maxBatchIos,
        int queueCapacity,
        OverflowPolicy overflowPolicy,
        Duration heartbeatInterval,
        Duration lingerFlush) {

    public static final int DEFAULT_MAX_BATCH_IOS = 512;
    public static final int DEFAULT_QUEUE_CAPACITY = 1024;

    public PublisherConfig {
        kafkaProperties = Map.copyOf(Objects.requireNonNull(kafkaProperties, "kafkaProperties"));
        if (maxBatchIos < 1) {
            throw new IllegalArgumentException("maxBatchIos must be >= 1, got " + maxBatchIos);
        }
        if (queueCapacity < 1) {
            throw new IllegalArgumentException("queueCapacity must be >= 1, got " + queueCapacity);
        }
        Objects.requireNonNull(overflowPolicy, "overflowPolicy");
        Objects.requireNonNull(heartbeatInterval, "heartbeatInterval");
        Objects.requireNonNull(lingerFlush, "lingerFlush");
    }

    public static PublisherConfig defaults(Map<String, Object> kafkaProperties, OverflowPolicy overflowPolicy) {
        return new PublisherConfig(
                kafkaProperties,
                DEFAULT_MAX_BATCH_IOS,
                DEFAULT_QUEUE_CAPACITY,
                overflowPolicy,
                Duration.ofSeconds(2),
                Duration.ofMillis(500));
    }

    public PublisherConfig withMaxBatchIos(int ios) {
        return new PublisherConfig(kafkaProperties, ios, queueCapacity, overflowPolicy, heartbeatInterval, lingerFlush);
    }
}
