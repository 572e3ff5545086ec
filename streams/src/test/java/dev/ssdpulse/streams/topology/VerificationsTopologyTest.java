package dev.ssdpulse.streams.topology;

import static org.assertj.core.api.Assertions.assertThat;

import dev.ssdpulse.schemas.SampleRecords;
import dev.ssdpulse.schemas.avro.RunDeleted;
import dev.ssdpulse.schemas.avro.WriteVerification;
import dev.ssdpulse.schemas.topics.Topics;
import java.nio.file.Path;
import java.time.Instant;
import org.apache.kafka.common.serialization.ByteArraySerializer;
import org.apache.kafka.common.serialization.StringSerializer;
import org.apache.kafka.streams.TestInputTopic;
import org.apache.kafka.streams.state.KeyValueStore;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Power-loss verifications in the live topology, on the TopologyTestDriver. */
class VerificationsTopologyTest {
    @TempDir
    Path stateDir;

    @Test
    void theLatestVerificationOfARunIsKeptBadRecordsAreDeadLetteredAndADeletedRunLosesIt() {
        try (TopologyHarness h = new TopologyHarness(TopologyHarness.testConfig(stateDir))) {
            TestInputTopic<String, WriteVerification> verifications = h.driver.createInputTopic(
                    Topics.WRITE_VERIFICATION.name(),
                    new StringSerializer(),
                    h.serdes.value(WriteVerification.class).serializer());
            TestInputTopic<String, byte[]> raw = h.driver.createInputTopic(
                    Topics.WRITE_VERIFICATION.name(), new StringSerializer(), new ByteArraySerializer());
            TestInputTopic<String, RunDeleted> deletions = h.driver.createInputTopic(
                    Topics.RUN_DELETIONS.name(),
                    new StringSerializer(),
                    h.serdes.value(RunDeleted.class).serializer());
            KeyValueStore<String, WriteVerification> store = h.driver.getKeyValueStore(Names.VERIFICATION_STORE);

            WriteVerification first = SampleRecords.writeVerification();
            first.setRunId("r1");
            WriteVerification second =
                    WriteVerification.newBuilder(first).setLostWrites(0L).build();
            verifications.pipeInput("r1", first);
            verifications.pipeInput("r1", second);
            assertThat(store.get("r1")).isEqualTo(second);
            raw.pipeInput("r1", new byte[] {0, 0, 0, 0, 1, 2});
            assertThat(store.get("r1")).isEqualTo(second);
            KeyValueStore<String, Long> dead = h.driver.getKeyValueStore(Names.VERIFICATIONS_DEAD_LETTER_COUNT_STORE);
            assertThat(dead.get(Topics.WRITE_VERIFICATION.name())).isEqualTo(1L);

            deletions.pipeInput("r1", new RunDeleted("r1", Instant.ofEpochMilli(1L), null));
            assertThat(store.get("r1")).isNull();
            verifications.pipeInput("r1", first);
            assertThat(store.get("r1"))
                    .as("a deleted run takes no new verification")
                    .isNull();
        }
    }
}
