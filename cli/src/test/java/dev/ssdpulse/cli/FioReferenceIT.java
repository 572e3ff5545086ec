package dev.ssdpulse.cli;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;
import static org.awaitility.Awaitility.await;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.ssdpulse.platform.testing.KafkaTestEnvironment;
import dev.ssdpulse.platform.testing.TestStack;
import dev.ssdpulse.schemas.avro.IoOp;
import dev.ssdpulse.schemas.avro.LatencyStats;
import dev.ssdpulse.schemas.avro.OpSummary;
import dev.ssdpulse.schemas.avro.RunStatus;
import dev.ssdpulse.schemas.avro.RunSummary;
import dev.ssdpulse.schemas.avro.WindowMetrics;
import dev.ssdpulse.schemas.registry.HttpSchemaRegistryClient;
import dev.ssdpulse.schemas.topics.RunRecords;
import dev.ssdpulse.schemas.topics.Topics;
import dev.ssdpulse.streams.app.AnalyticsApp;
import dev.ssdpulse.streams.app.AnalyticsConfig;
import dev.ssdpulse.streams.report.Outliers;
import java.io.IOException;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.UUID;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.io.TempDir;

/**
 * The analytics against a reference no one here wrote: the real fio (libaio, QD8, 4 KiB random 70/30
 * read/write, O_DIRECT) writes its per-I/O clat log and its json+ report; {@code ssdpulse import fio}
 * publishes the log, the Streams application computes the run, and its results are compared with exact
 * values computed here from the log and with fio's own JSON. fio must be installed (.ci/run installs it):
 * without it this test fails rather than skips.
 *
 * <p>Set -Dssdpulse.fio.seconds (default 8) for the 30-s run BENCHMARKS.md reports.
 */
@ExtendWith(KafkaTestEnvironment.class)
class FioReferenceIT {
    private static final long[] THRESHOLDS_NS = {10_000_000L, 30_000_000L, 50_000_000L};
    private static TestStack stack;

    @BeforeAll
    static void init(TestStack shared) {
        stack = shared;
    }

