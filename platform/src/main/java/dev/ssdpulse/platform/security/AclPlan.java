package dev.ssdpulse.platform.security;

import dev.ssdpulse.schemas.topics.TopicSpec;
import dev.ssdpulse.schemas.topics.Topics;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.stream.Collectors;
import org.apache.kafka.common.acl.AccessControlEntry;
import org.apache.kafka.common.acl.AclBinding;
import org.apache.kafka.common.acl.AclOperation;
import org.apache.kafka.common.acl.AclPermissionType;
import org.apache.kafka.common.resource.PatternType;
import org.apache.kafka.common.resource.ResourcePattern;
import org.apache.kafka.common.resource.ResourceType;

/**
 * Who may do what on a secured stack's Kafka cluster: the ACLs of each {@link StackUser} (the admin is a super user
 * and needs none). Least privilege per role, from the topic catalogue:
 * <ul>
 *   <li>producer: write the raw topics {@link Topics#inputs()} (idempotent writes need nothing more since Kafka 3.0:
 *       WRITE on a topic implies them), and read them, which {@code play} does to re-publish a stored run. Nothing
 *       derived, no group, no transaction.</li>
 *   <li>analytics: read the raw topics, the run deletions and the result sets; write every derived topic; and
 *       everything under its application id prefix: consumer groups, internal topics (changelogs, created by
 *       Kafka Streams), transactional ids (exactly-once); plus a replay's own output topics
 *       ({@value #REPLAY_TOPIC_PREFIX}...) and the result-set writer's transactional ids ({@code replay --as}).</li>
 *   <li>reader: read the run catalogue and the derived topics, and its own consumer groups
 *       ({@value #READER_GROUP_PREFIX}...). No raw I/O events, no write anywhere.</li>
 * </ul>
 * {@code runs delete} and {@code runs retention} are the admin's: they change what others see.
 */
public final class AclPlan {
    /** Consumer groups a reader may use (the report and runs commands read without a group). */
    public static final String READER_GROUP_PREFIX = "reader-";
    /** Output topics of a replay's run-once application (created, read back and deleted by the replay). */
    public static final String REPLAY_TOPIC_PREFIX = "ssdpulse.replay.";
    /** Transactional ids of {@code replay --as}'s result-set writer. */
    public static final String RESULT_SET_TRANSACTION_PREFIX = "ssdpulse-result-set-";

    private AclPlan() {}

    /** Topics produced from the raw ones by the analytics (every catalogue topic that is not an input). */
    public static List<TopicSpec<?>> derivedTopics() {
        List<TopicSpec<?>> derived = new ArrayList<>(Topics.all());
        derived.removeAll(Topics.inputs());
        derived.remove(Topics.RUN_DELETIONS);
        return derived;
    }

    /**
     * Every user's ACLs.
     *
     * @param analyticsApplicationIdPrefix the analytics' Kafka Streams application id, or a prefix of the ids in use
     *                                     ({@code ssdpulse-analytics} covers the default id and replays' derived ids)
     */
    public static Map<StackUser, List<AclBinding>> plan(String analyticsApplicationIdPrefix) {
        if (analyticsApplicationIdPrefix == null || analyticsApplicationIdPrefix.isBlank()) {
            throw new IllegalArgumentException("the analytics application id prefix must not be empty: an empty "
                    + "prefix would grant the analytics user every group, transaction and topic");
        }
        return Map.of(
                StackUser.ADMIN, List.of(),
                StackUser.PRODUCER, producer(),
                StackUser.ANALYTICS, analytics(analyticsApplicationIdPrefix),
                StackUser.READER, reader());
    }

    /** Every binding of the plan, for one createAcls call. */
    public static List<AclBinding> all(String analyticsApplicationIdPrefix) {
        return plan(analyticsApplicationIdPrefix).values().stream()
                .flatMap(List::stream)
                .collect(Collectors.toList());
    }

