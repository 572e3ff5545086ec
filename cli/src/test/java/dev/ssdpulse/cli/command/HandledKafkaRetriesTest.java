package dev.ssdpulse.cli.command;

import static org.assertj.core.api.Assertions.assertThat;

import org.apache.logging.log4j.Level;
import org.apache.logging.log4j.core.Filter;
import org.apache.logging.log4j.core.impl.Log4jLogEvent;
import org.apache.logging.log4j.message.SimpleMessage;
import org.junit.jupiter.api.Test;

class HandledKafkaRetriesTest {
    /**
     * Warnings of retries the clients handle are held back and counted; a broker that cannot be reached shows once a
     * minute; other warnings and every error show.
     */
    @Test
    void kafkaClientRetriesAreHeldBackAndCounted() {
        long[] nowNs = {0};
        HandledKafkaRetries filter = new HandledKafkaRetries(() -> nowNs[0]);
        String sender = "org.apache.kafka.clients.producer.internals.Sender";
        String transactions =
                "[Producer clientId=x] Got error produce response with correlation id 7 on topic-partition"
                        + " t-0, retrying (2147483646 attempts left). Error: CONCURRENT_TRANSACTIONS";
        assertThat(filter.filter(event(sender, Level.WARN, transactions))).isEqualTo(Filter.Result.DENY);
        assertThat(filter.filter(event(sender, Level.WARN, transactions))).isEqualTo(Filter.Result.DENY);
        assertThat(filter.heldBack()).containsEntry("CONCURRENT_TRANSACTIONS", 2L);

        String network = "org.apache.kafka.clients.NetworkClient";
        String unreachable = "[AdminClient clientId=adminclient-1] Connection to node -1 (/127.0.0.1:9092) could not be"
                + " established. Node may not be available.";
        assertThat(filter.filter(event(network, Level.WARN, unreachable)))
                .as("the first shows")
                .isEqualTo(Filter.Result.NEUTRAL);
        nowNs[0] += 30_000_000_000L;
        assertThat(filter.filter(event(network, Level.WARN, unreachable))).isEqualTo(Filter.Result.DENY);
        nowNs[0] += 31_000_000_000L;
        assertThat(filter.filter(event(network, Level.WARN, unreachable)))
                .as("a minute later, one shows again")
                .isEqualTo(Filter.Result.NEUTRAL);
        assertThat(filter.heldBack()).containsEntry("broker not reachable (reconnecting)", 1L);

        assertThat(filter.filter(event(sender, Level.ERROR, "Error: OUT_OF_ORDER_SEQUENCE_NUMBER, producer fenced")))
                .as("errors are always shown")
                .isEqualTo(Filter.Result.NEUTRAL);
        assertThat(filter.filter(
                        event("org.apache.kafka.streams.KafkaStreams", Level.WARN, "State transition from X to Y")))
                .isEqualTo(Filter.Result.NEUTRAL);
        assertThat(filter.filter(event("dev.ssdpulse.x", Level.WARN, "CONCURRENT_TRANSACTIONS")))
                .as("ssdpulse's own warnings")
                .isEqualTo(Filter.Result.NEUTRAL);
    }

    private static Log4jLogEvent event(String logger, Level level, String message) {
        return Log4jLogEvent.newBuilder()
                .setLoggerName(logger)
                .setLevel(level)
                .setMessage(new SimpleMessage(message))
                .build();
    }
}
