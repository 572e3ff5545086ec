package dev.ssdpulse.cli.reliability;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import com.fasterxml.jackson.databind.JsonNode;
import dev.ssdpulse.cli.Main;
import dev.ssdpulse.platform.testing.KafkaTestEnvironment;
import dev.ssdpulse.platform.testing.TestStack;
import dev.ssdpulse.streams.app.AnalyticsConfig;
import java.io.IOException;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Optional;
import java.util.TreeSet;
import java.util.UUID;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.io.TempDir;

/**
 * Ten simulated runs streamed at once (`ssdpulse simulate` from ten threads, each its own producer, different
 * seeds and rates so no two runs look alike) are all computed correctly by one analytics instance: each
 * summary counts exactly what its producer published and equals, op by op and phase by phase, the offline
 * analysis of the same seed (`simulate --offline`, the same accumulators without Kafka); each run's window
 * series equals its offline series. A record of one run counted in another would break both.
 */
@ExtendWith(KafkaTestEnvironment.class)
// its own waits add up to more than the 5-minute default of integration tests
@Timeout(value = 15, unit = TimeUnit.MINUTES)
class ConcurrentRunsIT {
    private static final int RUNS = 10;
    private static final Pattern PUBLISHED = Pattern.compile("([\\d,]+) I/Os, ([\\d,]+) published");

    @TempDir
    Path tmp;

    @Test
    void tenConcurrentRunsAreEachComputedExactlyAsOffline(TestStack stack) throws Exception {
        String suffix = UUID.randomUUID().toString().substring(0, 8);
        AnalyticsConfig config = AnalyticsConfig.defaults(
                        stack.bootstrapServers(), stack.schemaRegistryUrl(), tmp.resolve("state"))
                .withApplicationId("it-load-" + suffix);
        ExecutorService pool = Executors.newFixedThreadPool(RUNS);
        long t0 = System.nanoTime();
        try (InProcessAnalytics analytics = InProcessAnalytics.start(config)) {
            long startedMs = (System.nanoTime() - t0) / 1_000_000;
            List<Future<Long>> published = new ArrayList<>();
            for (int i = 0; i < RUNS; i++) {
                String runId = runId(suffix, i);
                List<String> args = workload(i, runId);
                published.add(pool.submit(() -> {
                    List<String> streamed = new ArrayList<>(args);
                    streamed.addAll(List.of(
                            "--bootstrap-servers",
                            stack.bootstrapServers(),
                            "--schema-registry-url",
                            stack.schemaRegistryUrl()));
                    String out = execute(streamed);
                    Matcher m = PUBLISHED.matcher(out);
                    assertThat(m.find()).as(out).isTrue();
                    assertThat(m.group(2)).as(out).isEqualTo(m.group(1));
                    return Long.parseLong(m.group(2).replace(",", ""));
                }));
            }
            List<Long> counts = new ArrayList<>();
            for (Future<Long> f : published) {
                counts.add(f.get(3, TimeUnit.MINUTES));
            }
            long publishedMs = (System.nanoTime() - t0) / 1_000_000;
            assertThat(new TreeSet<>(counts))
                    .as("every run has its own I/O count")
                    .hasSize(RUNS);

            long total = 0;
            for (int i = 0; i < RUNS; i++) {
                String runId = runId(suffix, i);
                Path seriesCsv = tmp.resolve(runId + ".csv");
                List<String> offlineArgs = new ArrayList<>(workload(i, runId));
                offlineArgs.addAll(List.of("--offline", "--format", "json", "--series-csv", seriesCsv.toString()));
                JsonNode offline = ApiClient.parse(execute(offlineArgs));
                JsonNode live = await("COMPLETED summary of run " + runId)
                        .atMost(Duration.ofMinutes(2))
                        .ignoreExceptionsInstanceOf(RuntimeException.class)
                        .until(
                                () -> analytics
                                        .api()
                                        .json("/api/runs/" + runId + "/summary")
                                        .filter(s -> s.path("status").asText().equals("COMPLETED")),
                                Optional::isPresent)
                        .get();

                assertThat(live.path("ioCount").asLong())
                        .as(runId + " I/Os")
                        .isEqualTo(counts.get(i))
                        .isEqualTo(offline.path("ioCount").asLong());
                assertThat(live.path("ioCountExpected").asLong()).isEqualTo(counts.get(i));
                assertThat(live.path("duplicateBatchCount").asLong()).isZero();
                assertThat(live.path("lateIoCount").asLong()).isZero();
                assertThat(live.path("durationNs")).isEqualTo(offline.path("durationNs"));
                assertThat(live.path("ops")).as(runId + " ops").isEqualTo(offline.path("ops"));
                assertThat(phaseOps(live)).as(runId + " phases").isEqualTo(phaseOps(offline));
                assertThat(seriesRows(analytics
                                .api()
                                .json("/api/runs/" + runId + "/series")
                                .orElseThrow()))
                        .as(runId + " series")
                        .isEqualTo(csvRows(seriesCsv))
                        .isNotEmpty();
                total += counts.get(i);
            }
            System.out.printf(
                    "ConcurrentRunsIT: %d runs, %d I/Os in all; analytics running after %d ms, runs "
                            + "published after %d ms, all compared after %d ms%n",
                    RUNS, total, startedMs, publishedMs, (System.nanoTime() - t0) / 1_000_000);
        } finally {
            pool.shutdownNow();
        }
    }

