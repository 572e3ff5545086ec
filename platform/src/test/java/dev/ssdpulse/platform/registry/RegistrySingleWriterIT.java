package dev.ssdpulse.platform.registry;

import static dev.ssdpulse.platform.registry.RegistryHttp.schemaBody;
import static dev.ssdpulse.platform.registry.TestSchemas.OTHER;
import static dev.ssdpulse.platform.registry.TestSchemas.V1;
import static org.assertj.core.api.Assertions.assertThat;

import dev.ssdpulse.platform.testing.KafkaTestEnvironment;
import dev.ssdpulse.platform.testing.TestStack;
import java.util.UUID;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * Two registry instances on one topic (two `stack` or `registry` processes on one cluster): the one started last is
 * the only writer; the earlier one refuses writes with a clear error, so no two instances ever hand out the same id
 * for different schemas. Reads keep working on both.
 */
@ExtendWith(KafkaTestEnvironment.class)
@Timeout(value = 3, unit = TimeUnit.MINUTES)
class RegistrySingleWriterIT {

    @Test
    void theInstanceStartedLastWritesAndTheEarlierOneRefusesWritesClearly(TestStack stack) throws Exception {
        String topic = "_schemas_writer_it_" + UUID.randomUUID().toString().substring(0, 8);
        try (EmbeddedSchemaRegistry first = EmbeddedSchemaRegistry.startOnKafka(stack.bootstrapServers(), topic, 0)) {
            RegistryHttp firstHttp = new RegistryHttp(first.url());
            int v1 = firstHttp
                    .post("/subjects/runs-value/versions", schemaBody(V1))
                    .body()
                    .get("id")
                    .asInt();

            try (EmbeddedSchemaRegistry second =
                    EmbeddedSchemaRegistry.startOnKafka(stack.bootstrapServers(), topic, 0)) {
                RegistryHttp secondHttp = new RegistryHttp(second.url());
                assertThat(secondHttp.get("/schemas/ids/" + v1).status())
                        .as("the second reads what the first wrote")
                        .isEqualTo(200);
                int other = secondHttp
                        .post("/subjects/other-value/versions", schemaBody(OTHER))
                        .body()
                        .get("id")
                        .asInt();
                assertThat(other).isEqualTo(v1 + 1);

                RegistryHttp.Reply refused = firstHttp.post("/subjects/third-value/versions", schemaBody("\"string\""));
                assertThat(refused.status()).isEqualTo(500);
                assertThat(refused.body().get("error_code").asInt()).isEqualTo(50001);
                assertThat(refused.body().get("message").asText())
                        .contains("another schema registry instance started later on '" + topic + "'")
                        .contains("refuses writes");
                assertThat(firstHttp.get("/schemas/ids/" + v1).status())
                        .as("reads still served")
                        .isEqualTo(200);
                assertThat(secondHttp.get("/subjects").body().toString()).doesNotContain("third-value");
            }
        }
        // a restart on the topic becomes the writer again and sees everything that was committed
        try (EmbeddedSchemaRegistry third = EmbeddedSchemaRegistry.startOnKafka(stack.bootstrapServers(), topic, 0)) {
            RegistryHttp http = new RegistryHttp(third.url());
            assertThat(http.get("/subjects").body().toString()).isEqualTo("[\"other-value\",\"runs-value\"]");
            assertThat(http.post("/subjects/third-value/versions", schemaBody("\"string\""))
                            .status())
                    .isEqualTo(200);
        }
    }
}
