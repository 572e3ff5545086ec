package dev.ssdpulse.platform;

import dev.ssdpulse.schemas.topics.Topics;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collection;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.AdminClientConfig;
import org.apache.kafka.clients.admin.NewTopic;
import org.apache.kafka.common.KafkaFuture;
import org.apache.kafka.common.config.TopicConfig;
import org.apache.kafka.common.errors.ClusterAuthorizationException;
import org.apache.kafka.common.errors.TopicAuthorizationException;
import org.apache.kafka.common.errors.TopicExistsException;

/** Idempotent topic creation. */
public final class TopicCreation {
    private static final Duration TIMEOUT = Duration.ofSeconds(30);

    private TopicCreation() {}

    /**
     * Creates the topics that do not exist yet; existing ones are left as they are (their partitions
     * and configs are not compared).
     *
     * @return the names of the topics this call created
     */
    public static List<String> createIfMissing(String bootstrapServers, Collection<NewTopic> topics) {
        try (Admin admin = Admin.create(Map.of(AdminClientConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrapServers))) {
            return createIfMissing(admin, topics);
        }
    }

    /** Creates the ssdpulse catalogue topics ({@code Topics.all()}) that do not exist yet. */
    public static List<String> createCatalogueIfMissing(String bootstrapServers, short replicationFactor) {
        return createIfMissing(
                bootstrapServers,
                Topics.all().stream().map(t -> t.toNewTopic(replicationFactor)).toList());
    }

    /**
     * The catalogue topics ({@code Topics.all()}) for a cluster: each with the replication factor and, when above 1,
     * {@code min.insync.replicas} set on the topic itself, so it holds whatever the brokers' default.
     */
    public static List<NewTopic> catalogue(int partitions, short replicationFactor, int minInSyncReplicas) {
        return Topics.all().stream()
                .map(t -> {
                    NewTopic topic = t.toNewTopic(partitions, replicationFactor);
                    if (minInSyncReplicas <= 1) {
                        return topic;
                    }
                    Map<String, String> configs = new HashMap<>(topic.configs());
                    configs.put(TopicConfig.MIN_IN_SYNC_REPLICAS_CONFIG, Integer.toString(minInSyncReplicas));
                    return topic.configs(configs);
                })
                .toList();
    }

    public static List<String> createIfMissing(Admin admin, Collection<NewTopic> topics) {
        return create(admin, topics, false);
    }

    /**
     * As {@link #createIfMissing(Admin, Collection)}, but a topic this client is not authorized to create is left
     * alone, not an error: on a secured cluster the admin creates the topics, and a user's later reads and writes
     * of one it may not use fail with Kafka's authorization error naming it.
     */
    public static List<String> createIfMissingWhereAllowed(Admin admin, Collection<NewTopic> topics) {
        return create(admin, topics, true);
    }

    private static List<String> create(Admin admin, Collection<NewTopic> topics, boolean skipUnauthorized) {
        List<String> created = new ArrayList<>();
        if (topics.isEmpty()) {
            return created;
        }
        Map<String, KafkaFuture<Void>> results = admin.createTopics(topics).values();
        for (Map.Entry<String, KafkaFuture<Void>> result : results.entrySet()) {
            try {
                result.getValue().get(TIMEOUT.toMillis(), TimeUnit.MILLISECONDS);
                created.add(result.getKey());
            } catch (ExecutionException e) {
                if (skipUnauthorized
                        && (e.getCause() instanceof TopicAuthorizationException
                                || e.getCause() instanceof ClusterAuthorizationException)) {
                    continue;
                }
                if (!(e.getCause() instanceof TopicExistsException)) {
                    throw new IllegalStateException(
                            "cannot create topic '" + result.getKey() + "': " + e.getCause(), e.getCause());
                }
            } catch (TimeoutException e) {
                throw new IllegalStateException(
                        "creating topic '" + result.getKey() + "' timed out after " + TIMEOUT.toSeconds() + " s", e);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new IllegalStateException("interrupted while creating topic '" + result.getKey() + "'", e);
            }
        }
        return created;
    }
}