    private static String runId(String suffix, int i) {
        return "it-load-" + suffix + "-" + i;
    }

    /** Run i: 80/20 random read/write at QD4, rate-limited differently per run, seed 100 + i. */
    private static List<String> workload(int i, String runId) {
        return List.of(
                "simulate",
                "--ssd",
                "tiny-test",
                "--workload",
                "seed003-mixed-80-20",
                "--set",
                "durationS=8",
                "--set",
                "preconditionPercent=20",
                "--set",
                "qd=4",
                "--rate-iops",
                Integer.toString(3000 + 400 * i),
                "--seed",
                Integer.toString(100 + i),
                "--run-id",
                runId,
                "--quiet");
    }

    private static String execute(List<String> args) {
        StringWriter out = new StringWriter();
        StringWriter err = new StringWriter();
        var cli = Main.commandLine();
        cli.setOut(new PrintWriter(out, true));
        cli.setErr(new PrintWriter(err, true));
        int exit = cli.execute(args.toArray(String[]::new));
        assertThat(exit).as(args + "\n" + out + err).isZero();
        return out.toString();
    }

    private static List<JsonNode> phaseOps(JsonNode summary) {
        List<JsonNode> out = new ArrayList<>();
        for (JsonNode phase : summary.path("phases")) {
            out.add(phase.path("index"));
            out.add(phase.path("ops"));
        }
        return out;
    }

    /** "t,op,phase,ioCount" of every window of the HTTP series. */
    private static List<String> seriesRows(JsonNode series) {
        List<String> rows = new ArrayList<>();
        series.path("ops").fields().forEachRemaining(op -> {
            for (JsonNode p : op.getValue()) {
                rows.add(String.format(
                        Locale.ROOT,
                        "%.3f,%s,%d,%d",
                        p.path("t").asDouble(),
                        op.getKey(),
                        p.path("phase").asInt(),
                        p.path("ioCount").asLong()));
            }
        });
        rows.sort(null);
        return rows;
    }

    /** The same rows from the offline --series-csv (window_start_s,op,phase,io_count,...). */
    private static List<String> csvRows(Path csv) throws IOException {
        List<String> lines = Files.readAllLines(csv);
        List<String> rows = new ArrayList<>();
        for (String line : lines.subList(1, lines.size())) {
            String[] f = line.split(",");
            rows.add(String.format(Locale.ROOT, "%.3f,%s,%s,%s", Double.parseDouble(f[0]), f[1], f[2], f[3]));
        }
        rows.sort(null);
        return rows;
    }
}
