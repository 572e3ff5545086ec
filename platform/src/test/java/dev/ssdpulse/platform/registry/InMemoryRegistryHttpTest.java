package dev.ssdpulse.platform.registry;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/** The HTTP contract on the registry with an in-process log: no broker needed. */
class InMemoryRegistryHttpTest extends RegistryHttpContract {
    private static EmbeddedSchemaRegistry registry;

    @BeforeAll
    static void start() {
        registry = EmbeddedSchemaRegistry.inMemory();
    }

    @AfterAll
    static void stop() {
        registry.close();
    }

    @Override
    protected String registryUrl() {
        return registry.url();
    }

    @Test
    void unknownRoutesMalformedBodiesAndUnsupportedOperationsAreClear() {
        RegistryHttp http = new RegistryHttp(registryUrl());
        assertThat(http.get("/nope").status()).isEqualTo(404);
        assertThat(http.put("/subjects", "{}").status()).isEqualTo(405);
        RegistryHttp.Reply badJson = http.post("/subjects/x/versions", "{not json");
        assertThat(badJson.status()).isEqualTo(400);
        assertThat(badJson.body().get("message").asText()).contains("not valid JSON");
        RegistryHttp.Reply noSchema = http.post("/subjects/x/versions", "{}");
        assertThat(noSchema.errorCode()).isEqualTo(42201);
        assertThat(http.get("/subjects/x/versions/zero").errorCode()).isEqualTo(42202);
        assertThat(http.post("/subjects/x/versions", "{\"schema\":\"\\\"int\\\"\",\"schemaType\":\"JSON\"}")
                        .errorCode())
                .isEqualTo(42201);
        assertThat(http.delete("/subjects/x?permanent=true").status()).isEqualTo(422);
        assertThat(http.get("/schemas/types").body().toString()).isEqualTo("[\"AVRO\"]");
    }

    @Test
    void encodedSubjectNamesAreDecodedPerSegment() {
        RegistryHttp http = new RegistryHttp(registryUrl());
        String encoded = prefix + "a%2Fb%20c";
        assertThat(http.post("/subjects/" + encoded + "/versions", RegistryHttp.schemaBody("\"long\""))
                        .status())
                .isEqualTo(200);
        assertThat(http.get("/subjects/" + encoded + "/versions/latest")
                        .body()
                        .get("subject")
                        .asText())
                .isEqualTo(prefix + "a/b c");
    }
}
