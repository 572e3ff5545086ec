package dev.ssdpulse.producer.publish;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.Map;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.junit.jupiter.api.Test;

/**
 * The durability a three-broker cluster (RF 3, min ISR 2) relies on: every acknowledged batch on two brokers at
 * least, and a retried batch neither duplicated nor reordered.
 */
class RunProducersTest {

    @Test
    void runsAreWrittenWithAcksAllAndIdempotenceUnlessTheUserSaysOtherwise() {
        Map<String, Object> config = RunProducers.config(Map.of(
                ProducerConfig.BOOTSTRAP_SERVERS_CONFIG, "a:9092,b:9092,c:9092", "security.protocol", "SASL_SSL"));
        assertThat(config)
                .containsEntry(ProducerConfig.ACKS_CONFIG, "all")
                .containsEntry(ProducerConfig.ENABLE_IDEMPOTENCE_CONFIG, true)
                .containsEntry(ProducerConfig.BOOTSTRAP_SERVERS_CONFIG, "a:9092,b:9092,c:9092")
                .containsEntry("security.protocol", "SASL_SSL");

        // -X acks=1 is the user's explicit choice and wins
        assertThat(RunProducers.config(Map.of(ProducerConfig.ACKS_CONFIG, "1")))
                .containsEntry(ProducerConfig.ACKS_CONFIG, "1");
    }
}
