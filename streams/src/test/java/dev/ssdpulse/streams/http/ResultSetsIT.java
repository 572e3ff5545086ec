package dev.ssdpulse.streams.http;

import static dev.ssdpulse.streams.http.TestRecords.S;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.ssdpulse.platform.TopicCreation;
import dev.ssdpulse.platform.testing.KafkaTestEnvironment;
import dev.ssdpulse.platform.testing.TestStack;
import dev.ssdpulse.producer.publish.OverflowPolicy;
import dev.ssdpulse.producer.publish.PublisherConfig;
import dev.ssdpulse.producer.publish.RunProducers;
import dev.ssdpulse.producer.publish.RunPublisher;
import dev.ssdpulse.schemas.avro.PhaseChanged;
import dev.ssdpulse.schemas.avro.PhaseKind;
import dev.ssdpulse.schemas.avro.RunStarted;
import dev.ssdpulse.schemas.avro.RunStatus;
import dev.ssdpulse.schemas.avro.RunSummary;
import dev.ssdpulse.schemas.avro.SmartSample;
import dev.ssdpulse.schemas.avro.SmartSource;
import dev.ssdpulse.schemas.avro.SteadyStateMethod;
import dev.ssdpulse.schemas.avro.SteadyStateVerdict;
import dev.ssdpulse.schemas.avro.WindowMetrics;
import dev.ssdpulse.schemas.avro.WriteAmplification;
import dev.ssdpulse.schemas.registry.HttpSchemaRegistryClient;
import dev.ssdpulse.streams.analysis.AnalysisSettings;
import dev.ssdpulse.streams.app.AnalyticsApp;
import dev.ssdpulse.streams.app.AnalyticsConfig;
import dev.ssdpulse.streams.app.Reanalysis;
import dev.ssdpulse.streams.app.SteadyStateSpecs;
import dev.ssdpulse.streams.resultsets.ResultSetNames;
import dev.ssdpulse.streams.views.AnalyticsViews;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.UUID;
import org.apache.avro.specific.SpecificRecord;
import org.apache.kafka.clients.producer.Producer;
import org.apache.kafka.streams.errors.InvalidStateStoreException;
import org.awaitility.core.ConditionFactory;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.io.TempDir;

/**
 * Re-analysis into named result sets against a real broker: default settings reproduce the live results exactly
 * (two runs at once, two stream threads), 10-s windows hold the sums of the live 1-s windows, a longer SNIA round
 * turns the verdict of a run built for it, the run's own results stay untouched, and the API serves it all.
 */
@ExtendWith(KafkaTestEnvironment.class)
class ResultSetsIT {
    private static final ObjectMapper JSON = new ObjectMapper();

    @TempDir
    Path temp;

