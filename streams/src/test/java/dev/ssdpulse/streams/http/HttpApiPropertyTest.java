package dev.ssdpulse.streams.http;

import static dev.ssdpulse.streams.http.TestRecords.S;
import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.ssdpulse.schemas.avro.IoOp;
import java.io.UncheckedIOException;
import java.net.URLEncoder;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.List;
import java.util.Locale;
import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.Combinators;
import net.jqwik.api.Example;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;
import net.jqwik.api.lifecycle.AfterContainer;
import net.jqwik.api.lifecycle.BeforeContainer;

/**
 * Hostile requests against a real HttpApiServer (ephemeral port, in-memory views): random paths, percent
 * escapes, run ids, query strings, ranges and numbers. Every answer is a 200 or a clean 4xx with the JSON
 * error body {"error", "status"}; never a 500, never a dropped connection, never a hang (10 s socket timeout
 * per request), and the server keeps answering.
 */
class HttpApiPropertyTest {
    private static final ObjectMapper JSON = new ObjectMapper();
    private static final double MAX_SECONDS = Long.MAX_VALUE / 1e9;
    private static InMemoryRunViews views;
    private static HttpApiServer server;

    @BeforeContainer
    static void start() throws Exception {
        views = new InMemoryRunViews();
        views.runs.put("r1", TestRecords.runStarted("r1", "first", 480_103_981_056L, 1_700_000_000_000_000_000L));
        views.statuses.put("r1", "COMPLETED");
        views.summaries.put("r1", TestRecords.summary("r1", 1000));
        for (int t = 0; t < 5; t++) {
            views.windows.add(TestRecords.window("r1", IoOp.READ, t < 2 ? 0 : 1, t * S, 1000 + t, 2_000_000L));
            views.windows.add(TestRecords.window("r1", IoOp.WRITE, t < 2 ? 0 : 1, t * S, 400, 2_000_000L));
        }
        views.wa.put("r1", List.of(TestRecords.wa("r1", 0, S, 2.5)));
        views.deadLetters.put("ssdpulse.io.v1", 3L);
        server = new HttpApiServer(views, HttpApiConfig.localhost(0).withSsePollInterval(Duration.ofMillis(20)));
    }

    @AfterContainer
    static void stop() {
        server.close();
    }

    @Property(tries = 400)
    void uriLegalTargetsGetA200OrACleanJsonError(@ForAll("legalTargets") String target) throws Exception {
        RawHttp.Response r = RawHttp.send(server.port(), "GET", target);
        assertCleanAnswer(target, r);
        if (r.status() >= 400 && r.status() != 503) {
            assertThat(r.status()).as(target).isIn(400, 404);
        }
    }

    @Property(tries = 400)
    void arbitraryRequestTargetsNeverBreakTheServer(@ForAll("garbageTargets") String target) throws Exception {
        boolean originForm = target.startsWith("/") && !target.startsWith("//");
        RawHttp.Response r;
        try {
            r = RawHttp.send(server.port(), "GET", target);
        } catch (UncheckedIOException closed) {
            // a target that is not origin-form (a URI with a scheme, "*"): the server may drop the connection
            // without an answer before any handler runs; only that case may go unanswered
            assertThat(originForm).as(target + ": " + closed.getMessage()).isFalse();
            assertThat(RawHttp.send(server.port(), "GET", "/api/runs").status())
                    .as("still serving")
                    .isEqualTo(200);
            return;
        }
        assertThat(r.status()).as(target + " -> " + r.body()).isLessThan(500);
        if (!r.isJson() && r.status() >= 400) {
            // Jetty answers by itself, before any route runs, a target it cannot parse or normalise (400); a
            // 404 without the API's JSON body may only come for a target without an absolute path
            assertThat(r.status()).as(target).isIn(400, 404);
            if (r.status() == 404) {
                assertThat(originForm)
                        .as(target + ": an absolute path must reach the API")
                        .isFalse();
            }
        } else {
            assertCleanAnswer(target, r);
        }
        assertThat(RawHttp.send(server.port(), "GET", "/api/runs").status())
                .as("still serving")
                .isEqualTo(200);
    }

    @Example
    void aTargetWithASchemeAndNoPathFoundByTheGeneratorStillLeavesTheServerServing() throws Exception {
        arbitraryRequestTargetsNeverBreakTheServer("A:!");
    }

    @Example
    void aBadEscapeInAPathParameterFoundByTheGeneratorIsA400NotA500() throws Exception {
        arbitraryRequestTargetsNeverBreakTheServer("/;%");
    }