    private static List<AclBinding> producer() {
        List<AclBinding> acls = new ArrayList<>();
        for (TopicSpec<?> t : Topics.inputs()) {
            acls.add(allow(StackUser.PRODUCER, topic(t), AclOperation.WRITE));
            acls.add(allow(StackUser.PRODUCER, topic(t), AclOperation.READ));
            acls.add(allow(StackUser.PRODUCER, topic(t), AclOperation.DESCRIBE));
        }
        return acls;
    }

    private static List<AclBinding> analytics(String appIdPrefix) {
        List<AclBinding> acls = new ArrayList<>();
        for (TopicSpec<?> t : Topics.inputs()) {
            acls.add(allow(StackUser.ANALYTICS, topic(t), AclOperation.READ));
            acls.add(allow(StackUser.ANALYTICS, topic(t), AclOperation.DESCRIBE));
        }
        acls.add(allow(StackUser.ANALYTICS, topic(Topics.RUN_DELETIONS), AclOperation.READ));
        acls.add(allow(StackUser.ANALYTICS, topic(Topics.RUN_DELETIONS), AclOperation.DESCRIBE));
        for (TopicSpec<?> t : derivedTopics()) {
            // read too: the views are rebuilt from the result sets, and replay reads back what it wrote
            acls.add(allow(StackUser.ANALYTICS, topic(t), AclOperation.WRITE));
            acls.add(allow(StackUser.ANALYTICS, topic(t), AclOperation.READ));
            acls.add(allow(StackUser.ANALYTICS, topic(t), AclOperation.DESCRIBE));
        }
        ResourcePattern internalTopics = new ResourcePattern(ResourceType.TOPIC, appIdPrefix, PatternType.PREFIXED);
        // Kafka Streams creates, reads, writes and (on reset) deletes its changelog and repartition topics
        acls.add(allow(StackUser.ANALYTICS, internalTopics, AclOperation.ALL));
        acls.add(allow(
                StackUser.ANALYTICS,
                new ResourcePattern(ResourceType.TOPIC, REPLAY_TOPIC_PREFIX, PatternType.PREFIXED),
                AclOperation.ALL));
        acls.add(allow(
                StackUser.ANALYTICS,
                new ResourcePattern(ResourceType.GROUP, appIdPrefix, PatternType.PREFIXED),
                AclOperation.ALL));
        acls.add(allow(
                StackUser.ANALYTICS,
                new ResourcePattern(ResourceType.TRANSACTIONAL_ID, appIdPrefix, PatternType.PREFIXED),
                AclOperation.ALL));
        acls.add(allow(
                StackUser.ANALYTICS,
                new ResourcePattern(ResourceType.TRANSACTIONAL_ID, RESULT_SET_TRANSACTION_PREFIX, PatternType.PREFIXED),
                AclOperation.ALL));
        return acls;
    }

    private static List<AclBinding> reader() {
        List<AclBinding> acls = new ArrayList<>();
        List<TopicSpec<?>> readable = new ArrayList<>(derivedTopics());
        readable.add(0, Topics.RUNS);
        for (TopicSpec<?> t : readable) {
            acls.add(allow(StackUser.READER, topic(t), AclOperation.READ));
            acls.add(allow(StackUser.READER, topic(t), AclOperation.DESCRIBE));
        }
        acls.add(allow(
                StackUser.READER,
                new ResourcePattern(ResourceType.GROUP, READER_GROUP_PREFIX, PatternType.PREFIXED),
                AclOperation.READ));
        return acls;
    }

    private static ResourcePattern topic(TopicSpec<?> t) {
        return new ResourcePattern(ResourceType.TOPIC, t.name(), PatternType.LITERAL);
    }

    private static AclBinding allow(StackUser user, ResourcePattern pattern, AclOperation operation) {
        return new AclBinding(
                pattern, new AccessControlEntry(user.principal(), "*", operation, AclPermissionType.ALLOW));
    }
}
