package dev.ssdpulse.cli.run;

import dev.ssdpulse.platform.Topics;
import dev.ssdpulse.schemas.topics.TopicSpec;
import org.apache.kafka.clients.admin.Admin;

import java.util.List;
import java.util.Map;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;

/**
 * Creates the ssdpulse topics a command needs when they are missing: replication factor 3 where the cluster
 * has 3 brokers, else as many as it has (1 on the embedded stack); existing topics are left as they are.
 */
public final class TopicSetup {
    private TopicSetup() {
    }

    public static List<String> ensure(Map<String, Object> clientProperties, List<TopicSpec<?>> topics) {
        try (Admin admin = Admin.create(clientProperties)) {
            int brokers = admin.describeCluster().nodes().get(30, TimeUnit.SECONDS).size();
            short replication = (short) Math.max(1, Math.min(3, brokers));
            return Topics.createIfMissing(admin, topics.stream().map(t -> t.toNewTopic(replication)).toList());
        } catch (ExecutionException | java.util.concurrent.TimeoutException e) {
            throw new IllegalStateException("cannot reach Kafka at " + clientProperties.get("bootstrap.servers")
                    + " to create topics: " + e.getMessage()
                    + " (is `ssdpulse stack` running, or --bootstrap-servers right?)", e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted while creating topics", e);
        }
    }
}
