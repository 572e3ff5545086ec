package dev.ssdpulse.platform.registry;

import static dev.ssdpulse.platform.registry.RegistryHttp.schemaBody;
import static dev.ssdpulse.platform.registry.TestSchemas.*;
import static org.assertj.core.api.Assertions.assertThat;

import dev.ssdpulse.platform.testing.KafkaTestEnvironment;
import dev.ssdpulse.platform.testing.TestStack;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.TimeUnit;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.AdminClientConfig;
import org.apache.kafka.clients.admin.Config;
import org.apache.kafka.clients.admin.TopicDescription;
import org.apache.kafka.common.config.ConfigResource;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * A registry restarted on the same Kafka topic comes back with the same ids, versions and configs.
 * Uses its own topic on the shared broker, so it does not become a second writer of `_schemas`.
 */
@ExtendWith(KafkaTestEnvironment.class)
class KafkaRegistryRestartIT {

    @Test
    void aNewInstanceReadsTheTopicAndContinuesWhereTheOldOneStopped(TestStack stack) throws Exception {
        String topic = "_schemas_it_" + UUID.randomUUID().toString().substring(0, 8);
        int id1;
        int id2;
        int idOther;
        try (EmbeddedSchemaRegistry first = EmbeddedSchemaRegistry.startOnKafka(stack.bootstrapServers(), topic, 0)) {
            RegistryHttp http = new RegistryHttp(first.url());
            id1 = http.post("/subjects/runs-value/versions", schemaBody(V1))
                    .body()
                    .get("id")
                    .asInt();
            id2 = http.post("/subjects/runs-value/versions", schemaBody(V2_WITH_DEFAULT))
                    .body()
                    .get("id")
                    .asInt();
            idOther = http.post("/subjects/other-value/versions", schemaBody(OTHER))
                    .body()
                    .get("id")
                    .asInt();
            assertThat(http.delete("/subjects/other-value").status()).isEqualTo(200);
            assertThat(http.put("/config", "{\"compatibility\":\"FULL\"}").status())
                    .isEqualTo(200);
            assertThat(http.put("/config/runs-value", "{\"compatibility\":\"FORWARD\"}")
                            .status())
                    .isEqualTo(200);
        }

        try (Admin admin = Admin.create(
                Map.<String, Object>of(AdminClientConfig.BOOTSTRAP_SERVERS_CONFIG, stack.bootstrapServers()))) {
            TopicDescription description = admin.describeTopics(List.of(topic))
                    .allTopicNames()
                    .get(30, TimeUnit.SECONDS)
                    .get(topic);
            assertThat(description.partitions()).hasSize(1);
            ConfigResource resource = new ConfigResource(ConfigResource.Type.TOPIC, topic);
            Config config = admin.describeConfigs(List.of(resource))
                    .all()
                    .get(30, TimeUnit.SECONDS)
                    .get(resource);
            assertThat(config.get("cleanup.policy").value()).isEqualTo("compact");
        }

        try (EmbeddedSchemaRegistry second = EmbeddedSchemaRegistry.startOnKafka(stack.bootstrapServers(), topic, 0)) {
            RegistryHttp http = new RegistryHttp(second.url());
            assertThat(http.get("/subjects/runs-value/versions/1")
                            .body()
                            .get("id")
                            .asInt())
                    .isEqualTo(id1);
            assertThat(http.get("/subjects/runs-value/versions/latest")
                            .body()
                            .get("id")
                            .asInt())
                    .isEqualTo(id2);
            assertThat(http.get("/schemas/ids/" + idOther).status())
                    .as("soft-deleted schema still readable")
                    .isEqualTo(200);
            assertThat(http.get("/subjects").body().toString()).isEqualTo("[\"runs-value\"]");
            assertThat(http.get("/config").body().get("compatibilityLevel").asText())
                    .isEqualTo("FULL");
            assertThat(http.get("/config/runs-value")
                            .body()
                            .get("compatibilityLevel")
                            .asText())
                    .isEqualTo("FORWARD");
            // Same schema again: same id, no new version. A new schema: the next id, never a reused one.
            assertThat(http.post("/subjects/runs-value/versions", schemaBody(V2_WITH_DEFAULT))
                            .body()
                            .get("id")
                            .asInt())
                    .isEqualTo(id2);
            int next = http.post("/subjects/fresh-value/versions", schemaBody("\"string\""))
                    .body()
                    .get("id")
                    .asInt();
            assertThat(next).isEqualTo(Math.max(id2, idOther) + 1);
        }
    }
}
