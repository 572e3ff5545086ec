package dev.ssdpulse.platform.registry;

import static org.assertj.core.api.Assertions.assertThat;

import dev.ssdpulse.platform.testing.KafkaTestEnvironment;
import dev.ssdpulse.platform.testing.TestStack;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * The HTTP contract on the shared test stack's registry: the embedded one backed by `_schemas` on
 * the embedded broker, or Confluent Schema Registry in a container when Docker is present.
 */
@ExtendWith(KafkaTestEnvironment.class)
class SharedStackRegistryIT extends RegistryHttpContract {
    private static TestStack stack;

    @BeforeAll
    static void init(TestStack shared) {
        stack = shared;
    }

    @Override
    protected String registryUrl() {
        return stack.schemaRegistryUrl();
    }

    @Test
    void theEnvironmentNamesItsBackend() {
        assertThat(stack.backend()).isIn("embedded", "testcontainers");
        assertThat(stack.bootstrapServers()).isNotBlank();
    }
}
