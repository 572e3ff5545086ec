package dev.ssdpulse.platform.kafka;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.AdminClientConfig;
import org.apache.kafka.clients.admin.ListTopicsOptions;
import org.apache.kafka.clients.admin.TopicDescription;
import org.apache.kafka.common.Node;
import org.apache.kafka.common.TopicPartitionInfo;

/** For fault tests on a cluster without client security: waiting until a node that came back has caught up. */
public final class Replicas {
    private Replicas() {}

    /**
     * Blocks until every partition of every topic has all its replicas in sync, as after a node came back
     * and caught up: a later fault then finds the usual redundancy.
     *
     * @throws IllegalStateException naming the partitions still behind after the timeout
     */
    public static void awaitAllInSync(String bootstrapServers, Duration timeout) throws InterruptedException {
        long deadlineNs = System.nanoTime() + timeout.toNanos();
        List<String> behind = List.of("(not described yet)");
        try (Admin admin = Admin.create(Map.of(
                AdminClientConfig.BOOTSTRAP_SERVERS_CONFIG,
                bootstrapServers,
                AdminClientConfig.REQUEST_TIMEOUT_MS_CONFIG,
                "2000",
                AdminClientConfig.DEFAULT_API_TIMEOUT_MS_CONFIG,
                "3000"))) {
            while (true) {
                try {
                    Set<String> topics = admin.listTopics(new ListTopicsOptions().listInternal(true))
                            .names()
                            .get(5, TimeUnit.SECONDS);
                    Map<String, TopicDescription> descriptions =
                            admin.describeTopics(topics).allTopicNames().get(5, TimeUnit.SECONDS);
                    behind = new ArrayList<>();
                    for (TopicDescription topic : descriptions.values()) {
                        for (TopicPartitionInfo partition : topic.partitions()) {
                            if (partition.isr().size() < partition.replicas().size()) {
                                behind.add(topic.name() + "-" + partition.partition() + " (isr "
                                        + partition.isr().stream().map(Node::id).toList() + " of replicas "
                                        + partition.replicas().stream()
                                                .map(Node::id)
                                                .toList() + ")");
                            }
                        }
                    }
                    if (behind.isEmpty()) {
                        return;
                    }
                } catch (ExecutionException | TimeoutException e) {
                    behind = List.of("(cannot describe topics: " + e + ")");
                }
                if (System.nanoTime() > deadlineNs) {
                    throw new IllegalStateException(
                            "replicas not in sync after " + timeout.toSeconds() + " s: " + behind);
                }
                Thread.sleep(200);
            }
        }
    }
}