    @Test
    void reanalysesSitBesideTheLiveResults(TestStack stack) throws Exception {
        // live: 1-s windows and 1-s SNIA rounds; the run alternates 3 s at 600 IOPS and 3 s at 1400 IOPS
        AnalyticsConfig live = AnalyticsConfig.defaults(
                        stack.bootstrapServers(), stack.schemaRegistryUrl(), temp.resolve("state"))
                .withApplicationId("resultsets-it-" + UUID.randomUUID())
                .withSteadyState(S, AnalysisSettings.DEFAULT_FIO_CRITERIA);
        TopicCreation.createCatalogueIfMissing(live.bootstrapServers(), (short) 1);
        String runA = "alt-a-" + UUID.randomUUID();
        String runB = "alt-b-" + UUID.randomUUID();
        publishAlternatingRun(stack, runA, 60);
        publishAlternatingRun(stack, runB, 30);

        try (AnalyticsApp app = new AnalyticsApp(live)) {
            app.start();
            app.awaitRunning(Duration.ofSeconds(60));
            AnalyticsViews views = app.views();
            awaitViews()
                    .until(() -> views.summary(runA).isPresent()
                            && views.summary(runB).isPresent());
            Snapshot before = Snapshot.of(views, runA);
            assertThat(before.summary.getStatus()).isEqualTo(RunStatus.COMPLETED);
            assertThat(sniaReached(before.verdicts))
                    .as("1-s rounds see the 3-s alternation")
                    .isFalse();

            // default settings, two runs at once over two threads: identical to the live results
            Reanalysis.run(live.withThreads(2), Set.of(runA, runB), "same", Duration.ofMinutes(3));
            // 10-s windows (and rounds, a round being whole windows)
            Reanalysis.run(
                    live.withSteadyState(10 * S, live.analysisSettings().fioCriteria())
                            .withWindow(10 * S, live.analysisSettings().graceNs()),
                    Set.of(runA),
                    "w10s",
                    Duration.ofMinutes(3));
            // 6-s SNIA rounds: every round averages one high and one low half, 1000 IOPS
            Reanalysis.run(
                    SteadyStateSpecs.apply(live, List.of("snia:round=6s")),
                    Set.of(runA),
                    "round6",
                    Duration.ofMinutes(3));
            for (String name : List.of("same", "w10s", "round6")) {
                awaitViews()
                        .until(() -> "COMPLETED"
                                .equals(views.status(ResultSetNames.alias(runA, name))
                                        .orElse("")));
            }
            awaitViews()
                    .until(() -> "COMPLETED"
                            .equals(views.status(ResultSetNames.alias(runB, "same"))
                                    .orElse("")));

            for (String run : List.of(runA, runB)) {
                Snapshot own = Snapshot.of(views, run);
                Snapshot same = Snapshot.of(views, ResultSetNames.alias(run, "same"));
                assertThat(same.windows)
                        .as("windows of %s", run)
                        .hasSize(own.windows.size())
                        .isEqualTo(own.windows);
                // Avro's equals fails on NaN (a fio verdict whose window never filled): compare the full text form
                assertThat(same.verdicts.toString()).isEqualTo(own.verdicts.toString());
                assertThat(same.wa).isNotEmpty().isEqualTo(own.wa);
                assertThat(same.summary).isEqualTo(own.summary);
            }

            Snapshot w10 = Snapshot.of(views, ResultSetNames.alias(runA, "w10s"));
            List<WindowMetrics> ten = w10.windows;
            assertThat(ten).hasSize(6 * 2);
            for (WindowMetrics w : ten) {
                List<WindowMetrics> ones = before.windows.stream()
                        .filter(o -> o.getOp() == w.getOp()
                                && o.getWindowStartNs() >= w.getWindowStartNs()
                                && o.getWindowStartNs() < w.getWindowStartNs() + 10 * S)
                        .toList();
                assertThat(ones).hasSize(10);
                assertThat(w.getWindowSizeNs()).isEqualTo(10 * S);
                assertThat(w.getIoCount())
                        .isEqualTo(ones.stream()
                                .mapToLong(WindowMetrics::getIoCount)
                                .sum());
                assertThat(w.getBytes())
                        .isEqualTo(
                                ones.stream().mapToLong(WindowMetrics::getBytes).sum());
                for (int bin = 0; bin < w.getLatency().getBinCounts().size(); bin++) {
                    int b = bin;
                    assertThat(w.getLatency().getBinCounts().get(bin))
                            .isEqualTo(ones.stream()
                                    .mapToLong(
                                            o -> o.getLatency().getBinCounts().get(b))
                                    .sum());
                }
            }
            assertThat(w10.summary.getIoCount()).isEqualTo(before.summary.getIoCount());

            Snapshot round6 = Snapshot.of(views, ResultSetNames.alias(runA, "round6"));
            assertThat(sniaReached(round6.verdicts))
                    .as("6-s rounds average the alternation out")
                    .isTrue();

            assertThat(Snapshot.of(views, runA).toString())
                    .as("the run's own results are untouched")
                    .isEqualTo(before.toString());
            assertThat(views.statuses()).containsKeys(runA, runB).doesNotContainKey(ResultSetNames.alias(runA, "same"));

            try (HttpApiServer server = HttpApiServer.start(app, HttpApiConfig.localhost(0))) {
                HttpClient http = HttpClient.newHttpClient();
                JsonNode sets = get(http, server, "/api/runs/" + runA + "/result-sets", 200);
                List<String> names = new ArrayList<>();
                sets.path("resultSets").forEach(n -> names.add(n.path("name").asText()));
                assertThat(names).containsExactly("live", "round6", "same", "w10s");
                assertThat(sets.path("resultSets")
                                .get(3)
                                .path("settings")
                                .path("windowNs")
                                .asText())
                        .isEqualTo(Long.toString(10 * S));
                JsonNode series = get(http, server, "/api/runs/" + runA + "/series?op=READ&resultSet=w10s", 200);
                assertThat(series.path("ops")
                                .path("READ")
                                .get(0)
                                .path("windowS")
                                .asDouble())
                        .isEqualTo(10.0);
                JsonNode liveSeries = get(http, server, "/api/runs/" + runA + "/series?op=READ", 200);
                assertThat(liveSeries
                                .path("ops")
                                .path("READ")
                                .get(0)
                                .path("windowS")
                                .asDouble())
                        .isEqualTo(1.0);
                assertThat(get(http, server, "/api/runs/" + runA + "/summary?resultSet=round6", 200)
                                .path("runId")
                                .asText())
                        .isEqualTo(runA);
                get(http, server, "/api/runs/" + runA + "/summary?resultSet=nope", 404);
                get(http, server, "/api/runs/" + runA + "/summary?resultSet=%2Fbad", 400);
            }
        }
    }

