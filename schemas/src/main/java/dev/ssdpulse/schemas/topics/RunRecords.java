package dev.ssdpulse.schemas.topics;

import dev.ssdpulse.schemas.registry.SchemaRegistryClient;
import dev.ssdpulse.schemas.serde.SpecificAvroDeserializer;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Predicate;
import org.apache.avro.specific.SpecificRecord;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.common.PartitionInfo;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.serialization.ByteArrayDeserializer;
import org.apache.kafka.common.serialization.StringDeserializer;
import org.apache.kafka.common.utils.Utils;

/**
 * Reads one run's stored records of a topic, in partition order, from the beginning to the current end: only
 * the run's partition (every ssdpulse topic is keyed by run id with Kafka's default partitioner: murmur2 of the
 * key), no consumer group, committed data only (the analytics write transactionally). The timeout bounds a
 * stall, not the whole read. The one reader of a run's records: `report`, `runs`, playback.
 */
public final class RunRecords {
    private RunRecords() {}

    /**
     * The consumer's configuration: the client properties unchanged (security settings included), reading
     * committed data only, without a group (partitions are assigned, offsets never committed).
     */
    public static Map<String, Object> consumerProperties(Map<String, Object> clientProperties) {
        Map<String, Object> props = new HashMap<>(clientProperties);
        props.put(ConsumerConfig.ISOLATION_LEVEL_CONFIG, "read_committed");
        props.put(ConsumerConfig.ENABLE_AUTO_COMMIT_CONFIG, false);
        props.put(ConsumerConfig.MAX_PARTITION_FETCH_BYTES_CONFIG, 8 * 1024 * 1024);
        props.remove(ConsumerConfig.GROUP_ID_CONFIG);
        return props;
    }

    public static <V extends SpecificRecord> List<V> read(
            Map<String, Object> clientProperties,
            SchemaRegistryClient registry,
            TopicSpec<V> topic,
            String runId,
            Duration timeout) {
        List<V> out = new ArrayList<>();
        forEach(clientProperties, registry, topic, runId, timeout, v -> {
            out.add(v);
            return true;
        });
        return out;
    }

    /**
     * Hands the run's records to {@code handler} one by one while reading (the handler may take its time: no
     * consumer group, so no poll deadline); stops early when it returns false.
     *
     * @return false when the handler stopped the reading
     */
    public static <V extends SpecificRecord> boolean forEach(
            Map<String, Object> clientProperties,
            SchemaRegistryClient registry,
            TopicSpec<V> topic,
            String runId,
            Duration timeout,
            Predicate<V> handler) {
        Map<String, Object> props = consumerProperties(clientProperties);
        try (var consumer = new KafkaConsumer<>(props, new StringDeserializer(), new ByteArrayDeserializer());
                var deserializer = new SpecificAvroDeserializer<>(topic.valueType(), registry)) {
            List<PartitionInfo> partitions = consumer.partitionsFor(topic.name(), timeout);
            if (partitions == null || partitions.isEmpty()) {
                throw new IllegalStateException("topic " + topic.name() + " does not exist on this cluster");
            }
            int partition = Utils.toPositive(Utils.murmur2(runId.getBytes(StandardCharsets.UTF_8))) % partitions.size();
            TopicPartition tp = new TopicPartition(topic.name(), partition);
            consumer.assign(List.of(tp));
            consumer.seekToBeginning(List.of(tp));
            long end = consumer.endOffsets(List.of(tp), timeout).get(tp);
            long lastProgressNs = System.nanoTime();
            long position = consumer.position(tp, timeout);
            while (position < end) {
                for (var record : consumer.poll(Duration.ofMillis(200))) {
                    if (record.offset() >= end) {
                        return true;
                    }
                    if (runId.equals(record.key())
                            && record.value() != null
                            && !handler.test(deserializer.deserialize(topic.name(), record.value()))) {
                        return false;
                    }
                }
                long now = consumer.position(tp, timeout);
                if (now > position) {
                    position = now;
                    lastProgressNs = System.nanoTime();
                } else if (System.nanoTime() - lastProgressNs > timeout.toNanos()) {
                    throw new IllegalStateException("reading " + topic.name() + ": no progress for " + timeout);
                }
            }
        }
        return true;
    }

    /**
     * The latest value of every run in a topic keyed by run id (the compacted run catalogue: every run's
     * RunStarted), in the order first seen; a tombstone removes the run. Reads every partition from the beginning
     * to its end at the start of the call.
     */
    public static <V extends SpecificRecord> Map<String, V> latestPerRun(
            Map<String, Object> clientProperties, SchemaRegistryClient registry, TopicSpec<V> topic, Duration timeout) {
        Map<String, V> latest = new LinkedHashMap<>();
        try (var consumer = new KafkaConsumer<>(
                        consumerProperties(clientProperties), new StringDeserializer(), new ByteArrayDeserializer());
                var deserializer = new SpecificAvroDeserializer<>(topic.valueType(), registry)) {
            List<PartitionInfo> partitions = consumer.partitionsFor(topic.name(), timeout);
            if (partitions == null || partitions.isEmpty()) {
                throw new IllegalStateException("topic " + topic.name() + " does not exist on this cluster");
            }
            List<TopicPartition> tps = partitions.stream()
                    .map(p -> new TopicPartition(topic.name(), p.partition()))
                    .toList();
            consumer.assign(tps);
            consumer.seekToBeginning(tps);
            Map<TopicPartition, Long> end = consumer.endOffsets(tps, timeout);
            long lastProgressNs = System.nanoTime();
            while (tps.stream().anyMatch(tp -> consumer.position(tp, timeout) < end.get(tp))) {
                var records = consumer.poll(Duration.ofMillis(200));
                for (var record : records) {
                    if (record.offset() >= end.get(new TopicPartition(record.topic(), record.partition()))
                            || record.key() == null) {
                        continue;
                    }
                    if (record.value() == null) {
                        latest.remove(record.key());
                    } else {
                        latest.put(record.key(), deserializer.deserialize(topic.name(), record.value()));
                    }
                }
                if (!records.isEmpty()) {
                    lastProgressNs = System.nanoTime();
                } else if (System.nanoTime() - lastProgressNs > timeout.toNanos()) {
                    throw new IllegalStateException("reading " + topic.name() + ": no progress for " + timeout);
                }
            }
        }
        return latest;
    }
}
