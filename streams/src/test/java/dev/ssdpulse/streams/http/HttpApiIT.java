package dev.ssdpulse.streams.http;

import static dev.ssdpulse.streams.http.TestRecords.S;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.ssdpulse.platform.TopicCreation;
import dev.ssdpulse.platform.testing.KafkaTestEnvironment;
import dev.ssdpulse.platform.testing.TestStack;
import dev.ssdpulse.schemas.avro.RunSummary;
import dev.ssdpulse.schemas.avro.WindowMetrics;
import dev.ssdpulse.schemas.topics.Topics;
import dev.ssdpulse.streams.analysis.AnalysisSettings;
import dev.ssdpulse.streams.app.AnalyticsApp;
import dev.ssdpulse.streams.app.AnalyticsConfig;
import java.io.BufferedReader;
import java.io.InputStream;
import java.io.InputStreamReader;
import java.net.ServerSocket;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.UUID;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.serialization.ByteArraySerializer;
import org.apache.kafka.common.serialization.StringSerializer;
import org.apache.kafka.streams.errors.InvalidStateStoreException;
import org.assertj.core.data.Offset;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * Every endpoint against a real AnalyticsApp on the embedded broker: one run published and completed, then
 * queried over HTTP and compared with the views it is served from.
 */
@ExtendWith(KafkaTestEnvironment.class)
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class HttpApiIT {
    private static final ObjectMapper JSON = new ObjectMapper();
    private final HttpClient client = HttpClient.newHttpClient();
    private final String runId = "api-it-" + UUID.randomUUID();
    private long publishedIos;
    private Path stateDir;
    private AnalyticsApp app;
    private HttpApiServer server;
    private String self;

    @BeforeAll
    void start(TestStack stack) throws Exception {
        int port;
        try (ServerSocket s = new ServerSocket(0)) {
            port = s.getLocalPort();
        }
        self = "127.0.0.1:" + port;
        stateDir = Files.createTempDirectory("http-api-it-");
        AnalyticsConfig config = AnalyticsConfig.defaults(stack.bootstrapServers(), stack.schemaRegistryUrl(), stateDir)
                .withApplicationId("http-api-it-" + UUID.randomUUID())
                .withSteadyState(5 * S, AnalysisSettings.DEFAULT_FIO_CRITERIA)
                .withExtraProperties(Map.of("application.server", self));
        TopicCreation.createCatalogueIfMissing(config.bootstrapServers(), (short) 1);
        publishedIos = TestRunPublisher.publish(stack, runId, "api test run", 20, 200, 11);
        try (KafkaProducer<String, byte[]> raw = new KafkaProducer<>(
                Map.of("bootstrap.servers", stack.bootstrapServers()),
                new StringSerializer(),
                new ByteArraySerializer())) {
            raw.send(new ProducerRecord<>(
                            Topics.IO.name(), "poison-" + runId, "not avro".getBytes(StandardCharsets.UTF_8)))
                    .get();
        }
        app = new AnalyticsApp(config);
        app.start();
        app.awaitRunning(Duration.ofSeconds(60));
        server = HttpApiServer.start(app, HttpApiConfig.localhost(port));
        // The run-started view fills from its own topic, independently of the summary: wait for both.
        await().atMost(Duration.ofSeconds(90))
                .ignoreException(InvalidStateStoreException.class)
                .until(() -> app.views().summary(runId).isPresent()
                        && app.views().run(runId).isPresent());
    }

    @AfterAll
    void stop() {
        if (server != null) {
            server.close();
        }
        if (app != null) {
            app.close();
        }
    }

    private HttpResponse<String> get(String path) throws Exception {
        return client.send(
                HttpRequest.newBuilder(server.url().resolve(path)).build(), HttpResponse.BodyHandlers.ofString());
    }

    private JsonNode json(String path, int status) throws Exception {
        HttpResponse<String> r = get(path);
        assertThat(r.statusCode()).as(path + " -> " + r.body()).isEqualTo(status);
        assertThat(r.headers().firstValue(HttpApiServer.FORWARDED_HEADER))
                .as("served locally")
                .isEmpty();
        return JSON.readTree(r.body());
    }

    @Test
    void runsListAndDetail() throws Exception {
        JsonNode run = null;
        for (JsonNode r : json("/api/runs", 200)) {
            if (r.get("runId").asText().equals(runId)) {
                run = r;
            }
        }
        assertThat(run).as("run listed").isNotNull();
        assertThat(run.get("status").asText()).isEqualTo("COMPLETED");
        assertThat(run.get("ioCount").asLong()).isEqualTo(publishedIos);
        assertThat(run.get("durationS").asDouble()).isEqualTo(20.0);
        assertThat(run.get("device").get("capacityText").asText()).isEqualTo("480.10 GB (447.13 GiB)");
        assertThat(run.get("producerKind").asText()).isEqualTo("SIMULATOR");
        JsonNode detail = json("/api/runs/" + runId, 200);
        assertThat(detail.get("run").get("workload").get("phases")).hasSize(2);
        assertThat(detail.get("run").get("host").get("ioScheduler").asText()).isEqualTo("mq-deadline");
        assertThat(json("/api/runs/no-such-run", 404).get("error").asText()).contains("no-such-run");
        assertThat(json("/api/runs/no-such-run/summary", 404).get("status").asInt())
                .isEqualTo(404);
    }

    @Test
    void summaryJsonAndCsv() throws Exception {
        RunSummary s = app.views().summary(runId).orElseThrow();
        JsonNode j = json("/api/runs/" + runId + "/summary", 200);
        assertThat(j.get("ioCount").asLong()).isEqualTo(publishedIos).isEqualTo(s.getIoCount());
        assertThat(j.get("status").asText()).isEqualTo("COMPLETED");
        assertThat(j.get("phases")).hasSize(2);
        assertThat(j.get("ops").get(0).get("latencyBins")).hasSize(21);
        String csv = get("/api/runs/" + runId + "/summary.csv").body();
        assertThat(csv.split("\r\n"))
                .hasSize(1
                        + s.getOps().size()
                        + s.getPhases().stream()
                                .mapToInt(p -> p.getOps().size())
                                .sum());
    }

    @Test
    void seriesMatchesTheViewsAndRefusesBadParameters() throws Exception {
        List<WindowMetrics> reads = app.views().series(runId, 0, 0, Long.MAX_VALUE);
        JsonNode s = json("/api/runs/" + runId + "/series?op=READ", 200);
        JsonNode points = s.get("ops").get("READ");
        assertThat(points).hasSize(reads.size()).hasSize(20);
        long ios = 0;
        for (JsonNode p : points) {
            ios += p.get("ioCount").asLong();
        }
        assertThat(ios)
                .isEqualTo(reads.stream().mapToLong(WindowMetrics::getIoCount).sum());
        assertThat(points.get(3).get("latencyMs").get("p99").asDouble())
                .isEqualTo(reads.get(3).getLatency().getPercentiles().getP99Ns() / 1e6);
        assertThat(json("/api/runs/" + runId + "/series?from=5&to=9", 200)
                        .get("ops")
                        .get("WRITE"))
                .hasSize(5);
        assertThat(get("/api/runs/" + runId + "/series.csv?op=READ").body().split("\r\n"))
                .hasSize(21);
        assertThat(json("/api/runs/" + runId + "/series?op=WRIT", 400)
                        .get("error")
                        .asText())
                .contains("'op'");
        assertThat(json("/api/runs/" + runId + "/series?from=9&to=5", 400)
                        .get("error")
                        .asText())
                .contains("'from'");
        assertThat(json("/api/runs/" + runId + "/series.csv?to=x", 400)
                        .get("error")
                        .asText())
                .contains("'to'");
    }

    @Test
    void steadyStateWaPhasesAndDeadLetters() throws Exception {
        assertThat(json("/api/runs/" + runId + "/steady-state", 200).get("verdicts"))
                .isNotEmpty();
        JsonNode wa = json("/api/runs/" + runId + "/wa", 200).get("intervals");
        assertThat(wa).hasSize(app.views().waSeries(runId).size()).isNotEmpty();
        assertThat(wa.get(wa.size() - 1).get("waCumulative").asDouble()).isGreaterThan(2.0);
        JsonNode phases = json("/api/runs/" + runId + "/phases", 200);
        assertThat(phases.get("source").asText()).isEqualTo("summary");
        assertThat(phases.get("phases").get(1).get("name").asText()).isEqualTo("test");
        assertThat(phases.get("phases").get(1).get("startS").asDouble()).isCloseTo(6.0, Offset.offset(0.01));
        await().atMost(Duration.ofSeconds(30))
                .ignoreException(InvalidStateStoreException.class)
                .until(() -> json("/api/dead-letters", 200)
                                .get("countsBySourceTopic")
                                .path(Topics.IO.name())
                                .asLong()
                        >= 1);
    }

    @Test
    void eventsReplayTheWindowsThenStatusAndSummary() throws Exception {
        HttpResponse<InputStream> r = client.send(
                HttpRequest.newBuilder(server.url().resolve("/api/runs/" + runId + "/events?from=10"))
                        .build(),
                HttpResponse.BodyHandlers.ofInputStream());
        assertThat(r.statusCode()).isEqualTo(200);
        Set<String> seen = new HashSet<>();
        int windows = 0;
        try (BufferedReader in = new BufferedReader(new InputStreamReader(r.body(), StandardCharsets.UTF_8))) {
            String line;
            while (!seen.contains("summary") && (line = in.readLine()) != null) {
                if (line.startsWith("event: ")) {
                    seen.add(line.substring(7));
                    windows += line.equals("event: window") ? 1 : 0;
                }
            }
        }
        assertThat(seen).contains("window", "status", "wa", "summary");
        int expected = app.views().series(runId, 0, 10 * S, Long.MAX_VALUE).size()
                + app.views().series(runId, 1, 10 * S, Long.MAX_VALUE).size();
        assertThat(windows).isEqualTo(expected).isEqualTo(20);
    }

    @Test
    void metricsAndMethodsAndAnUnknownPath() throws Exception {
        String metrics = get("/metrics").body();
        assertThat(metrics)
                .contains("ssdpulse_run_iops{op=\"READ\",run_id=\"" + runId + "\"}")
                .contains("ssdpulse_run_latency_p99_seconds{op=\"WRITE\",run_id=\"" + runId + "\"}")
                .contains("ssdpulse_run_status{run_id=\"" + runId + "\",status=\"COMPLETED\"} 1.0")
                .contains("ssdpulse_run_steady_state{run_id=\"" + runId + "\"}")
                .contains("ssdpulse_run_write_amplification{run_id=\"" + runId + "\"}");
        HttpResponse<String> put = client.send(
                HttpRequest.newBuilder(server.url().resolve("/api/runs/" + runId))
                        .PUT(HttpRequest.BodyPublishers.noBody())
                        .build(),
                HttpResponse.BodyHandlers.ofString());
        assertThat(put.statusCode()).isEqualTo(405);
        assertThat(json("/api/runs/" + runId + "/nothing", 404).get("status").asInt())
                .isEqualTo(404);
        assertThat(app.views().ownerMetadata(runId).activeHost().port()).isEqualTo(server.port());
    }
}