    private static boolean sniaReached(List<SteadyStateVerdict> verdicts) {
        return verdicts.stream()
                .filter(v -> v.getMethod() == SteadyStateMethod.SNIA_PTS)
                .anyMatch(SteadyStateVerdict::getReached);
    }

    private static JsonNode get(HttpClient http, HttpApiServer server, String path, int status) throws Exception {
        HttpResponse<String> r = http.send(
                HttpRequest.newBuilder(URI.create(server.url().toString() + path.substring(1)))
                        .build(),
                HttpResponse.BodyHandlers.ofString());
        assertThat(r.statusCode()).as("%s -> %s", path, r.body()).isEqualTo(status);
        return JSON.readTree(r.body());
    }

    /** Everything a view holds of one key (a run or an alias). */
    private record Snapshot(
            List<WindowMetrics> windows,
            List<SteadyStateVerdict> verdicts,
            List<WriteAmplification> wa,
            RunSummary summary) {
        static Snapshot of(AnalyticsViews views, String key) {
            List<WindowMetrics> windows = new ArrayList<>();
            for (int op = 0; op < 4; op++) {
                windows.addAll(views.series(key, op, 0, Long.MAX_VALUE));
            }
            return new Snapshot(
                    windows,
                    views.verdicts(key),
                    views.waSeries(key),
                    views.summary(key).orElse(null));
        }
    }

    /** One TEST phase from 0; second t has 600 I/Os when (t / 3) is even, else 1400; 70 % reads; SMART per second. */
    static void publishAlternatingRun(TestStack stack, String runId, int seconds) throws InterruptedException {
        publishAlternatingRun(stack, runId, seconds, null);
    }

    /** @param group the run group the run is a member of (member id: the run id), null for none */
    static void publishAlternatingRun(TestStack stack, String runId, int seconds, String group)
            throws InterruptedException {
        RunStarted started =
                TestRecords.runStarted(runId, "alternating", 480_103_981_056L, System.currentTimeMillis() * 1_000_000L);
        if (group != null) {
            started = RunStarted.newBuilder(started)
                    .setGroup(group)
                    .setMember(runId)
                    .build();
        }
        Map<String, Object> props = new HashMap<>();
        props.put("bootstrap.servers", stack.bootstrapServers());
        try (HttpSchemaRegistryClient registry = new HttpSchemaRegistryClient(stack.schemaRegistryUrl())) {
            Producer<String, SpecificRecord> producer = RunProducers.create(props, registry);
            RunPublisher publisher = new RunPublisher(
                    producer,
                    PublisherConfig.defaults(props, OverflowPolicy.BLOCK).withMaxBatchIos(256),
                    started,
                    1);
            publisher.phaseChanged(new PhaseChanged(runId, 0, "test", PhaseKind.TEST, 0L));
            long hostBytes = 0;
            for (int t = 0; t < seconds; t++) {
                int n = (t / 3) % 2 == 0 ? 600 : 1400;
                for (int i = 0; i < n; i++) {
                    long completionNs = t * S + (i + 1) * (S / (n + 1));
                    boolean read = i % 10 < 7;
                    long latencyNs = 200_000 + (i % 37) * 150_000L + (i % 500 == 0 ? 25_000_000 : 0);
                    latencyNs = Math.min(latencyNs, completionNs);
                    publisher.onIoCompleted(
                            0, 0, (byte) (read ? 0 : 1), 4096L * i, 4096, completionNs - latencyNs, latencyNs, 4, 0);
                    if (!read) {
                        hostBytes += 4096;
                    }
                }
                publisher.publishSmart(SmartSample.newBuilder()
                        .setRunId(runId)
                        .setTimeNs(t * S + S - 1)
                        .setSource(SmartSource.SIMULATOR)
                        .setHostBytesWritten(hostBytes)
                        .setNandBytesWritten(hostBytes * 2)
                        .build());
            }
            publisher.finish(RunStatus.COMPLETED, null, seconds * S, 60_000);
            publisher.close();
            producer.close();
        }
    }

    /** Waiting for the views: a store that is migrating while the app rebalances is asked again. */
    static ConditionFactory awaitViews() {
        return await().atMost(Duration.ofMinutes(3)).ignoreException(InvalidStateStoreException.class);
    }
}
