package dev.ssdpulse.streams.http;

import static dev.ssdpulse.streams.http.TestRecords.S;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.ssdpulse.schemas.avro.IoOp;
import java.io.IOException;
import java.net.Inet4Address;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.NetworkInterface;
import java.net.Socket;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * The server's exposure: loopback unless told otherwise, the bearer token on every API endpoint (and on unknown
 * API paths, which must not reveal what exists), and no method but GET and HEAD anywhere.
 */
class HttpApiSecurityTest {
    private static final ObjectMapper JSON = new ObjectMapper();
    private static final String TOKEN = "s3cret-Token_0123456789";
    /** Every endpoint of API.md, plus unknown API paths; the run r1 exists, "nope" does not. */
    private static final List<String> API_PATHS = List.of(
            "/api/runs",
            "/api/dead-letters",
            "/api/runs/r1",
            "/api/runs/r1/summary",
            "/api/runs/r1/summary.csv",
            "/api/runs/r1/series?op=READ&from=0&to=3",
            "/api/runs/r1/series.csv",
            "/api/runs/r1/steady-state",
            "/api/runs/r1/wa",
            "/api/runs/r1/phases",
            "/api/runs/r1/events",
            "/api/runs/nope",
            "/api/runs/nope/summary",
            "/api/nothing-here",
            "/api",
            "/metrics");

    private static final List<String> STATIC_PATHS = List.of("/", "/app.js", "/API.md", "/no-such-file");

    private final InMemoryRunViews views = new InMemoryRunViews();
    private HttpApiServer server;

    @BeforeEach
    void views() {
        views.runs.put("r1", TestRecords.runStarted("r1", "first", 480_103_981_056L, 1_700_000_000_000_000_000L));
        views.statuses.put("r1", "COMPLETED");
        views.summaries.put("r1", TestRecords.summary("r1", 1000));
        views.windows.add(TestRecords.window("r1", IoOp.READ, 0, 0, 1000, 2_000_000L));
        views.wa.put("r1", List.of(TestRecords.wa("r1", 0, S, 2.5)));
        views.deadLetters.put("ssdpulse.io.v1", 3L);
    }

    @AfterEach
    void stop() {
        if (server != null) {
            server.close();
        }
    }

    @Test
    void bindsToLoopbackByDefaultAndIsNotReachableFromOtherInterfaces() throws Exception {
        assertThat(HttpApiConfig.localhost(0).bindAddress()).isEqualTo("127.0.0.1");
        server = new HttpApiServer(views, HttpApiConfig.localhost(0));
        assertThat(server.url().getHost()).isEqualTo("127.0.0.1");
        assertThat(RawHttp.send(server.port(), "GET", "/api/runs").status()).isEqualTo(200);
        InetAddress external = nonLoopbackAddress().orElse(null);
        Assumptions.assumeTrue(external != null, "this host has no non-loopback IPv4 address to try");
        assertThatThrownBy(() -> connect(external, server.port())).isInstanceOf(IOException.class);
    }

    @Test
    void bindsWhereToldOtherwise() throws Exception {
        InetAddress external = nonLoopbackAddress().orElse(null);
        Assumptions.assumeTrue(external != null, "this host has no non-loopback IPv4 address to try");
        server = new HttpApiServer(views, HttpApiConfig.localhost(0).withBindAddress(external.getHostAddress()));
        connect(external, server.port());
        assertThatThrownBy(() -> connect(InetAddress.getLoopbackAddress(), server.port()))
                .isInstanceOf(IOException.class);
    }

