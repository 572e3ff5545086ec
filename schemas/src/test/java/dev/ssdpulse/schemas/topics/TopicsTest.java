package dev.ssdpulse.schemas.topics;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.ssdpulse.schemas.SampleRecords;
import dev.ssdpulse.schemas.avro.GroupEvent;
import dev.ssdpulse.schemas.avro.GroupMembership;
import dev.ssdpulse.schemas.avro.IoStreamRecord;
import dev.ssdpulse.schemas.avro.LatencyScatter;
import dev.ssdpulse.schemas.avro.ResultSetRecord;
import dev.ssdpulse.schemas.avro.RunDeleted;
import dev.ssdpulse.schemas.avro.RunLatency;
import dev.ssdpulse.schemas.avro.RunStarted;
import dev.ssdpulse.schemas.avro.RunSummary;
import dev.ssdpulse.schemas.avro.SmartSample;
import dev.ssdpulse.schemas.avro.SteadyStateVerdict;
import dev.ssdpulse.schemas.avro.WindowMetrics;
import dev.ssdpulse.schemas.avro.WriteAmplification;
import dev.ssdpulse.schemas.avro.WriteVerification;
import dev.ssdpulse.schemas.registry.InMemorySchemaRegistryClient;
import java.time.Instant;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.apache.avro.specific.SpecificRecord;
import org.apache.kafka.clients.admin.NewTopic;
import org.apache.kafka.common.serialization.Serde;
import org.junit.jupiter.api.Test;

class TopicsTest {

    @Test
    void catalogueHoldsEveryContractTopicWithUniqueVersionedNames() {
        assertThat(Topics.all())
                .extracting(TopicSpec::name)
                .containsExactly(
                        "ssdpulse.runs.v1",
                        "ssdpulse.io.v1",
                        "ssdpulse.smart.v1",
                        "ssdpulse.write-verification.v1",
                        "ssdpulse.metrics-1s.v1",
                        "ssdpulse.latency.v1",
                        "ssdpulse.latency-scatter.v1",
                        "ssdpulse.waf.v1",
                        "ssdpulse.steady-state.v1",
                        "ssdpulse.run-summary.v1",
                        "ssdpulse.dead-letter.v1",
                        "ssdpulse.result-sets.v1",
                        "ssdpulse.run-deletions.v1",
                        "ssdpulse.group-events.v1");
        assertThat(Topics.all()).allSatisfy(t -> assertThat(t.name()).matches("ssdpulse\\.[a-z0-9-]+\\.v[0-9]+"));
        // Co-partitioning: every topic keyed by run id has the same partition count.
        assertThat(Topics.all()).extracting(TopicSpec::defaultPartitions).containsOnly(Topics.DEFAULT_PARTITIONS);
    }

    @Test
    void rawInputsAreKeptForeverAndRunsAreCompacted() {
        assertThat(Topics.inputs()).allSatisfy(t -> assertThat(t.retentionMs()).isEqualTo(-1));
        assertThat(Topics.RUNS.cleanupPolicy()).isEqualTo(CleanupPolicy.COMPACT);
        assertThat(Topics.IO.cleanupPolicy()).isEqualTo(CleanupPolicy.DELETE);
        assertThat(Topics.IO.valueType()).isEqualTo(IoStreamRecord.class);
        assertThat(Topics.DEAD_LETTER.avroValue()).isFalse();
        assertThat(Topics.RUNS.avroValue()).isTrue();
    }

    @Test
    void buildsNewTopicsForTheAdminClient() {
        NewTopic runs = Topics.RUNS.toNewTopic((short) 3);
        assertThat(runs.name()).isEqualTo("ssdpulse.runs.v1");
        assertThat(runs.numPartitions()).isEqualTo(Topics.DEFAULT_PARTITIONS);
        assertThat(runs.replicationFactor()).isEqualTo((short) 3);
        assertThat(runs.configs())
                .containsExactlyInAnyOrderEntriesOf(Map.of("cleanup.policy", "compact", "retention.ms", "-1"));
        NewTopic metrics = Topics.METRICS_1S.toNewTopic(2, (short) 1);
        assertThat(metrics.numPartitions()).isEqualTo(2);
        assertThat(metrics.configs()).containsEntry("retention.ms", Long.toString(Topics.DERIVED_RETENTION_MS));
        assertThatThrownBy(() -> Topics.IO.toNewTopic((short) 0)).hasMessageContaining("replication factor");
    }