    @Property(tries = 500)
    void unknownRunIdsAre404NamingTheRun(@ForAll("runIds") String runId, @ForAll("runSubPaths") String sub)
            throws Exception {
        // a path is not a form: '+' is a literal plus there, a space is %20
        String target =
                "/api/runs/" + URLEncoder.encode(runId, StandardCharsets.UTF_8).replace("+", "%20") + sub;
        RawHttp.Response r = RawHttp.send(server.port(), "GET", target);
        assertCleanAnswer(target, r);
        assertThat(r.status()).as(target).isEqualTo(404);
        assertThat(JSON.readTree(r.body()).get("error").asText()).isEqualTo("unknown run '" + runId + "'");
    }

    @Property(tries = 800)
    void seriesParametersAreValidatedExactly(
            @ForAll("paramValues") String from,
            @ForAll("paramValues") String to,
            @ForAll("opValues") String op,
            @ForAll("seriesPaths") String path)
            throws Exception {
        StringBuilder q = new StringBuilder();
        append(q, "from", from);
        append(q, "to", to);
        append(q, "op", op);
        String target = path + (q.length() == 0 ? "" : "?" + q);
        RawHttp.Response r = RawHttp.send(server.port(), "GET", target);
        assertCleanAnswer(target, r);
        String problem = expectedProblem(from, to, op);
        if (problem == null) {
            assertThat(r.status()).as(target + " -> " + r.body()).isEqualTo(200);
        } else {
            assertThat(r.status()).as(target + " -> " + r.body()).isEqualTo(400);
            assertThat(JSON.readTree(r.body()).get("error").asText())
                    .as(target)
                    .startsWith("parameter '" + problem + "'");
        }
    }

    // ---- checks ----

    private static void assertCleanAnswer(String target, RawHttp.Response r) throws Exception {
        if (r.status() == 503 && target.contains("/events")) {
            // live streams are capped (maxSseClients); the streams this test opened and dropped hold their
            // slots until the next keepalive write fails
            assertThat(JSON.readTree(r.body()).get("error").asText()).contains("too many live streams");
            return;
        }
        assertThat(r.status()).as(target + " -> " + r.body()).isNotEqualTo(500).isBetween(200, 499);
        if (r.status() >= 400) {
            assertThat(r.isJson())
                    .as(target + ": JSON error body, got " + r.headers())
                    .isTrue();
            JsonNode body = JSON.readTree(r.body());
            assertThat(body.get("status").asInt()).isEqualTo(r.status());
            assertThat(body.get("error").asText())
                    .isNotBlank()
                    .doesNotContain("Exception")
                    .doesNotContain("\tat ");
        } else if (r.isJson()) {
            assertThat(JSON.readTree(r.body())).as(target).isNotNull();
        }
    }

    /** The parameter the server must name, or null when the query is valid (SeriesQuery's documented rules). */
    private static String expectedProblem(String from, String to, String op) {
        if (op != null) {
            try {
                IoOp.valueOf(op.trim().toUpperCase(Locale.ROOT));
            } catch (IllegalArgumentException e) {
                return "op";
            }
        }
        Long fromNs = seconds(from, 0L);
        if (fromNs == null) {
            return "from";
        }
        Long toNs = seconds(to, Long.MAX_VALUE);
        if (toNs == null) {
            return "to";
        }
        return fromNs > toNs ? "from" : null;
    }

    private static Long seconds(String text, long absent) {
        if (text == null) {
            return absent;
        }
        double s;
        try {
            s = Double.parseDouble(text.trim());
        } catch (NumberFormatException e) {
            return null;
        }
        if (!Double.isFinite(s) || s < 0 || s > MAX_SECONDS) {
            return null;
        }
        return Math.round(s * 1e9);
    }

    private static void append(StringBuilder q, String name, String value) {
        if (value == null) {
            return;
        }
        if (q.length() > 0) {
            q.append('&');
        }
        q.append(name).append('=').append(URLEncoder.encode(value, StandardCharsets.UTF_8));
    }

    // ---- generators ----

    private static final String UNRESERVED = "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789-._~";
    private static final String SUB_DELIMS = "!$&'()*+,;=:@";

