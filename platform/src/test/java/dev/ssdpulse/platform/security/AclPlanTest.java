package dev.ssdpulse.platform.security;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.ssdpulse.schemas.topics.TopicSpec;
import dev.ssdpulse.schemas.topics.Topics;
import java.util.List;
import java.util.Map;
import org.apache.kafka.common.acl.AclBinding;
import org.apache.kafka.common.acl.AclOperation;
import org.apache.kafka.common.acl.AclPermissionType;
import org.apache.kafka.common.resource.PatternType;
import org.apache.kafka.common.resource.ResourceType;
import org.junit.jupiter.api.Test;

/** The plan read as Kafka's authorizer reads it: LITERAL and PREFIXED patterns, ALL implying every operation. */
class AclPlanTest {
    private static final String PREFIX = "ssdpulse-analytics";
    private final Map<StackUser, List<AclBinding>> plan = AclPlan.plan(PREFIX);

    @Test
    void theProducerWritesAndReadsTheRawTopicsAndNothingElse() {
        for (TopicSpec<?> raw : Topics.inputs()) {
            assertThat(allows(StackUser.PRODUCER, ResourceType.TOPIC, raw.name(), AclOperation.WRITE))
                    .as(raw.name())
                    .isTrue();
            assertThat(allows(StackUser.PRODUCER, ResourceType.TOPIC, raw.name(), AclOperation.READ))
                    .as("play re-publishes a stored run: " + raw.name())
                    .isTrue();
        }
        for (TopicSpec<?> derived : AclPlan.derivedTopics()) {
            assertThat(allows(StackUser.PRODUCER, ResourceType.TOPIC, derived.name(), AclOperation.WRITE))
                    .isFalse();
            assertThat(allows(StackUser.PRODUCER, ResourceType.TOPIC, derived.name(), AclOperation.READ))
                    .isFalse();
        }
        assertThat(allows(StackUser.PRODUCER, ResourceType.TOPIC, Topics.RUN_DELETIONS.name(), AclOperation.WRITE))
                .isFalse();
        assertThat(plan.get(StackUser.PRODUCER)).allSatisfy(b -> {
            assertThat(b.pattern().resourceType()).isEqualTo(ResourceType.TOPIC);
            assertThat(b.pattern().patternType()).isEqualTo(PatternType.LITERAL);
        });
    }

    @Test
    void theAnalyticsReadRawWriteDerivedAndOwnTheirApplicationIdsResources() {
        for (TopicSpec<?> raw : Topics.inputs()) {
            assertThat(allows(StackUser.ANALYTICS, ResourceType.TOPIC, raw.name(), AclOperation.READ))
                    .isTrue();
            assertThat(allows(StackUser.ANALYTICS, ResourceType.TOPIC, raw.name(), AclOperation.WRITE))
                    .as("the analytics never rewrite the event-sourcing log: " + raw.name())
                    .isFalse();
        }
        for (TopicSpec<?> derived : AclPlan.derivedTopics()) {
            assertThat(allows(StackUser.ANALYTICS, ResourceType.TOPIC, derived.name(), AclOperation.WRITE))
                    .isTrue();
        }
        assertThat(allows(StackUser.ANALYTICS, ResourceType.TOPIC, Topics.RUN_DELETIONS.name(), AclOperation.READ))
                .isTrue();
        assertThat(allows(StackUser.ANALYTICS, ResourceType.TOPIC, Topics.RUN_DELETIONS.name(), AclOperation.WRITE))
                .isFalse();
        String changelog = PREFIX + "-ssdpulse-run-state-store-changelog";
        assertThat(allows(StackUser.ANALYTICS, ResourceType.TOPIC, changelog, AclOperation.CREATE))
                .isTrue();
        assertThat(allows(StackUser.ANALYTICS, ResourceType.GROUP, PREFIX, AclOperation.READ))
                .isTrue();
        assertThat(allows(StackUser.ANALYTICS, ResourceType.GROUP, PREFIX + "-replay-1234", AclOperation.READ))
                .isTrue();
        assertThat(allows(StackUser.ANALYTICS, ResourceType.TRANSACTIONAL_ID, PREFIX + "-0_1", AclOperation.WRITE))
                .isTrue();
        assertThat(allows(
                        StackUser.ANALYTICS,
                        ResourceType.TRANSACTIONAL_ID,
                        "ssdpulse-result-set-42",
                        AclOperation.WRITE))
                .isTrue();
        assertThat(allows(
                        StackUser.ANALYTICS,
                        ResourceType.TOPIC,
                        "ssdpulse.replay.1234.ssdpulse.run-summary.v1",
                        AclOperation.DELETE))
                .as("a replay deletes its output topics")
                .isTrue();
        assertThat(allows(StackUser.ANALYTICS, ResourceType.GROUP, "other-app", AclOperation.READ))
                .isFalse();
        assertThat(allows(StackUser.ANALYTICS, ResourceType.CLUSTER, "kafka-cluster", AclOperation.ALTER))
                .isFalse();
    }