    @Test
    void importedFioRunMatchesTheLogExactlyAndFioWithinItsBucketError(@TempDir Path dir) throws Exception {
        int seconds = Integer.getInteger("ssdpulse.fio.seconds", 8);
        Path log = runFio(dir, seconds);
        Path json = dir.resolve("fio.json");
        Reference reference = Reference.of(log);

        String runId = "it-fio-" + UUID.randomUUID().toString().substring(0, 8);
        StringWriter err = new StringWriter();
        var cli = Main.commandLine();
        cli.setOut(new PrintWriter(new StringWriter()));
        cli.setErr(new PrintWriter(err));
        int exit = cli.execute(
                "import",
                "fio",
                log.toString(),
                "--json",
                json.toString(),
                "--iodepth",
                "8",
                "--run-id",
                runId,
                "--bootstrap-servers",
                stack.bootstrapServers(),
                "--schema-registry-url",
                stack.schemaRegistryUrl());
        assertThat(exit).as(err.toString()).isZero();

        AnalyticsConfig config = AnalyticsConfig.defaults(
                        stack.bootstrapServers(), stack.schemaRegistryUrl(), dir.resolve("state"))
                .withApplicationId("it-fio-" + UUID.randomUUID());
        RunSummary summary;
        List<WindowMetrics> windows;
        try (AnalyticsApp app = new AnalyticsApp(config)) {
            app.start();
            app.awaitRunning(Duration.ofSeconds(60));
            summary = awaitSummary(app, runId);
        }
        try (var registry = new HttpSchemaRegistryClient(stack.schemaRegistryUrl())) {
            windows = RunRecords.read(
                    Map.of("bootstrap.servers", stack.bootstrapServers()),
                    registry,
                    Topics.METRICS_1S,
                    runId,
                    Duration.ofSeconds(60));
        }
        JsonNode fio = new ObjectMapper().readTree(json.toFile()).get("jobs").get(0);

        assertThat(summary.getStatus()).isEqualTo(RunStatus.COMPLETED);
        assertThat(summary.getLateIoCount()).isZero();
        for (IoOp op : List.of(IoOp.READ, IoOp.WRITE)) {
            String dirName = op == IoOp.READ ? "read" : "write";
            JsonNode fioDir = fio.get(dirName);
            OpSummary ours = summary.getOps().stream()
                    .filter(o -> o.getOp() == op)
                    .findFirst()
                    .orElseThrow();
            long[] exact = reference.latencies(op);
            LatencyStats latency = ours.getLatency();

            assertThat(ours.getIoCount())
                    .as(op + " I/Os vs fio total_ios")
                    .isEqualTo(fioDir.get("total_ios").asLong());
            assertThat(ours.getIoCount()).isEqualTo(exact.length);
            double ourMean = (double) latency.getSumNs() / latency.getCount();
            assertThat(ourMean)
                    .as(op + " mean vs the log")
                    .isCloseTo(Arrays.stream(exact).average().orElseThrow(), within(1e-6 * ourMean));
            double fioMean = fioDir.get("clat_ns").get("mean").asDouble();
            assertThat(ourMean).as(op + " mean vs fio's").isCloseTo(fioMean, within(0.005 * fioMean));
            assertThat(latency.getMaxNs()).as(op + " max").isEqualTo(exact[exact.length - 1]);

            Map<String, Long> ourPercentiles = Map.of(
                    "50.000000",
                    latency.getPercentiles().getP50Ns(),
                    "90.000000",
                    latency.getPercentiles().getP90Ns(),
                    "99.000000",
                    latency.getPercentiles().getP99Ns(),
                    "99.900000",
                    latency.getPercentiles().getP999Ns());
            System.out.printf(
                    "fio-reference %s: ios ours %d fio %d; mean ours %.1f log %.1f fio %.1f ns%n",
                    op,
                    ours.getIoCount(),
                    fioDir.get("total_ios").asLong(),
                    ourMean,
                    Arrays.stream(exact).average().orElseThrow(),
                    fioMean);
            for (var e : new TreeMap<>(ourPercentiles).entrySet()) {
                double q = Double.parseDouble(e.getKey());
                long nearestRank = exact[(int) Math.ceil(q / 100.0 * exact.length) - 1];
                System.out.printf(
                        "fio-reference %s p%s: ours %d exact %d fio %d (%.3f%% vs exact, %.2f%% vs fio)%n",
                        op,
                        e.getKey(),
                        e.getValue(),
                        nearestRank,
                        fioDir.get("clat_ns").get("percentile").get(e.getKey()).asLong(),
                        100.0 * (e.getValue() - nearestRank) / nearestRank,
                        100.0
                                * (e.getValue()
                                        - fioDir.get("clat_ns")
                                                .get("percentile")
                                                .get(e.getKey())
                                                .asLong())
                                / fioDir.get("clat_ns")
                                        .get("percentile")
                                        .get(e.getKey())
                                        .asLong());
                assertThat((double) e.getValue())
                        .as(op + " p" + e.getKey() + " vs exact nearest rank")
                        .isCloseTo(nearestRank, within(0.001 * nearestRank + 1));
                // fio keeps latencies in log-linear buckets of 64 per power of two: relative error up to 1/64.
                long fioValue =
                        fioDir.get("clat_ns").get("percentile").get(e.getKey()).asLong();
                assertThat((double) e.getValue())
                        .as(op + " p" + e.getKey() + " vs fio's " + fioValue)
                        .isCloseTo(fioValue, within(fioValue / 32.0 + 1));
            }
            for (long threshold : THRESHOLDS_NS) {
                long direct = Arrays.stream(exact).filter(l -> l >= threshold).count();
                assertThat(Outliers.countAtOrAbove(latency, threshold))
                        .as(op + " I/Os at or above " + threshold / 1_000_000 + " ms")
                        .isEqualTo(direct);
            }
            Map<Long, Long> perSecond = new TreeMap<>();
            for (WindowMetrics w : windows) {
                if (w.getOp() == op) {
                    perSecond.put(w.getWindowStartNs() / 1_000_000_000L, w.getIoCount());
                }
            }
            assertThat(perSecond)
                    .as(op + " I/Os per second vs a direct count from the log")
                    .isEqualTo(reference.perSecond(op));
        }
    }

