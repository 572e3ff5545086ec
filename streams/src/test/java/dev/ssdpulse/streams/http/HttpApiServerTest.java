package dev.ssdpulse.streams.http;

import static dev.ssdpulse.streams.http.TestRecords.S;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.ssdpulse.schemas.SampleRecords;
import dev.ssdpulse.schemas.avro.IoOp;
import dev.ssdpulse.schemas.avro.WriteVerification;
import java.io.BufferedReader;
import java.io.InputStream;
import java.io.InputStreamReader;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/** The server's parsing, routing, errors, auth, CSV, metrics and forwarding over an in-memory RunViews. */
class HttpApiServerTest {
    private static final ObjectMapper JSON = new ObjectMapper();
    private final HttpClient client = HttpClient.newHttpClient();
    private final InMemoryRunViews views = new InMemoryRunViews();
    private HttpApiServer server;

    @BeforeEach
    void start() throws Exception {
        views.runs.put("r1", TestRecords.runStarted("r1", "first", 480_103_981_056L, 1_700_000_000_000_000_000L));
        views.statuses.put("r1", "RUNNING");
        for (int t = 0; t < 5; t++) {
            views.windows.add(TestRecords.window(
                    "r1", IoOp.READ, t < 2 ? 0 : 1, t * S, 1000 + t, t == 3 ? 60_000_000L : 2_000_000L));
            views.windows.add(TestRecords.window("r1", IoOp.WRITE, t < 2 ? 0 : 1, t * S, 400, 2_000_000L));
        }
        views.wa.put("r1", List.of(TestRecords.wa("r1", 0, S, 2.5)));
        views.deadLetters.put("ssdpulse.io.v1", 3L);
        server = new HttpApiServer(views, HttpApiConfig.localhost(0).withSsePollInterval(Duration.ofMillis(50)));
    }

    @AfterEach
    void stop() {
        server.close();
    }

    private HttpResponse<String> get(String path) throws Exception {
        return client.send(
                HttpRequest.newBuilder(server.url().resolve(path)).build(), HttpResponse.BodyHandlers.ofString());
    }

    private JsonNode json(String path, int expectedStatus) throws Exception {
        HttpResponse<String> r = get(path);
        assertThat(r.statusCode()).as(path + " -> " + r.body()).isEqualTo(expectedStatus);
        assertThat(r.headers().firstValue("Content-Type").orElse("")).startsWith("application/json");
        return JSON.readTree(r.body());
    }

    /**
     * Phases without I/O (the simulator's purge and fill, applied to the drive directly; an idle phase) take their
     * times from their neighbours instead of showing none.
     */
    @Test
    void phasesWithoutIoTakeTheirTimesFromTheirNeighbours() throws Exception {
        var run = TestRecords.runStarted("r2", "prepared", 480_103_981_056L, 1_700_000_000_000_000_000L);
        var plan = run.getWorkload().getPhases();
        var test = plan.get(1);
        run.getWorkload()
                .setPhases(List.of(
                        named(plan.get(0), 0, "purge", dev.ssdpulse.schemas.avro.PhaseKind.PURGE),
                        named(plan.get(0), 1, "fill", dev.ssdpulse.schemas.avro.PhaseKind.FILL),
                        named(test, 2, "test", dev.ssdpulse.schemas.avro.PhaseKind.TEST),
                        named(test, 3, "idle", dev.ssdpulse.schemas.avro.PhaseKind.IDLE),
                        named(test, 4, "test again", dev.ssdpulse.schemas.avro.PhaseKind.TEST)));
        views.runs.put("r2", run);
        for (int t = 0; t < 3; t++) {
            views.windows.add(TestRecords.window("r2", IoOp.WRITE, 2, t * S, 400, 2_000_000L));
        }
        views.windows.add(TestRecords.window("r2", IoOp.WRITE, 4, 5 * S, 400, 2_000_000L));
        JsonNode phases = json("/api/runs/r2/phases", 200).get("phases");
        assertThat(phases).hasSize(5);
        for (int i : new int[] {0, 1}) {
            assertThat(phases.get(i).get("startS").asDouble())
                    .as("prepared at once")
                    .isEqualTo(0.0);
            assertThat(phases.get(i).get("endS").asDouble()).isEqualTo(0.0);
            assertThat(phases.get(i).get("timesFromNeighbours").asBoolean()).isTrue();
        }
        assertThat(phases.get(2).get("timesFromNeighbours").asBoolean()).isFalse();
        assertThat(phases.get(3).get("startS").asDouble())
                .as("idle from the test's end")
                .isEqualTo(3.0);
        assertThat(phases.get(3).get("endS").asDouble())
                .as("to the next test's start")
                .isEqualTo(5.0);
    }

