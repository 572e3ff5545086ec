package dev.ssdpulse.cli.reliability;

import java.nio.charset.StandardCharsets;
import java.util.Map;
import java.util.concurrent.ExecutionException;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.OffsetSpec;
import org.apache.kafka.clients.consumer.OffsetAndMetadata;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.utils.Utils;

/** Offsets a test waits on: where a run's partition ends, and what a Streams application committed. */
final class KafkaAdmin implements AutoCloseable {
    private final Admin admin;

    KafkaAdmin(String bootstrapServers) {
        this.admin = Admin.create(Map.of("bootstrap.servers", bootstrapServers));
    }

    /** The partition a run's records go to (the producer's default partitioner on the run id key). */
    static TopicPartition partitionOf(String topic, int partitions, String runId) {
        return new TopicPartition(
                topic, Utils.toPositive(Utils.murmur2(runId.getBytes(StandardCharsets.UTF_8))) % partitions);
    }

    long endOffset(TopicPartition tp) throws ExecutionException, InterruptedException {
        return admin.listOffsets(Map.of(tp, OffsetSpec.latest()))
                .partitionResult(tp)
                .get()
                .offset();
    }

    /** The group's committed offset of a partition, -1 if none. */
    long committed(String groupId, TopicPartition tp) throws ExecutionException, InterruptedException {
        OffsetAndMetadata o = admin.listConsumerGroupOffsets(groupId)
                .partitionsToOffsetAndMetadata()
                .get()
                .get(tp);
        return o == null ? -1 : o.offset();
    }

    @Override
    public void close() {
        admin.close();
    }
}
