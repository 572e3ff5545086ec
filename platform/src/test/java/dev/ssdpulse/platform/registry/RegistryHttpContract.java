package dev.ssdpulse.platform.registry;

import static dev.ssdpulse.platform.registry.RegistryHttp.schemaBody;
import static dev.ssdpulse.platform.registry.TestSchemas.*;
import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import java.util.ArrayList;
import java.util.List;
import java.util.UUID;
import org.apache.avro.Schema;
import org.junit.jupiter.api.Test;

/**
 * The REST behaviour every registry ssdpulse talks to must show: the embedded one (in memory and on
 * Kafka) and, when Docker is present, Confluent's own. Subjects are unique per run because the
 * registry may be shared with other tests.
 */
abstract class RegistryHttpContract {
    protected final String prefix = "contract-" + UUID.randomUUID().toString().substring(0, 8) + "-";

    protected abstract String registryUrl();

    private RegistryHttp http() {
        return new RegistryHttp(registryUrl());
    }

    private static String canonical(String schema) {
        return new Schema.Parser().parse(schema).toString();
    }

    private static List<Integer> ints(JsonNode array) {
        List<Integer> out = new ArrayList<>();
        array.forEach(n -> out.add(n.asInt()));
        return out;
    }

    @Test
    void registerGetByIdVersionsLatestAndLookup() {
        RegistryHttp http = http();
        String subject = prefix + "runs-value";
        RegistryHttp.Reply reg = http.post("/subjects/" + subject + "/versions", schemaBody(V1));
        assertThat(reg.status()).as(reg.body().toString()).isEqualTo(200);
        assertThat(reg.contentType()).startsWith("application/vnd.schemaregistry.v1+json");
        int id1 = reg.body().get("id").asInt();
        assertThat(http.post("/subjects/" + subject + "/versions", schemaBody(V1))
                        .body()
                        .get("id")
                        .asInt())
                .isEqualTo(id1);
        assertThat(http.post("/subjects/" + prefix + "copy-value/versions", schemaBody(V1))
                        .body()
                        .get("id")
                        .asInt())
                .isEqualTo(id1);
        int id2 = http.post("/subjects/" + subject + "/versions", schemaBody(V2_WITH_DEFAULT))
                .body()
                .get("id")
                .asInt();
        assertThat(id2).isNotEqualTo(id1);

        RegistryHttp.Reply byId = http.get("/schemas/ids/" + id1);
        assertThat(byId.status()).isEqualTo(200);
        assertThat(canonical(byId.body().get("schema").asText())).isEqualTo(canonical(V1));
        assertThat(byId.body().has("schemaType"))
                .as("schemaType omitted for AVRO")
                .isFalse();

        assertThat(ints(http.get("/subjects/" + subject + "/versions").body())).containsExactly(1, 2);
        JsonNode latest = http.get("/subjects/" + subject + "/versions/latest").body();
        assertThat(latest.get("subject").asText()).isEqualTo(subject);
        assertThat(latest.get("version").asInt()).isEqualTo(2);
        assertThat(latest.get("id").asInt()).isEqualTo(id2);
        assertThat(http.get("/subjects/" + subject + "/versions/1")
                        .body()
                        .get("id")
                        .asInt())
                .isEqualTo(id1);
        assertThat(http.get("/subjects/" + subject + "/versions/1/schema")
                        .body()
                        .get("name")
                        .asText())
                .isEqualTo("Sample");

        JsonNode found = http.post("/subjects/" + subject, schemaBody(V1)).body();
        assertThat(found.get("version").asInt()).isEqualTo(1);
        assertThat(found.get("id").asInt()).isEqualTo(id1);

        List<String> subjects = new ArrayList<>();
        http.get("/subjects").body().forEach(n -> subjects.add(n.asText()));
        assertThat(subjects).contains(subject, prefix + "copy-value");
        JsonNode uses = http.get("/schemas/ids/" + id1 + "/versions").body();
        assertThat(uses.toString()).contains(subject).contains(prefix + "copy-value");
    }

    @Test
    void backwardIncompatibleChangeIsRefusedWith409() {
        RegistryHttp http = http();
        String subject = prefix + "incompatible-value";
        assertThat(http.post("/subjects/" + subject + "/versions", schemaBody(V1))
                        .status())
                .isEqualTo(200);
        RegistryHttp.Reply refused = http.post("/subjects/" + subject + "/versions", schemaBody(V2_NO_DEFAULT));
        assertThat(refused.status()).isEqualTo(409);
        assertThat(refused.errorCode()).isEqualTo(409);
        assertThat(refused.body().get("message").asText()).contains("incompatible");
        assertThat(ints(http.get("/subjects/" + subject + "/versions").body())).containsExactly(1);
    }