    @Test
    void theTokenGuardsEveryApiEndpointAndUnknownApiPaths() throws Exception {
        List<Integer> openStatuses = new ArrayList<>();
        server = new HttpApiServer(views, HttpApiConfig.localhost(0));
        for (String path : API_PATHS) {
            openStatuses.add(RawHttp.send(server.port(), "GET", path).status());
        }
        server.close();
        server = new HttpApiServer(views, HttpApiConfig.localhost(0).withBearerToken(TOKEN));
        List<String[]> wrong = List.of(
                new String[0],
                new String[] {"Authorization: Bearer"},
                new String[] {"Authorization: Bearer "},
                new String[] {"Authorization: Bearer x"},
                new String[] {"Authorization: Bearer " + TOKEN.substring(0, TOKEN.length() - 1)},
                new String[] {"Authorization: Bearer " + TOKEN + "x"},
                new String[] {"Authorization: Bearer " + TOKEN.substring(0, TOKEN.length() - 1) + "X"},
                new String[] {"Authorization: Bearer X" + TOKEN.substring(1)},
                new String[] {"Authorization: Bearer " + TOKEN.toUpperCase()},
                new String[] {"Authorization: Basic " + TOKEN},
                new String[] {"Authorization: " + TOKEN},
                new String[] {"X-Api-Token: " + TOKEN});
        for (int i = 0; i < API_PATHS.size(); i++) {
            String path = API_PATHS.get(i);
            for (String[] headers : wrong) {
                for (String method : List.of("GET", "HEAD")) {
                    RawHttp.Response r = RawHttp.send(server.port(), method, path, headers);
                    assertThat(r.status())
                            .as(method + " " + path + " with " + List.of(headers))
                            .isEqualTo(401);
                    assertThat(r.header("WWW-Authenticate")).isEqualTo("Bearer");
                    if (method.equals("GET")) {
                        JsonNode body = JSON.readTree(r.body());
                        assertThat(body.get("status").asInt()).isEqualTo(401);
                        assertThat(body.get("error").asText()).doesNotContain(TOKEN);
                    }
                }
            }
            String sep = path.contains("?") ? "&" : "?";
            assertThat(RawHttp.send(server.port(), "GET", path + sep + "access_token=wrong")
                            .status())
                    .isEqualTo(401);
            assertThat(RawHttp.send(server.port(), "GET", path + sep + "access_token=")
                            .status())
                    .isEqualTo(401);
            assertThat(RawHttp.send(server.port(), "GET", path, "Authorization: Bearer " + TOKEN)
                            .status())
                    .as(path + " with the token answers as without authentication")
                    .isEqualTo(openStatuses.get(i));
            assertThat(RawHttp.send(server.port(), "GET", path, "authorization: bearer " + TOKEN)
                            .status())
                    .as("the scheme is case-insensitive")
                    .isEqualTo(openStatuses.get(i));
            assertThat(RawHttp.send(server.port(), "GET", path + sep + "access_token=" + TOKEN)
                            .status())
                    .isEqualTo(openStatuses.get(i));
        }
        // the page itself carries no data; it asks for the token
        for (String path : STATIC_PATHS) {
            assertThat(RawHttp.send(server.port(), "GET", path).status()).isNotEqualTo(401);
        }
    }

    @Test
    void everyMethodButGetAndHeadIs405OnEveryPathAndChangesNothing() throws Exception {
        server = new HttpApiServer(views, HttpApiConfig.localhost(0));
        String before = snapshot();
        List<String> paths = new ArrayList<>(API_PATHS);
        paths.addAll(STATIC_PATHS);
        for (String path : paths) {
            for (String method : List.of(
                    "POST",
                    "PUT",
                    "DELETE",
                    "PATCH",
                    "OPTIONS",
                    "TRACE",
                    "PROPFIND",
                    "MKCOL",
                    "LOCK",
                    "PURGE",
                    "FOO")) {
                String[] body = method.equals("TRACE")
                        ? new String[0]
                        : new String[] {"Content-Type: application/json", "Content-Length: 0"};
                RawHttp.Response r = RawHttp.send(server.port(), method, path, body);
                assertThat(r.status()).as(method + " " + path).isEqualTo(405);
                assertThat(r.header("Allow")).isEqualTo("GET, HEAD");
                JsonNode json = JSON.readTree(r.body());
                assertThat(json.get("status").asInt()).isEqualTo(405);
                assertThat(json.get("error").asText()).contains(method).contains("read-only");
            }
        }
        assertThat(snapshot()).as("views unchanged").isEqualTo(before);
        server.close();
        server = new HttpApiServer(views, HttpApiConfig.localhost(0).withBearerToken(TOKEN));
        for (String path : paths) {
            RawHttp.Response r = RawHttp.send(server.port(), "DELETE", path, "Authorization: Bearer " + TOKEN);
            assertThat(r.status()).as("DELETE " + path + " with the token").isEqualTo(405);
        }
    }

    private String snapshot() {
        return views.runs() + "|" + views.statuses() + "|" + views.summaries + "|" + views.windows + "|" + views.wa
                + "|" + views.deadLetterCounts();
    }

    private static void connect(InetAddress address, int port) throws IOException {
        try (Socket s = new Socket()) {
            s.connect(new InetSocketAddress(address, port), 2000);
        }
    }

    private static Optional<InetAddress> nonLoopbackAddress() throws IOException {
        for (NetworkInterface nic : Collections.list(NetworkInterface.getNetworkInterfaces())) {
            if (!nic.isUp() || nic.isLoopback()) {
                continue;
            }
            for (InetAddress a : Collections.list(nic.getInetAddresses())) {
                if (a instanceof Inet4Address && !a.isLoopbackAddress() && !a.isLinkLocalAddress()) {
                    return Optional.of(a);
                }
            }
        }
        return Optional.empty();
    }
}