    private static dev.ssdpulse.schemas.avro.PhaseSpec named(
            dev.ssdpulse.schemas.avro.PhaseSpec base,
            int index,
            String name,
            dev.ssdpulse.schemas.avro.PhaseKind kind) {
        return dev.ssdpulse.schemas.avro.PhaseSpec.newBuilder(base)
                .setIndex(index)
                .setName(name)
                .setKind(kind)
                .build();
    }

    @Test
    void listsRunsWithCapacityInGbAndGibAndDurationFromTheLatestWindow() throws Exception {
        JsonNode runs = json("/api/runs", 200);
        assertThat(runs).hasSize(1);
        JsonNode r = runs.get(0);
        assertThat(r.get("runId").asText()).isEqualTo("r1");
        assertThat(r.get("status").asText()).isEqualTo("RUNNING");
        assertThat(r.get("producerKind").asText()).isEqualTo("SIMULATOR");
        assertThat(r.get("device").get("capacityText").asText()).isEqualTo("480.10 GB (447.13 GiB)");
        assertThat(r.get("workload").asText()).isEqualTo("4k-random-70-30");
        assertThat(r.get("durationS").asDouble()).isEqualTo(5.0);
        assertThat(r.get("start").asText()).isEqualTo("2023-11-14T22:13:20Z");
    }

    @Test
    void seriesFiltersByOpAndTimeAndGivesLatencyInMs() throws Exception {
        JsonNode s = json("/api/runs/r1/series?op=read&from=1&to=3.5", 200);
        assertThat(s.get("latencyUnit").asText()).isEqualTo("ms");
        assertThat(s.get("ops").has("WRITE")).isFalse();
        JsonNode reads = s.get("ops").get("READ");
        assertThat(reads).hasSize(3);
        assertThat(reads.get(0).get("t").asDouble()).isEqualTo(1.0);
        assertThat(reads.get(2).get("latencyMs").get("max").asDouble()).isEqualTo(60.0);
        assertThat(reads.get(0).get("bins")).hasSize(21);
        assertThat(s.get("binUpperBoundsMs").get(7).asDouble()).isEqualTo(10.0);
        assertThat(json("/api/runs/r1/series", 200).get("ops").get("WRITE")).hasSize(5);
    }

    @Test
    void badParametersAre400NamingTheParameter() throws Exception {
        assertThat(json("/api/runs/r1/series?op=READS", 400).get("error").asText())
                .contains("'op'")
                .contains("READS");
        assertThat(json("/api/runs/r1/series?from=abc", 400).get("error").asText())
                .contains("'from'");
        assertThat(json("/api/runs/r1/series?to=-1", 400).get("error").asText()).contains("'to'");
        assertThat(json("/api/runs/r1/series?from=5&to=2", 400).get("error").asText())
                .contains("'from'");
        assertThat(json("/api/runs/r1/series.csv?from=NaN", 400).get("status").asInt())
                .isEqualTo(400);
        assertThat(json("/api/runs/r1/events?op=X", 400).get("error").asText()).contains("'op'");
    }

    @Test
    void unknownRunsAndPathsAre404AndNeverLeakAStackTrace() throws Exception {
        assertThat(json("/api/runs/nope", 404).get("error").asText()).isEqualTo("unknown run 'nope'");
        assertThat(json("/api/runs/nope/series", 404).get("status").asInt()).isEqualTo(404);
        assertThat(json("/api/runs/r1/bogus", 404).get("error").asText()).contains("no such API path");
        assertThat(json("/api/whatever", 404).get("status").asInt()).isEqualTo(404);
        // Jetty refuses a path climbing above the root itself, before any route, as a bad request
        assertThat(json("/../etc/passwd", 400).get("status").asInt()).isEqualTo(400);
        assertThat(json("/api/runs/r1/summary", 404).get("error").asText())
                .contains("no summary yet")
                .contains("RUNNING");
        assertThat(json("/api/runs/r1/summary.csv", 404).get("status").asInt()).isEqualTo(404);
    }