    @Test
    void notFoundAndInvalidAnswersCarryConfluentErrorCodes() {
        RegistryHttp http = http();
        RegistryHttp.Reply noSubject = http.get("/subjects/" + prefix + "missing/versions");
        assertThat(noSubject.status()).isEqualTo(404);
        assertThat(noSubject.errorCode()).isEqualTo(40401);
        assertThat(noSubject.body().get("message").asText()).isEqualTo("Subject '" + prefix + "missing' not found.");

        RegistryHttp.Reply noId = http.get("/schemas/ids/987654");
        assertThat(noId.status()).isEqualTo(404);
        assertThat(noId.errorCode()).isEqualTo(40403);

        String subject = prefix + "errors-value";
        http.post("/subjects/" + subject + "/versions", schemaBody(V1));
        RegistryHttp.Reply noVersion = http.get("/subjects/" + subject + "/versions/42");
        assertThat(noVersion.status()).isEqualTo(404);
        assertThat(noVersion.errorCode()).isEqualTo(40402);
        RegistryHttp.Reply notUnder = http.post("/subjects/" + subject, schemaBody(OTHER));
        assertThat(notUnder.status()).isEqualTo(404);
        assertThat(notUnder.errorCode()).isEqualTo(40403);

        RegistryHttp.Reply invalid = http.post(
                "/subjects/" + subject + "/versions",
                schemaBody("{\"type\":\"record\",\"name\":\"Broken\",\"fields\":[{\"name\":\"x\","
                        + "\"type\":\"nosuchtype\"}]}"));
        assertThat(invalid.status()).isEqualTo(422);
        assertThat(invalid.errorCode()).isEqualTo(42201);
    }

    @Test
    void compatibilityEndpointAnswersWithoutRegistering() {
        RegistryHttp http = http();
        String subject = prefix + "compat-value";
        http.post("/subjects/" + subject + "/versions", schemaBody(V1));
        JsonNode bad = http.post(
                        "/compatibility/subjects/" + subject + "/versions/latest?verbose=true",
                        schemaBody(V2_NO_DEFAULT))
                .body();
        assertThat(bad.get("is_compatible").asBoolean()).isFalse();
        assertThat(bad.get("messages").size()).isPositive();
        JsonNode good = http.post("/compatibility/subjects/" + subject + "/versions/1", schemaBody(V2_WITH_DEFAULT))
                .body();
        assertThat(good.get("is_compatible").asBoolean()).isTrue();
        assertThat(ints(http.get("/subjects/" + subject + "/versions").body())).containsExactly(1);
    }

    @Test
    void subjectConfigOverridesTheGlobalLevel() {
        RegistryHttp http = http();
        assertThat(http.get("/config").body().get("compatibilityLevel").asText())
                .isEqualTo("BACKWARD");
        String subject = prefix + "config-value";
        RegistryHttp.Reply unset = http.get("/config/" + subject);
        assertThat(unset.status()).isEqualTo(404);
        assertThat(unset.errorCode()).isEqualTo(40408);

        RegistryHttp.Reply put = http.put("/config/" + subject, "{\"compatibility\":\"NONE\"}");
        assertThat(put.status()).isEqualTo(200);
        assertThat(put.body().get("compatibility").asText()).isEqualTo("NONE");
        assertThat(http.get("/config/" + subject)
                        .body()
                        .get("compatibilityLevel")
                        .asText())
                .isEqualTo("NONE");

        http.post("/subjects/" + subject + "/versions", schemaBody(V1));
        assertThat(http.post("/subjects/" + subject + "/versions", schemaBody(V2_NO_DEFAULT))
                        .status())
                .as("NONE lets an incompatible change through")
                .isEqualTo(200);
        assertThat(http.put("/config/" + subject, "{\"compatibility\":\"SIDEWAYS\"}")
                        .errorCode())
                .isEqualTo(42203);
    }

    @Test
    void deleteSubjectSoftDeletesAndKeepsIdsReadable() {
        RegistryHttp http = http();
        String subject = prefix + "deleted-value";
        int id = http.post("/subjects/" + subject + "/versions", schemaBody(OTHER))
                .body()
                .get("id")
                .asInt();
        RegistryHttp.Reply deleted = http.delete("/subjects/" + subject);
        assertThat(deleted.status()).isEqualTo(200);
        assertThat(ints(deleted.body())).containsExactly(1);
        assertThat(http.get("/subjects/" + subject + "/versions").errorCode()).isEqualTo(40401);
        assertThat(http.get("/schemas/ids/" + id).status()).isEqualTo(200);
        assertThat(http.delete("/subjects/" + prefix + "never").errorCode()).isEqualTo(40401);
    }
}