    @Test
    void looksTopicsUpByName() {
        assertThat(Topics.byName("ssdpulse.io.v1")).containsSame(Topics.IO);
        assertThat(Topics.byName("ssdpulse.io.v2")).isEmpty();
        assertThatThrownBy(() -> Topics.require("ssdpulse.iops.v1"))
                .hasMessageContaining("ssdpulse.iops.v1")
                .hasMessageContaining("ssdpulse.io.v1");
        assertThat(Topics.SMART.valueSubject()).isEqualTo("ssdpulse.smart.v1-value");
    }

    @Test
    void valueSerdesRoundTripEveryAvroTopic() {
        InMemorySchemaRegistryClient registry = new InMemorySchemaRegistryClient();
        Map<Class<?>, SpecificRecord> samples = new HashMap<>(Map.of(
                RunStarted.class, SampleRecords.runStarted(),
                IoStreamRecord.class, SampleRecords.ioStream(SampleRecords.ioBatch()),
                SmartSample.class, SampleRecords.smartSample(),
                WindowMetrics.class, SampleRecords.windowMetrics(),
                RunLatency.class, SampleRecords.runLatency(),
                WriteAmplification.class, SampleRecords.writeAmplification(),
                SteadyStateVerdict.class, SampleRecords.steadyStateVerdict(),
                RunSummary.class, SampleRecords.runSummary(),
                ResultSetRecord.class, new ResultSetRecord("w10s", SampleRecords.windowMetrics()),
                RunDeleted.class, new RunDeleted("run-1", Instant.ofEpochMilli(1L), null)));
        samples.put(LatencyScatter.class, SampleRecords.latencyScatter());
        samples.put(WriteVerification.class, SampleRecords.writeVerification());
        samples.put(
                GroupEvent.class,
                new GroupEvent(
                        "run-1",
                        new GroupMembership("lab", "host-a nvme0n1", "host-a", Instant.ofEpochSecond(1_796_010_480L)),
                        SampleRecords.ioStream(SampleRecords.ioBatch())));
        for (TopicSpec<?> topic : Topics.all()) {
            roundTrip(topic, registry, samples);
        }
        assertThat(registry.listSubjects())
                .hasSize(13)
                .allSatisfy(s -> assertThat(s).endsWith("-value"));
    }

    @SuppressWarnings("unchecked")
    private static <V> void roundTrip(
            TopicSpec<V> topic, InMemorySchemaRegistryClient registry, Map<Class<?>, SpecificRecord> samples) {
        V value = topic.avroValue() ? (V) samples.get(topic.valueType()) : (V) new byte[] {1, 2, 3};
        assertThat(value).as(topic.name()).isNotNull();
        try (Serde<V> serde = topic.valueSerde(registry, Map.of())) {
            byte[] bytes = serde.serializer().serialize(topic.name(), value);
            assertThat(serde.deserializer().deserialize(topic.name(), bytes))
                    .as(topic.name())
                    .isEqualTo(value);
        }
        try (Serde<String> keys = topic.keySerde()) {
            assertThat(keys.serializer().serialize(topic.name(), "run-1")).containsExactly('r', 'u', 'n', '-', '1');
        }
    }

    @Test
    void rejectsInvalidSpecs() {
        assertThatThrownBy(() -> new TopicSpec<>("t", "k", String.class, 1, CleanupPolicy.DELETE, -1, "d"))
                .hasMessageContaining("java.lang.String");
        assertThatThrownBy(() -> new TopicSpec<>("t", "k", byte[].class, 0, CleanupPolicy.DELETE, -1, "d"))
                .hasMessageContaining("defaultPartitions");
        assertThatThrownBy(() -> new TopicSpec<>("t", "k", byte[].class, 1, CleanupPolicy.DELETE, -2, "d"))
                .hasMessageContaining("retentionMs");
        assertThat(List.of(CleanupPolicy.values()))
                .extracting(CleanupPolicy::configValue)
                .containsExactly("delete", "compact");
    }
}
