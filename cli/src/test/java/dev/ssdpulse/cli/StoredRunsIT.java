package dev.ssdpulse.cli;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.ssdpulse.platform.testing.KafkaTestEnvironment;
import dev.ssdpulse.platform.testing.TestStack;
import dev.ssdpulse.streams.app.AnalyticsApp;
import dev.ssdpulse.streams.app.AnalyticsConfig;
import dev.ssdpulse.streams.resultsets.ResultSetNames;
import dev.ssdpulse.streams.views.AnalyticsViews;
import java.awt.image.BufferedImage;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.UUID;
import java.util.concurrent.Callable;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import javax.imageio.ImageIO;
import org.apache.kafka.streams.errors.InvalidStateStoreException;
import org.awaitility.Awaitility;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.io.TempDir;

/**
 * The stored-run commands end to end on a real broker, with the live analytics running: `replay --as` stores a
 * result set the live views serve, `play` re-emits the run under a new linked id, `runs delete` removes the run
 * and its result sets from the views and says what stays in storage, `runs retention` shows and sets retention.
 */
@ExtendWith(KafkaTestEnvironment.class)
class StoredRunsIT {
    @TempDir
    Path temp;

    private record Result(int exit, String out, String err) {}

    private static Result run(TestStack stack, String... args) {
        StringWriter out = new StringWriter();
        StringWriter err = new StringWriter();
        var cli = Main.commandLine();
        cli.setOut(new PrintWriter(out));
        cli.setErr(new PrintWriter(err));
        List<String> all = new ArrayList<>(List.of(args));
        all.addAll(List.of(
                "--bootstrap-servers", stack.bootstrapServers(), "--schema-registry-url", stack.schemaRegistryUrl()));
        int exit = cli.execute(all.toArray(String[]::new));
        return new Result(exit, out.toString(), err.toString());
    }