    @Test
    void onlyGetAndHeadAreAllowed() throws Exception {
        HttpResponse<String> post = client.send(
                HttpRequest.newBuilder(server.url().resolve("/api/runs"))
                        .POST(HttpRequest.BodyPublishers.ofString("{}"))
                        .build(),
                HttpResponse.BodyHandlers.ofString());
        assertThat(post.statusCode()).isEqualTo(405);
        assertThat(post.headers().firstValue("Allow")).contains("GET, HEAD");
        assertThat(JSON.readTree(post.body()).get("status").asInt()).isEqualTo(405);
        HttpResponse<String> delete = client.send(
                HttpRequest.newBuilder(server.url().resolve("/api/runs/r1"))
                        .DELETE()
                        .build(),
                HttpResponse.BodyHandlers.ofString());
        assertThat(delete.statusCode()).isEqualTo(405);
        HttpResponse<String> head = client.send(
                HttpRequest.newBuilder(server.url().resolve("/api/runs/r1"))
                        .method("HEAD", HttpRequest.BodyPublishers.noBody())
                        .build(),
                HttpResponse.BodyHandlers.ofString());
        assertThat(head.statusCode()).isEqualTo(200);
        assertThat(head.body()).isEmpty();
    }

    @Test
    void summaryJsonAndCsvOnceTheSummaryExists() throws Exception {
        views.summaries.put("r1", TestRecords.summary("r1", 1000));
        JsonNode s = json("/api/runs/r1/summary", 200);
        assertThat(s.get("status").asText()).isEqualTo("COMPLETED");
        assertThat(s.get("device").asText()).contains("480.10 GB (447.13 GiB)");
        assertThat(s.get("ops").get(0).get("countAtOrAbove").get("10ms").asLong())
                .isEqualTo(3);
        assertThat(s.get("writeAmplification").get("cumulative").asDouble()).isEqualTo(2.5);
        HttpResponse<String> csv = get("/api/runs/r1/summary.csv");
        assertThat(csv.headers().firstValue("Content-Type").orElse("")).startsWith("text/csv");
        String[] lines = csv.body().split("\r\n");
        assertThat(lines[0])
                .startsWith("run_id,status,scope,phase_index,phase_name,op,io_count,bytes,iops,mb_per_s,"
                        + "errors,latency_mean_us,")
                .contains("count_ge_10ms")
                .endsWith(",wa");
        assertThat(lines[1]).startsWith("r1,COMPLETED,run,,,READ,1000,");
        assertThat(lines[1]).endsWith(",3,3,2,1,0,2.5");
    }

    @Test
    void seriesCsvHasOneRowPerWindowAndNamedBins() throws Exception {
        String[] lines = get("/api/runs/r1/series.csv?op=WRITE").body().split("\r\n");
        assertThat(lines).hasSize(6);
        assertThat(lines[0])
                .startsWith(
                        "window_start_s,op,phase,io_count,window_s,bytes,iops,mb_per_s,errors," + "latency_mean_us,")
                .contains(",bin_le_50us,")
                .endsWith(",bin_gt_10s");
        assertThat(lines[1]).startsWith("0,WRITE,0,400,1,1638400,400,1.6384,0,1500,");
    }

    @Test
    void detailWaPhasesSteadyStateAndDeadLetters() throws Exception {
        JsonNode d = json("/api/runs/r1", 200);
        assertThat(d.get("run").get("host").get("ioScheduler").asText()).isEqualTo("mq-deadline");
        assertThat(d.get("run").get("workload").get("phases")).hasSize(2);
        assertThat(d.get("hasSummary").asBoolean()).isFalse();
        JsonNode phases = json("/api/runs/r1/phases", 200);
        assertThat(phases.get("source").asText()).isEqualTo("windows");
        assertThat(phases.get("phases").get(1).get("startS").asDouble()).isEqualTo(2.0);
        assertThat(phases.get("phases").get(1).get("endS").asDouble()).isEqualTo(5.0);
        assertThat(json("/api/runs/r1/wa", 200)
                        .get("intervals")
                        .get(0)
                        .get("waCumulative")
                        .asDouble())
                .isEqualTo(2.5);
        assertThat(json("/api/runs/r1/steady-state", 200).get("verdicts")).isEmpty();
        assertThat(json("/api/dead-letters", 200)
                        .get("countsBySourceTopic")
                        .get("ssdpulse.io.v1")
                        .asLong())
                .isEqualTo(3);
    }