    private static RunSummary awaitSummary(AnalyticsApp app, String runId) {
        // stores migrate while the app rebalances: not queryable yet, ask again
        return await("summary of " + runId)
                .atMost(Duration.ofSeconds(120))
                .ignoreExceptionsInstanceOf(RuntimeException.class)
                .until(
                        () -> app.views().summary(runId),
                        s -> s.isPresent() && s.get().getStatus() != RunStatus.INCOMPLETE)
                .get();
    }

    private static Path runFio(Path dir, int seconds) throws Exception {
        Path target = dir.resolve("fio.dat");
        List<String> command = List.of(
                "fio",
                "--name=ref",
                "--filename=" + target,
                "--size=256M",
                "--rw=randrw",
                "--rwmixread=70",
                "--bs=4k",
                "--iodepth=8",
                "--ioengine=libaio",
                "--direct=1",
                "--time_based",
                "--runtime=" + seconds,
                "--write_lat_log=" + dir.resolve("ref"),
                "--log_offset=1",
                "--output-format=json+",
                "--output=" + dir.resolve("fio.json"));
        Process fio;
        try {
            fio = new ProcessBuilder(command)
                    .redirectErrorStream(true)
                    .redirectOutput(dir.resolve("fio.out").toFile())
                    .start();
        } catch (IOException e) {
            throw new AssertionError(
                    "fio is not installed (apt-get install -y fio; .ci/run does it): " + e.getMessage(), e);
        }
        assertThat(fio.waitFor(seconds + 120L, TimeUnit.SECONDS))
                .as("fio finishes")
                .isTrue();
        assertThat(fio.exitValue())
                .as(Files.exists(dir.resolve("fio.out")) ? Files.readString(dir.resolve("fio.out")) : "")
                .isZero();
        Path log = dir.resolve("ref_clat.1.log");
        assertThat(log).exists();
        return log;
    }

    /** Exact values from the clat log: sorted latencies per op and I/Os per second of completion time. */
    private record Reference(Map<IoOp, long[]> sorted, Map<IoOp, Map<Long, Long>> perSecond) {
        static Reference of(Path log) throws IOException {
            Map<IoOp, List<Long>> latencies = new HashMap<>();
            Map<IoOp, Map<Long, Long>> perSecond = new HashMap<>();
            for (String line : Files.readAllLines(log)) {
                if (line.isBlank()) {
                    continue;
                }
                String[] f = line.split(",");
                long timeMs = Long.parseLong(f[0].trim());
                long latencyNs = Long.parseLong(f[1].trim());
                IoOp op = IoOp.values()[Integer.parseInt(f[2].trim())];
                latencies.computeIfAbsent(op, k -> new ArrayList<>()).add(latencyNs);
                perSecond.computeIfAbsent(op, k -> new TreeMap<>()).merge(timeMs / 1000, 1L, Long::sum);
            }
            Map<IoOp, long[]> sorted = new HashMap<>();
            latencies.forEach((op, list) -> sorted.put(
                    op, list.stream().mapToLong(Long::longValue).sorted().toArray()));
            return new Reference(sorted, perSecond);
        }

        long[] latencies(IoOp op) {
            return sorted.get(op);
        }

        Map<Long, Long> perSecond(IoOp op) {
            return perSecond.get(op);
        }
    }
}