    /** Targets java.net.URI accepts: unreserved and sub-delimiter characters, '/', and valid %XX escapes. */
    @Provide
    Arbitrary<String> legalTargets() {
        Arbitrary<String> escape = Arbitraries.integers().between(0, 255).map(b -> String.format("%%%02X", b));
        Arbitrary<String> piece = Arbitraries.oneOf(
                Arbitraries.strings()
                        .withChars(UNRESERVED + SUB_DELIMS + "/")
                        .ofMinLength(1)
                        .ofMaxLength(8),
                escape,
                Arbitraries.of(
                        "r1",
                        "runs",
                        "api",
                        "summary",
                        "summary.csv",
                        "series",
                        "series.csv",
                        "steady-state",
                        "wa",
                        "phases",
                        "events",
                        "dead-letters",
                        "metrics",
                        "..",
                        ".",
                        "//",
                        "%2F",
                        "%00",
                        "%FF",
                        "%C3%A9",
                        "+"));
        Arbitrary<String> path = piece.list().ofMaxSize(6).map(ps -> String.join("", ps));
        Arbitrary<String> prefix = Arbitraries.of(
                "/",
                "/api/",
                "/api/runs/",
                "/api/runs/r1/",
                "/api/runs/r1",
                "/metrics",
                "/api/dead-letters",
                "/api/runs/r1/series",
                "/api/runs/r1/events",
                "/API.md");
        Arbitrary<String> query = Arbitraries.oneOf(
                Arbitraries.just(""),
                piece.list().ofMaxSize(5).map(ps -> "?" + String.join("", ps)),
                Combinators.combine(Arbitraries.of("from", "to", "op", "access_token", "x", ""), piece)
                        .as((k, v) -> "?" + k + "=" + v));
        // "//x" would be an authority, not a path: the server answers that itself (see garbage targets)
        return Combinators.combine(prefix, path, query)
                .as((a, b, c) -> a + b + c)
                .filter(t -> !t.startsWith("//"));
    }

    /** Anything printable without a space: may be an invalid URI (bad escapes, braces, quotes, backslashes). */
    @Provide
    Arbitrary<String> garbageTargets() {
        Arbitrary<String> printable =
                Arbitraries.strings().withCharRange('!', '~').ofMaxLength(60);
        return Combinators.combine(
                        Arbitraries.of(
                                "/",
                                "/api/",
                                "/api/runs/",
                                "/api/runs/r1/",
                                "/metrics?",
                                "",
                                "*",
                                "http://127.0.0.1/api/runs/"),
                        printable)
                .as((a, b) -> a + b)
                .filter(s -> !s.isEmpty());
    }

    @Provide
    Arbitrary<String> runIds() {
        return Arbitraries.oneOf(
                        Arbitraries.strings().ofMinLength(1).ofMaxLength(40),
                        Arbitraries.strings()
                                .withChars("/%+ ?#&=.\\\"'<>{}|^`\u00e9\u4e2d\ud83d\ude00")
                                .ofMinLength(1)
                                .ofMaxLength(12),
                        Arbitraries.of("..", ".", "r1 ", " r1", "R1", "r1/", "%", "%2F"))
                .filter(id -> !id.equals("r1"))
                // Jetty refuses an encoded NUL in a path (400) before any route runs
                .filter(id -> id.indexOf('\u0000') < 0)
                .filter(id -> new String(id.getBytes(StandardCharsets.UTF_8), StandardCharsets.UTF_8).equals(id));
    }

    @Provide
    Arbitrary<String> runSubPaths() {
        return Arbitraries.of(
                "", "/summary", "/summary.csv", "/series", "/series.csv", "/steady-state", "/wa", "/phases", "/events");
    }

    @Provide
    Arbitrary<String> seriesPaths() {
        return Arbitraries.of("/api/runs/r1/series", "/api/runs/r1/series.csv");
    }

    @Provide
    Arbitrary<String> paramValues() {
        return Arbitraries.oneOf(
                        Arbitraries.of(
                                "0",
                                "1",
                                "2.5",
                                " 3 ",
                                "-0",
                                "-1",
                                "1e3",
                                "1E-9",
                                "1e-10",
                                "9.3e9",
                                "9.22e9",
                                "9.3e18",
                                "1e308",
                                "1e309",
                                "NaN",
                                "Infinity",
                                "-Infinity",
                                "0x10",
                                "0x1p3",
                                "1_000",
                                "",
                                " ",
                                "abc",
                                "1d",
                                "2f",
                                "\u0661",
                                "+4",
                                "00000000000000000000000000000001",
                                "9223372036.854775807",
                                "9223372036.854775808",
                                "%",
                                "\u0000"),
                        Arbitraries.doubles().between(0, 20).map(d -> String.valueOf(d)),
                        Arbitraries.longs().map(l -> String.valueOf(l)),
                        Arbitraries.strings().ofMaxLength(10))
                .injectNull(0.25);
    }

    @Provide
    Arbitrary<String> opValues() {
        return Arbitraries.oneOf(
                        Arbitraries.of(
                                "READ", "read", " Write ", "TRIM", "flush", "READS", "", "0", "1", "r\u0130ad", "ALL"),
                        Arbitraries.strings().ofMaxLength(6))
                .injectNull(0.4);
    }
}
