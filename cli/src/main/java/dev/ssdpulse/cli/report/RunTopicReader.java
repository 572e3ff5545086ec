package dev.ssdpulse.cli.report;

import dev.ssdpulse.schemas.registry.SchemaRegistryClient;
import dev.ssdpulse.schemas.serde.SpecificAvroDeserializer;
import dev.ssdpulse.schemas.topics.TopicSpec;
import org.apache.avro.specific.SpecificRecord;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.common.PartitionInfo;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.serialization.ByteArrayDeserializer;
import org.apache.kafka.common.serialization.StringDeserializer;
import org.apache.kafka.common.utils.Utils;

import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * Reads one run's records of a topic from the beginning to the current end, without a consumer group. Every
 * ssdpulse topic is keyed by run id with Kafka's default partitioner, so only the run's partition is read
 * (murmur2 of the key, as the producer chose it). Committed data only (read_committed), as the analytics
 * write transactionally.
 */
public final class RunTopicReader {
    private final Map<String, Object> clientProperties;
    private final SchemaRegistryClient registry;

    public RunTopicReader(Map<String, Object> clientProperties, SchemaRegistryClient registry) {
        this.clientProperties = clientProperties;
        this.registry = registry;
    }

    /**
     * The consumer's configuration: the client properties unchanged (security settings included), reading
     * committed data only, without a group (partitions are assigned, offsets never committed).
     */
    public static Map<String, Object> consumerProperties(Map<String, Object> clientProperties) {
        Map<String, Object> props = new HashMap<>(clientProperties);
        props.put(ConsumerConfig.ISOLATION_LEVEL_CONFIG, "read_committed");
        props.put(ConsumerConfig.ENABLE_AUTO_COMMIT_CONFIG, false);
        props.remove(ConsumerConfig.GROUP_ID_CONFIG);
        return props;
    }

    public <V extends SpecificRecord> List<V> read(TopicSpec<V> topic, String runId, Duration timeout) {
        Map<String, Object> props = consumerProperties(clientProperties);
        List<V> out = new ArrayList<>();
        try (var consumer = new KafkaConsumer<>(props, new StringDeserializer(), new ByteArrayDeserializer());
             var deserializer = new SpecificAvroDeserializer<>(topic.valueType(), registry)) {
            List<PartitionInfo> partitions = consumer.partitionsFor(topic.name(), timeout);
            if (partitions == null || partitions.isEmpty()) {
                throw new IllegalStateException("topic " + topic.name() + " does not exist on this cluster");
            }
            byte[] key = runId.getBytes(StandardCharsets.UTF_8);
            int partition = Utils.toPositive(Utils.murmur2(key)) % partitions.size();
            TopicPartition tp = new TopicPartition(topic.name(), partition);
            consumer.assign(List.of(tp));
            consumer.seekToBeginning(List.of(tp));
            long end = consumer.endOffsets(List.of(tp), timeout).get(tp);
            long deadline = System.nanoTime() + timeout.toNanos();
            while (consumer.position(tp, timeout) < end) {
                if (System.nanoTime() > deadline) {
                    throw new IllegalStateException("reading " + topic.name() + " timed out after " + timeout);
                }
                for (var record : consumer.poll(Duration.ofMillis(200))) {
                    if (runId.equals(record.key()) && record.value() != null) {
                        out.add(deserializer.deserialize(topic.name(), record.value()));
                    }
                }
            }
        }
        return out;
    }
}