    @Test
    void aRunsPowerLossVerificationOnceItHasOne() throws Exception {
        assertThat(get("/api/runs/r1/verification").statusCode())
                .as("a known run without one: no content")
                .isEqualTo(204);
        WriteVerification v = SampleRecords.writeVerification();
        v.setRunId("r1");
        views.verifications.put("r1", v);
        JsonNode j = json("/api/runs/r1/verification", 200);
        assertThat(j.get("classes").get("reverted").asLong()).isEqualTo(250);
        assertThat(j.get("models").get(1).get("model").asText()).isEqualTo("FLUSHED");
        assertThat(j.get("models").get(1).get("lostUnits").asLong()).isEqualTo(3);
        assertThat(j.get("worstCases").get(0).get("found").asText()).isEqualTo("REVERTED");
        assertThat(j.get("powerCounters").get("unsafeShutdownsAfter").asLong()).isEqualTo(42);
        assertThat(j.get("coverage").get("lastFlushSubmitNs").asLong()).isEqualTo(3_599_990_000_000L);
        json("/api/runs/nope/verification", 404);
    }

    @Test
    void metricsExposePerRunGaugesInThePrometheusFormat() throws Exception {
        HttpResponse<String> r = get("/metrics");
        assertThat(r.statusCode()).isEqualTo(200);
        assertThat(r.headers().firstValue("Content-Type").orElse("")).startsWith("text/plain");
        assertThat(r.body())
                .contains("ssdpulse_run_iops{op=\"READ\",run_id=\"r1\"} 1004.0")
                .contains("ssdpulse_run_latency_max_seconds{op=\"READ\",run_id=\"r1\"} 0.002")
                .contains("ssdpulse_run_status{run_id=\"r1\",status=\"RUNNING\"} 1.0")
                .contains("ssdpulse_run_write_amplification{run_id=\"r1\"} 2.5")
                .contains("ssdpulse_dead_letter_records{source=\"ssdpulse.io.v1\"} 3.0");
        // a lone instance: its cluster scope is its own exposition
        assertThat(get("/metrics?scope=cluster").body())
                .isEqualTo(get("/metrics?scope=instance").body())
                .isEqualTo(r.body());
        assertThat(json("/metrics?scope=everything", 400).get("error").asText())
                .isEqualTo("parameter 'scope': 'everything' is not one of instance, cluster");
    }

    @Test
    void aBearerTokenGuardsTheApiAndMetricsButNotThePage() throws Exception {
        server.close();
        server = new HttpApiServer(views, HttpApiConfig.localhost(0).withBearerToken("s3cret"));
        assertThat(json("/api/runs", 401).get("error").asText()).contains("Bearer");
        assertThat(get("/metrics").statusCode()).isEqualTo(401);
        HttpResponse<String> wrong = client.send(
                HttpRequest.newBuilder(server.url().resolve("/api/runs"))
                        .header("Authorization", "Bearer nope")
                        .build(),
                HttpResponse.BodyHandlers.ofString());
        assertThat(wrong.statusCode()).isEqualTo(401);
        HttpResponse<String> ok = client.send(
                HttpRequest.newBuilder(server.url().resolve("/api/runs"))
                        .header("Authorization", "Bearer s3cret")
                        .build(),
                HttpResponse.BodyHandlers.ofString());
        assertThat(ok.statusCode()).isEqualTo(200);
        assertThat(get("/api/runs?access_token=s3cret").statusCode()).isEqualTo(200);
        assertThat(get("/").statusCode()).isEqualTo(200);
    }

    @Test
    void servesTheDashboardFromTheJar() throws Exception {
        HttpResponse<String> page = get("/");
        assertThat(page.headers().firstValue("Content-Type").orElse("")).startsWith("text/html");
        assertThat(page.body())
                .contains("<canvas id=\"chart-iops\"")
                .doesNotContain("http://")
                .doesNotContain("https://");
        assertThat(get("/app.js").headers().firstValue("Content-Type").orElse(""))
                .startsWith("text/javascript");
        assertThat(get("/API.md").body()).contains("| GET | `/api/runs` |");
    }

