package dev.ssdpulse.streams.app;

import static org.assertj.core.api.Assertions.assertThat;

import dev.ssdpulse.schemas.registry.SchemaRegistryException;
import dev.ssdpulse.streams.topology.RegistryUnavailableException;
import org.apache.kafka.streams.errors.StreamsException;
import org.apache.kafka.streams.errors.StreamsUncaughtExceptionHandler.StreamThreadExceptionResponse;
import org.junit.jupiter.api.Test;

class UncaughtExceptionPolicyTest {
    @Test
    void aRegistryOutageReplacesTheThreadHoweverKafkaStreamsWrapsIt() {
        RegistryUnavailableException outage =
                new RegistryUnavailableException("registry down", new IllegalStateException("connection refused"));
        assertThat(AnalyticsApp.onUncaughtException(outage)).isEqualTo(StreamThreadExceptionResponse.REPLACE_THREAD);
        // as the stream thread reports it: the processor's exception inside Kafka Streams' own wrappers
        StreamsException wrapped = new StreamsException(
                "Exception caught in process. taskId=0_1", new StreamsException("processor io-decode failed", outage));
        assertThat(AnalyticsApp.onUncaughtException(wrapped)).isEqualTo(StreamThreadExceptionResponse.REPLACE_THREAD);
    }

    @Test
    void anythingElseStopsTheClient() {
        assertThat(AnalyticsApp.onUncaughtException(new IllegalStateException("bug")))
                .isEqualTo(StreamThreadExceptionResponse.SHUTDOWN_CLIENT);
        assertThat(AnalyticsApp.onUncaughtException(
                        new StreamsException("task corrupted", new SchemaRegistryException(404, 40403, "not found"))))
                .as("a registry answer that is the record's fault is not an outage")
                .isEqualTo(StreamThreadExceptionResponse.SHUTDOWN_CLIENT);
    }
}
