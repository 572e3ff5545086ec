package dev.ssdpulse.cli.run;

import dev.ssdpulse.platform.TopicCreation;
import dev.ssdpulse.schemas.topics.TopicSpec;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import org.apache.kafka.clients.admin.Admin;

/**
 * Creates the ssdpulse topics a command needs when they are missing: with the replication factor that
 * {@code -X replication.factor=N} sets, else 3 where the cluster has 3 brokers, else as many as it has (1 on the
 * embedded stack); existing topics are left as they are.
 */
public final class TopicSetup {
    private TopicSetup() {}

    public static List<String> ensure(Map<String, Object> clientProperties, List<TopicSpec<?>> topics) {
        try (Admin admin = Admin.create(clientProperties)) {
            // On a secured cluster a user sees only the topics it may describe, and may create none: the ones it
            // sees are there, the others are the cluster admin's to create (a secured stack creates them all), and
            // whatever the command then does with them fails with Kafka's own authorization error if it may not.
            Set<String> visible = admin.listTopics().names().get(30, TimeUnit.SECONDS);
            List<TopicSpec<?>> missing =
                    topics.stream().filter(t -> !visible.contains(t.name())).toList();
            if (missing.isEmpty()) {
                return List.of();
            }
            topics = missing;
            // an explicit replication.factor (-X, the Streams setting for its internal topics) holds for these topics
            // too; without one, up to 3 replicas as the cluster has brokers now (at a cluster's start some may not
            // have registered yet: a deployment sets it, and creation then fails until they have)
            Object configured = clientProperties.get("replication.factor");
            short replication;
            if (configured != null && Short.parseShort(configured.toString().trim()) > 0) {
                replication = Short.parseShort(configured.toString().trim());
            } else {
                int brokers = admin.describeCluster()
                        .nodes()
                        .get(30, TimeUnit.SECONDS)
                        .size();
                replication = (short) Math.max(1, Math.min(3, brokers));
            }
            return TopicCreation.createIfMissingWhereAllowed(
                    admin, topics.stream().map(t -> t.toNewTopic(replication)).toList());
        } catch (ExecutionException | TimeoutException e) {
            throw new IllegalStateException(
                    "cannot reach Kafka at " + clientProperties.get("bootstrap.servers")
                            + " to create topics: " + e.getMessage()
                            + " (is `ssdpulse stack` running, or --bootstrap-servers right?)",
                    e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted while creating topics", e);
        }
    }
}