    @Test
    void eventsStreamWindowsAsTheyAppearAndStatusChanges() throws Exception {
        HttpResponse<InputStream> r = client.send(
                HttpRequest.newBuilder(server.url().resolve("/api/runs/r1/events?op=READ&from=4"))
                        .build(),
                HttpResponse.BodyHandlers.ofInputStream());
        assertThat(r.headers().firstValue("Content-Type").orElse("")).startsWith("text/event-stream");
        try (BufferedReader in = new BufferedReader(new InputStreamReader(r.body(), StandardCharsets.UTF_8))) {
            assertThat(nextEvent(in))
                    .containsEntry("event", "window")
                    .extractingByKey("data")
                    .asString()
                    .contains("\"t\":4.0")
                    .contains("\"op\":\"READ\"");
            assertThat(nextEvent(in)).containsEntry("event", "wa");
            assertThat(nextEvent(in)).containsEntry("event", "status");
            views.windows.add(TestRecords.window("r1", IoOp.READ, 1, 5 * S, 999, 2_000_000L));
            views.statuses.put("r1", "COMPLETED");
            assertThat(nextEvent(in).get("data")).contains("\"t\":5.0").contains("\"ioCount\":999");
            assertThat(nextEvent(in).get("data")).contains("COMPLETED");
        }
    }

    @Test
    void aRunOwnedByAnotherInstanceIsForwardedThereOnce() throws Exception {
        InMemoryRunViews otherViews = new InMemoryRunViews();
        otherViews.runs.put("r2", TestRecords.runStarted("r2", "remote", 1L << 30, 0));
        otherViews.statuses.put("r2", "COMPLETED");
        try (HttpApiServer other = new HttpApiServer(otherViews, HttpApiConfig.localhost(0))) {
            String otherHost = "127.0.0.1:" + other.port();
            otherViews.owners.put("r2", otherHost);
            views.owners.put("r2", otherHost);
            server.close();
            server = new HttpApiServer(views, HttpApiConfig.localhost(0).withAdvertisedHost("127.0.0.1:1"));
            HttpResponse<String> r = get("/api/runs/r2");
            assertThat(r.statusCode()).isEqualTo(200);
            assertThat(r.headers().firstValue(HttpApiServer.FORWARDED_HEADER)).contains(otherHost);
            assertThat(JSON.readTree(r.body()).get("run").get("runName").asText())
                    .isEqualTo("remote");
            assertThat(json("/api/runs/r2/series?op=BAD", 400).get("error").asText())
                    .contains("'op'");
            // the run list and dead letters gather every instance's share; a silent instance is named
            otherViews.deadLetters.put("ssdpulse.io.v1", 4L);
            views.instances.addAll(List.of(otherHost, "127.0.0.1:1", "127.0.0.1:3"));
            HttpResponse<String> list = get("/api/runs");
            assertThat(JSON.readTree(list.body()).findValuesAsText("runId")).containsExactly("r1", "r2");
            assertThat(list.headers().firstValue("X-Ssdpulse-Missing-Instances"))
                    .contains("127.0.0.1:3");
            assertThat(json("/api/dead-letters", 200)
                            .get("countsBySourceTopic")
                            .get("ssdpulse.io.v1")
                            .asLong())
                    .isEqualTo(7);
            // the owner is gone: 502 with a JSON error, not a hang or a stack trace
            views.owners.put("r2", "127.0.0.1:1");
            server.close();
            server = new HttpApiServer(views, HttpApiConfig.localhost(0).withAdvertisedHost("127.0.0.1:2"));
            assertThat(json("/api/runs/r2", 502).get("error").asText()).contains("unreachable");
        }
    }

    @Test
    void configRefusesBadValues() {
        assertThatThrownBy(() -> HttpApiConfig.localhost(70000)).hasMessageContaining("port");
        assertThatThrownBy(() -> HttpApiConfig.localhost(0).withBearerToken(" "))
                .hasMessageContaining("bearerToken");
        assertThat(SeriesQuery.parse(Map.of("from", "1.5")).fromNs()).isEqualTo(1_500_000_000L);
        // absent: every window, also a run group's before its time 0 (a member that started before the one that
        // joined first)
        assertThat(SeriesQuery.parse(Map.of()).fromNs()).isEqualTo(Long.MIN_VALUE);
    }

    private static Map<String, String> nextEvent(BufferedReader in) throws Exception {
        String event = null;
        StringBuilder data = new StringBuilder();
        String line;
        while ((line = in.readLine()) != null) {
            if (line.isEmpty()) {
                if (event != null) {
                    return Map.of("event", event, "data", data.toString());
                }
                continue;
            }
            if (line.startsWith("event: ")) {
                event = line.substring(7);
            } else if (line.startsWith("data: ")) {
                data.append(line.substring(6));
            }
        }
        throw new AssertionError("stream ended");
    }
}