    @Test
    void theReaderReadsTheCatalogueAndDerivedTopicsAndWritesNothing() {
        assertThat(allows(StackUser.READER, ResourceType.TOPIC, Topics.RUNS.name(), AclOperation.READ))
                .isTrue();
        assertThat(allows(StackUser.READER, ResourceType.TOPIC, Topics.RUN_SUMMARY.name(), AclOperation.READ))
                .isTrue();
        assertThat(allows(StackUser.READER, ResourceType.TOPIC, Topics.METRICS_1S.name(), AclOperation.READ))
                .isTrue();
        assertThat(allows(StackUser.READER, ResourceType.TOPIC, Topics.IO.name(), AclOperation.READ))
                .as("per-I/O events are not the reader's")
                .isFalse();
        assertThat(allows(StackUser.READER, ResourceType.TOPIC, Topics.SMART.name(), AclOperation.READ))
                .isFalse();
        assertThat(allows(StackUser.READER, ResourceType.GROUP, "reader-dashboard", AclOperation.READ))
                .isTrue();
        assertThat(allows(StackUser.READER, ResourceType.GROUP, PREFIX, AclOperation.READ))
                .isFalse();
        assertThat(plan.get(StackUser.READER))
                .allSatisfy(b -> assertThat(b.entry().operation()).isIn(AclOperation.READ, AclOperation.DESCRIBE));
    }

    @Test
    void onlyAllowsAndTheAdminNeedsNone() {
        assertThat(plan.get(StackUser.ADMIN)).isEmpty();
        assertThat(AclPlan.all(PREFIX)).allSatisfy(b -> {
            assertThat(b.entry().permissionType()).isEqualTo(AclPermissionType.ALLOW);
            assertThat(b.entry().host()).isEqualTo("*");
        });
        assertThat(AclPlan.derivedTopics())
                .doesNotContainAnyElementsOf(Topics.inputs())
                .doesNotContain(Topics.RUN_DELETIONS)
                .contains(Topics.RUN_SUMMARY, Topics.RESULT_SETS);
    }

    @Test
    void anEmptyApplicationIdPrefixIsRefusedSinceItWouldMatchEverything() {
        assertThatThrownBy(() -> AclPlan.plan(" "))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("every group, transaction and topic");
    }

    private boolean allows(StackUser user, ResourceType type, String name, AclOperation operation) {
        return plan.get(user).stream()
                .anyMatch(b -> b.entry().principal().equals(user.principal())
                        && b.pattern().resourceType() == type
                        && (b.pattern().patternType() == PatternType.LITERAL
                                ? b.pattern().name().equals(name)
                                : name.startsWith(b.pattern().name()))
                        && (b.entry().operation() == operation || b.entry().operation() == AclOperation.ALL));
    }
}