    @Test
    void replayAsPlayDeleteAndRetention(TestStack stack) throws Exception {
        String runId = "it-stored-" + UUID.randomUUID().toString().substring(0, 8);
        Result sim = run(
                stack,
                "simulate",
                "--ssd",
                "tiny-test",
                "--workload",
                "seed001-tweakers-continuous",
                "--duration",
                "20s",
                "--set",
                "targetSize=100MB",
                "--run-id",
                runId,
                "--label",
                "campaign=" + runId,
                "--quiet");
        assertThat(sim.exit()).as(sim.err()).isZero();
        AnalyticsConfig config = AnalyticsConfig.defaults(
                        stack.bootstrapServers(), stack.schemaRegistryUrl(), temp.resolve("state"))
                .withApplicationId("stored-runs-it-" + UUID.randomUUID());
        try (AnalyticsApp app = new AnalyticsApp(config)) {
            app.start();
            app.awaitRunning(Duration.ofSeconds(60));
            AnalyticsViews views = app.views();
            awaitView(() -> views.summary(runId).isPresent());

            // report --png end to end: read back from the topics and drawn
            Path png = temp.resolve("png");
            // the view has the summary before the output topic's transaction commits (read_committed readers see it
            // up to a commit interval later): `report` is asked until it finds it
            Result report = Awaitility.await()
                    .atMost(Duration.ofSeconds(60))
                    .pollInterval(Duration.ofMillis(500))
                    .until(
                            () -> run(stack, "report", "--run", runId, "--format", "csv", "--png", png.toString()),
                            r -> r.exit() == 0);
            assertThat(report.out()).startsWith("run_id,status,scope,phase_index,phase_name,op,io_count,");
            for (String chart : List.of("iops.png", "mbps.png", "latency.png", "scatter.png", "bins.png", "wa.png")) {
                BufferedImage image = ImageIO.read(png.resolve(chart).toFile());
                assertThat(image).as(chart).isNotNull();
                Set<Integer> colours = new HashSet<>();
                for (int x = 0; x < image.getWidth(); x += 3) {
                    for (int y = 0; y < image.getHeight(); y += 3) {
                        colours.add(image.getRGB(x, y));
                    }
                }
                assertThat(colours).as(chart + " is drawn, not blank").hasSizeGreaterThan(4);
            }
            assertThat(report.err()).contains("wrote " + png.resolve("wa.png"));

            // report --html end to end, the run chosen by its label
            Path html = temp.resolve("report").resolve("runs.html");
            Result htmlReport = run(stack, "report", "--label", "campaign=" + runId, "--html", html.toString());
            assertThat(htmlReport.exit()).as(htmlReport.err()).isZero();
            assertThat(htmlReport.err())
                    .containsPattern("wrote " + Pattern.quote(html.toString()) + " \\(1 run, [0-9.]+ MB\\)");
            String page = Files.readString(html);
            assertThat(page)
                    .contains("<section class=\"run card\" id=\"run-" + runId + "\">")
                    .contains("data-points=")
                    // the scatter read from its topic and drawn: a picture in the page
                    .contains("<image class=\"raster\"")
                    .contains("href=\"data:image/png;base64,")
                    .doesNotContain("<script");
            Result noRuns = run(stack, "report", "--label", "campaign=none-" + runId, "--html", html.toString());
            assertThat(noRuns.exit()).isEqualTo(Main.EXIT_BAD_INPUT);
            assertThat(noRuns.err())
                    .contains("no run in ssdpulse.runs.v1 has the labels {campaign=none-" + runId + "}");
            Result twoWithoutHtml = run(stack, "report", "--run", runId, "--run", runId + "x");
            assertThat(twoWithoutHtml.exit()).isEqualTo(Main.EXIT_BAD_INPUT);
            assertThat(twoWithoutHtml.err()).contains("needs --html FILE");

            Result bad = run(stack, "replay", "--run", runId, "--as", "w5s", "--steady-state", "snia:rounds=10s");
            assertThat(bad.exit()).isEqualTo(Main.EXIT_BAD_INPUT);
            assertThat(bad.err()).contains("snia:round=DURATION");

            Result replay = run(
                    stack,
                    "replay",
                    "--run",
                    runId,
                    "--as",
                    "w5s",
                    "--window",
                    "5s",
                    "--steady-state",
                    "snia:round=10s",
                    "--steady-state",
                    "fio:iops_slope:1%:10s",
                    "--bins",
                    "100us,1ms,10ms,100ms",
                    "--state-dir",
                    temp.resolve("replay").toString());
            assertThat(replay.exit()).as(replay.err() + replay.out()).isZero();
            assertThat(replay.out()).contains("stored as result set 'w5s' of run " + runId);
            String alias = ResultSetNames.alias(runId, "w5s");
            awaitView(() -> "COMPLETED".equals(views.status(alias).orElse("")));
            assertThat(views.series(alias, 1, 0, Long.MAX_VALUE)).isNotEmpty().allSatisfy(w -> {
                assertThat(w.getWindowSizeNs()).isEqualTo(5_000_000_000L);
                assertThat(w.getLatency().getBinUpperBoundsNs())
                        .containsExactly(100_000L, 1_000_000L, 10_000_000L, 100_000_000L);
            });
            assertThat(views.summary(alias).orElseThrow().getIoCount())
                    .isEqualTo(views.summary(runId).orElseThrow().getIoCount());

            Result play = run(stack, "play", "--run", runId, "--speed", "20x", "--new-run-id", runId + "-p");
            assertThat(play.exit()).as(play.err()).isZero();
            assertThat(play.out()).contains("played run " + runId + "-p (of " + runId + "): COMPLETED");
            awaitView(() -> views.summary(runId + "-p").isPresent());
            assertThat(views.run(runId + "-p").orElseThrow().getOriginRunId()).isEqualTo(runId);

            Result noRun = run(stack, "play", "--run", "no-such-run-" + UUID.randomUUID(), "--speed", "10x");
            assertThat(noRun.exit()).as(noRun.out()).isEqualTo(Main.EXIT_BAD_INPUT);
            assertThat(noRun.err()).contains("no run 'no-such-run-");
            assertThat(run(stack, "play", "--run", runId, "--speed", "fast").exit())
                    .isEqualTo(Main.EXIT_BAD_INPUT);

            Result unknown = run(stack, "runs", "delete", "no-such-run-" + UUID.randomUUID());
            assertThat(unknown.exit()).isEqualTo(Main.EXIT_BAD_INPUT);
            assertThat(unknown.err()).contains("--force");

            Result delete = run(stack, "runs", "delete", runId, "--reason", "test");
            assertThat(delete.exit()).as(delete.err()).isZero();
            assertThat(delete.out())
                    .contains("run " + runId + " deleted")
                    .containsPattern("ssdpulse.io.v1 +until the topic is deleted \\(retention.ms=-1: kept forever\\)")
                    .containsPattern(
                            "ssdpulse.metrics-1s.v1 +until retention removes their segments \\(retention.ms = 30 d\\)");
            awaitView(() -> views.status(runId).isEmpty()
                    && views.run(runId).isEmpty()
                    && views.summary(alias).isEmpty()
                    && views.resultSets(runId).isEmpty()
                    && views.series(runId, 1, 0, Long.MAX_VALUE).isEmpty()
                    && views.series(alias, 1, 0, Long.MAX_VALUE).isEmpty());
            assertThat(views.statuses()).doesNotContainKey(runId).containsKey(runId + "-p");
            assertThat(views.summary(runId + "-p"))
                    .as("the played copy is a run of its own")
                    .isPresent();
        }

        Result retention = run(stack, "runs", "retention", "--raw", "400d");
        try {
            assertThat(retention.exit()).as(retention.err()).isZero();
            Matcher io =
                    Pattern.compile("ssdpulse.io.v1 +delete +400 d +forever").matcher(retention.out());
            assertThat(io.find()).as(retention.out()).isTrue();
            assertThat(retention.out()).containsPattern("ssdpulse.runs.v1 +compact");
        } finally {
            assertThat(run(stack, "runs", "retention", "--raw", "forever").exit())
                    .isZero();
        }
        assertThat(run(stack, "runs", "retention", "--raw", "soon").exit()).isEqualTo(Main.EXIT_BAD_INPUT);
    }

    /** Waits for a condition on the views; a store that is migrating while the app rebalances is asked again. */
    private static void awaitView(Callable<Boolean> condition) {
        await().atMost(Duration.ofMinutes(3))
                .ignoreException(InvalidStateStoreException.class)
                .until(condition);
    }
}
