package dev.ssdpulse.streams.topology;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowable;

import dev.ssdpulse.schemas.registry.HttpSchemaRegistryClient;
import dev.ssdpulse.schemas.registry.SchemaRegistryException;
import dev.ssdpulse.schemas.topics.Topics;
import dev.ssdpulse.streams.app.AnalyticsApp;
import dev.ssdpulse.streams.app.AnalyticsConfig;
import java.net.ServerSocket;
import java.nio.ByteBuffer;
import java.nio.file.Path;
import java.time.Instant;
import org.apache.kafka.common.errors.SerializationException;
import org.apache.kafka.common.serialization.ByteArrayDeserializer;
import org.apache.kafka.common.serialization.ByteArraySerializer;
import org.apache.kafka.common.serialization.StringDeserializer;
import org.apache.kafka.common.serialization.StringSerializer;
import org.apache.kafka.streams.TopologyTestDriver;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A registry that cannot be asked is not the record's fault: the record is not dead-lettered (it may be
 * valid); after a few attempts processing stops, so nothing is lost. Only "not found" makes poison.
 */
class RegistryOutageTest {
    @TempDir
    Path stateDir;

    @Test
    void anUnreachableRegistryStopsProcessingInsteadOfDeadLetteringTheRecord() throws Exception {
        AnalyticsConfig config = TopologyHarness.testConfig(stateDir);
        int closedPort;
        try (ServerSocket s = new ServerSocket(0)) {
            closedPort = s.getLocalPort();
        }
        try (HttpSchemaRegistryClient unreachable = new HttpSchemaRegistryClient("http://127.0.0.1:" + closedPort);
                TopologyTestDriver driver = new TopologyTestDriver(
                        AnalyticsTopology.build(
                                config.applicationId(),
                                config.analysisSettings(),
                                config.heartbeatTimeout(),
                                new AnalyticsSerdes(unreachable)),
                        AnalyticsApp.streamsProperties(config),
                        Instant.EPOCH)) {
            var io = driver.createInputTopic(Topics.IO.name(), new StringSerializer(), new ByteArraySerializer());
            long t0 = System.nanoTime();
            Throwable thrown = catchThrowable(() -> io.pipeInput(
                    "run-1",
                    ByteBuffer.allocate(9).put((byte) 0).putInt(17).putInt(0).array()));
            assertThat(thrown).as("processing stops").isNotNull();
            assertThat(chain(thrown)).contains("schema registry unavailable").contains("not dead-lettered");
            boolean outage = false;
            for (Throwable c = thrown; c != null; c = c.getCause()) {
                outage |= c instanceof RegistryUnavailableException;
            }
            assertThat(outage)
                    .as("typed as an outage, which AnalyticsApp answers by replacing the thread")
                    .isTrue();
            assertThat(System.nanoTime() - t0).as("retried with a pause").isGreaterThan(1_000_000_000L);
            assertThat(driver.createOutputTopic(
                                    Topics.DEAD_LETTER.name(), new StringDeserializer(), new ByteArrayDeserializer())
                            .readRecordsToList())
                    .isEmpty();
            assertThat(driver.<String, Long>getKeyValueStore(Names.IO_DEAD_LETTER_COUNT_STORE)
                            .get(Topics.IO.name()))
                    .isNull();
        }
    }

    @Test
    void onlyRegistryFailuresThatSayNothingAboutTheRecordAreUnavailability() {
        assertThat(DecodeOrDeadLetterProcessor.registryUnavailable(wrapped(
                        new SchemaRegistryException(SchemaRegistryException.NO_HTTP_STATUS, -1, "connection refused"))))
                .isTrue();
        assertThat(DecodeOrDeadLetterProcessor.registryUnavailable(
                        wrapped(new SchemaRegistryException(503, 50301, "unavailable"))))
                .isTrue();
        assertThat(DecodeOrDeadLetterProcessor.registryUnavailable(
                        wrapped(new SchemaRegistryException(401, 401, "unauthorized"))))
                .isTrue();
        assertThat(DecodeOrDeadLetterProcessor.registryUnavailable(wrapped(
                        new SchemaRegistryException(404, SchemaRegistryException.SCHEMA_NOT_FOUND, "not found"))))
                .isFalse();
        assertThat(DecodeOrDeadLetterProcessor.registryUnavailable(wrapped(
                        new SchemaRegistryException(200, SchemaRegistryException.INVALID_SCHEMA, "unparsable schema"))))
                .isFalse();
        assertThat(DecodeOrDeadLetterProcessor.registryUnavailable(new SerializationException("Unknown magic byte")))
                .isFalse();
    }

    private static RuntimeException wrapped(SchemaRegistryException e) {
        return new SerializationException("Could not fetch schema id 17", e);
    }

    private static String chain(Throwable t) {
        StringBuilder b = new StringBuilder();
        for (Throwable c = t; c != null; c = c.getCause()) {
            b.append(c).append(" | ");
        }
        return b.toString();
    }
}
