package dev.ssdpulse.schemas.registry;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.ssdpulse.platform.registry.EmbeddedSchemaRegistry;
import java.io.IOException;
import java.net.ServerSocket;
import java.time.Duration;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * The client against the real embedded registry (platform's), seen through a recording proxy that shows what goes
 * over the wire and can force answers the real registry never gives.
 */
class HttpSchemaRegistryClientTest {
    private EmbeddedSchemaRegistry registry;
    private RecordingProxy server;
    private HttpSchemaRegistryClient client;

    @BeforeEach
    void start() {
        registry = EmbeddedSchemaRegistry.inMemory();
        server = new RecordingProxy(registry.url());
        client = new HttpSchemaRegistryClient(server.url());
    }

    @AfterEach
    void stop() {
        client.close();
        server.close();
        registry.close();
    }

    @Test
    void speaksTheConfluentEndpoints() {
        int id1 = client.register("probe-value", TestSchemas.v1());
        int id2 = client.register("probe-value", TestSchemas.v2());
        assertThat(client.listSubjects()).containsExactly("probe-value");
        assertThat(client.listVersions("probe-value")).containsExactly(1, 2);
        assertThat(client.getLatest("probe-value"))
                .isEqualTo(new SchemaVersion("probe-value", 2, id2, TestSchemas.v2()));
        assertThat(client.getVersion("probe-value", 1))
                .isEqualTo(new SchemaVersion("probe-value", 1, id1, TestSchemas.v1()));
        assertThat(client.lookup("probe-value", TestSchemas.v1()).version()).isEqualTo(1);
        assertThat(client.testCompatibility("probe-value", TestSchemas.incompatible()))
                .isFalse();
        assertThat(client.testCompatibility("new-subject", TestSchemas.incompatible()))
                .isTrue();

        assertThat(client.getGlobalCompatibility()).isEqualTo(CompatibilityLevel.BACKWARD);
        client.setGlobalCompatibility(CompatibilityLevel.FULL);
        assertThat(client.getGlobalCompatibility()).isEqualTo(CompatibilityLevel.FULL);
        assertThat(client.getCompatibility("probe-value")).isEqualTo(CompatibilityLevel.FULL);
        client.setCompatibility("probe-value", CompatibilityLevel.NONE);
        assertThat(client.getCompatibility("probe-value")).isEqualTo(CompatibilityLevel.NONE);

        assertThat(client.deleteSubject("probe-value")).containsExactly(1, 2);
        assertThat(client.listSubjects()).isEmpty();

        RecordingProxy.Request register = server.requests().get(0);
        assertThat(register.method()).isEqualTo("POST");
        assertThat(register.path()).isEqualTo("/subjects/probe-value/versions");
        assertThat(register.contentType()).isEqualTo("application/vnd.schemaregistry.v1+json");
        assertThat(register.body()).startsWith("{\"schema\":\"{\\\"type\\\":\\\"record\\\"");
    }

    @Test
    void cachesSoRepeatedLookupsMakeNoHttpCalls() {
        int id = client.register("probe-value", TestSchemas.v1());
        int afterRegister = server.requestCount();
        for (int i = 0; i < 100; i++) {
            assertThat(client.register("probe-value", TestSchemas.v1())).isEqualTo(id);
            assertThat(client.getById(id)).isEqualTo(TestSchemas.v1());
        }
        assertThat(server.requestCount()).isEqualTo(afterRegister);

        // A fresh client fetches an id once, then serves it from its cache.
        try (HttpSchemaRegistryClient other = new HttpSchemaRegistryClient(server.url())) {
            for (int i = 0; i < 100; i++) {
                other.getById(id);
                other.lookup("probe-value", TestSchemas.v1());
            }
            assertThat(other.httpRequestCount()).isEqualTo(2);
        }
        assertThat(server.requestCount()).isEqualTo(afterRegister + 2);
    }

    @Test
    void mapsRegistryErrorsToStatusAndErrorCode() {
        client.register("probe-value", TestSchemas.v1());
        assertThatThrownBy(() -> client.register("probe-value", TestSchemas.incompatible()))
                .isInstanceOfSatisfying(SchemaRegistryException.class, e -> {
                    assertThat(e.httpStatus()).isEqualTo(409);
                    assertThat(e.errorCode()).isEqualTo(409);
                    assertThat(e.getMessage()).contains("incompatible", "probe-value");
                });
        assertThatThrownBy(() -> client.getLatest("missing-value"))
                .isInstanceOfSatisfying(SchemaRegistryException.class, e -> {
                    assertThat(e.httpStatus()).isEqualTo(404);
                    assertThat(e.errorCode()).isEqualTo(SchemaRegistryException.SUBJECT_NOT_FOUND);
                    assertThat(e.getMessage()).contains("missing-value");
                });
        assertThatThrownBy(() -> client.getVersion("probe-value", 7))
                .isInstanceOfSatisfying(
                        SchemaRegistryException.class,
                        e -> assertThat(e.errorCode()).isEqualTo(SchemaRegistryException.VERSION_NOT_FOUND));
        assertThatThrownBy(() -> client.getById(4242)).isInstanceOfSatisfying(SchemaRegistryException.class, e -> {
            assertThat(e.errorCode()).isEqualTo(SchemaRegistryException.SCHEMA_NOT_FOUND);
            assertThat(e.getMessage()).contains("4242");
        });
        server.force(
                "/subjects/broken-value/versions",
                422,
                "{\"error_code\":42201,\"message\":\"Invalid schema: bad default\"}");
        assertThatThrownBy(() -> client.register("broken-value", TestSchemas.v1()))
                .isInstanceOfSatisfying(SchemaRegistryException.class, e -> {
                    assertThat(e.httpStatus()).isEqualTo(422);
                    assertThat(e.errorCode()).isEqualTo(SchemaRegistryException.INVALID_SCHEMA);
                    assertThat(e.getMessage()).contains("bad default");
                });
        server.force("/subjects", 500, "{\"error_code\":50001,\"message\":\"Error in the backend data store\"}");
        assertThatThrownBy(() -> client.listSubjects()).isInstanceOfSatisfying(SchemaRegistryException.class, e -> {
            assertThat(e.httpStatus()).isEqualTo(500);
            assertThat(e.errorCode()).isEqualTo(SchemaRegistryException.BACKEND_STORE_ERROR);
        });
        server.force("/schemas/ids/77", 502, "<html>Bad Gateway</html>");
        assertThatThrownBy(() -> client.getById(77)).isInstanceOfSatisfying(SchemaRegistryException.class, e -> {
            assertThat(e.httpStatus()).isEqualTo(502);
            assertThat(e.errorCode()).isEqualTo(SchemaRegistryException.NO_ERROR_CODE);
            assertThat(e.getMessage()).contains("Bad Gateway");
        });
    }

    @Test
    void triesTheNextUrlWhenAConnectionFails() throws IOException {
        int deadPort;
        try (ServerSocket socket = new ServerSocket(0)) {
            deadPort = socket.getLocalPort();
        }
        try (HttpSchemaRegistryClient failover =
                new HttpSchemaRegistryClient("http://127.0.0.1:" + deadPort + ", " + server.url())) {
            assertThat(failover.register("probe-value", TestSchemas.v1())).isPositive();
            assertThat(failover.listSubjects()).containsExactly("probe-value");
            // The URL that answered is tried first afterwards: 2 attempts for the first call, 1 for the second.
            assertThat(failover.httpRequestCount()).isEqualTo(3);
        }
        try (HttpSchemaRegistryClient dead = new HttpSchemaRegistryClient("http://127.0.0.1:" + deadPort)) {
            assertThatThrownBy(dead::listSubjects).isInstanceOfSatisfying(SchemaRegistryException.class, e -> {
                assertThat(e.httpStatus()).isEqualTo(SchemaRegistryException.NO_HTTP_STATUS);
                assertThat(e.getMessage()).contains("no schema registry reachable", "127.0.0.1:" + deadPort);
            });
        }
    }

    @Test
    void sendsBasicAuthFromConfig() {
        try (HttpSchemaRegistryClient authed = HttpSchemaRegistryClient.fromConfig(Map.of(
                RegistryClientConfig.URL, server.url(),
                RegistryClientConfig.BASIC_AUTH_CREDENTIALS_SOURCE, "USER_INFO",
                RegistryClientConfig.BASIC_AUTH_USER_INFO, "alice:s3cret"))) {
            authed.listSubjects();
        }
        assertThat(server.requests())
                .last()
                .extracting(RecordingProxy.Request::authorization)
                .isEqualTo("Basic YWxpY2U6czNjcmV0");
    }

    @Test
    void rejectsBadConfigurationClearly() {
        assertThatThrownBy(() -> HttpSchemaRegistryClient.fromConfig(Map.of()))
                .hasMessageContaining("schema.registry.url");
        assertThatThrownBy(() -> new HttpSchemaRegistryClient("localhost:8081"))
                .hasMessageContaining("localhost:8081")
                .hasMessageContaining("http");
        assertThatThrownBy(() ->
                        new HttpSchemaRegistryClient(server.url(), Optional.of("nocolon"), Duration.ofSeconds(1), 10))
                .hasMessageContaining("user:password");
    }

    @Test
    void encodesSubjectNamesInPaths() {
        client.register("run 1/value", TestSchemas.v1());
        assertThat(server.requests().get(0).path()).isEqualTo("/subjects/run%201%2Fvalue/versions");
        assertThat(client.listSubjects()).containsExactly("run 1/value");
    }
}
