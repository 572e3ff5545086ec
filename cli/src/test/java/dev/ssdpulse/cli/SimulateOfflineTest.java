package dev.ssdpulse.cli;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** {@code simulate --offline}: the summary from the analytics accumulators, no Kafka; bad input is a clean error. */
class SimulateOfflineTest {

    @Test
    void jsonSummaryHasStableFieldsAndConsistentCounts(@TempDir Path dir) throws Exception {
        Path csv = dir.resolve("series.csv");
        CliRun r = CliRun.of(
                "simulate",
                "--offline",
                "--format",
                "json",
                "--quiet",
                "--ssd",
                "tiny-test",
                "--workload",
                "seed003-qd32-random-write-5000s",
                "--duration",
                "30s",
                "--series-csv",
                csv.toString());
        assertThat(r.exit()).as(r.err()).isZero();
        JsonNode root = new ObjectMapper().readTree(r.out());
        assertThat(root.get("status").asText()).isEqualTo("COMPLETED");
        long ioCount = root.get("ioCount").asLong();
        assertThat(ioCount).isPositive().isEqualTo(root.get("ioCountExpected").asLong());
        JsonNode write = root.get("ops").get(0);
        assertThat(write.get("op").asText()).isEqualTo("WRITE");
        assertThat(write.get("ioCount").asLong()).isEqualTo(ioCount);
        long binTotal = 0;
        for (JsonNode bin : write.get("latencyBins")) {
            binTotal += bin.get("count").asLong();
        }
        assertThat(binTotal).as("bins count every I/O exactly once").isEqualTo(ioCount);
        JsonNode latency = write.get("latencyNs");
        assertThat(latency.get("p50").asLong())
                .isLessThanOrEqualTo(latency.get("p99").asLong());
        assertThat(latency.get("p99").asLong())
                .isLessThanOrEqualTo(latency.get("max").asLong());
        assertThat(write.get("countAtOrAbove").has("10ms")).isTrue();
        assertThat(root.get("writeAmplification").get("cumulative").asDouble()).isGreaterThanOrEqualTo(1.0);
        long phaseIos = 0;
        for (JsonNode phase : root.get("phases")) {
            for (JsonNode op : phase.get("ops")) {
                phaseIos += op.get("ioCount").asLong();
            }
        }
        assertThat(phaseIos).isEqualTo(ioCount);
        JsonNode test = root.get("phases").get(root.get("phases").size() - 1);
        assertThat(test.get("kind").asText()).isEqualTo("TEST");
        assertThat(test.get("writeAmplification").asDouble())
                .as("random writes on a full drive amplify")
                .isGreaterThan(1.2);

        List<String> lines = Files.readAllLines(csv);
        assertThat(lines.get(0)).startsWith("window_start_s,op,phase,io_count");
        long csvIos = lines.stream()
                .skip(1)
                .mapToLong(l -> Long.parseLong(l.split(",")[3]))
                .sum();
        assertThat(csvIos).as("windows partition the I/Os").isEqualTo(ioCount);
    }

    @Test
    void sameSeedGivesTheSameSummary() {
        String[] args = {
            "simulate",
            "--offline",
            "--format",
            "json",
            "--quiet",
            "--ssd",
            "tiny-test",
            "--run-id",
            "same",
            "--workload",
            "seed003-mixed-80-20",
            "--duration",
            "5s",
            "--seed",
            "7"
        };
        CliRun first = CliRun.of(args);
        CliRun second = CliRun.of(args);
        assertThat(first.exit()).as(first.err()).isZero();
        assertThat(second.out()).isEqualTo(first.out());
    }

    @Test
    void unknownWorkloadIsAClearErrorListingThePresets() {
        CliRun r = CliRun.of("simulate", "--offline", "--workload", "no-such-workload");
        assertThat(r.exit()).isEqualTo(Main.EXIT_BAD_INPUT);
        assertThat(r.err()).contains("no-such-workload").contains("seed000-exp1-random-write");
    }

    @Test
    void invalidWorkloadFileReportsFileFieldAndWhy(@TempDir Path dir) throws Exception {
        Path file = dir.resolve("bad.yaml");
        Files.writeString(file, """
                name: bad
                phases:
                  - name: t
                    kind: TEST
                    accessSpecs:
                      - {transferSize: 4KiB, percentRead: 120, percentRandom: 100}
                    duration: 10s
                """);
        CliRun r = CliRun.of("simulate", "--offline", "--ssd", "tiny-test", "--workload", file.toString());
        assertThat(r.exit()).isEqualTo(Main.EXIT_BAD_INPUT);
        assertThat(r.err()).contains("bad.yaml").contains("percentRead").contains("120");
    }

    @Test
    void unknownSsdPresetIsAClearError() {
        CliRun r = CliRun.of("simulate", "--offline", "--ssd", "no-such-drive", "--workload", "seed003-mixed-80-20");
        assertThat(r.exit()).isEqualTo(Main.EXIT_BAD_INPUT);
        assertThat(r.err()).contains("no-such-drive");
    }

    /** A workload's test file larger than the simulated drive is refused, naming both sizes, before any I/O. */
    @Test
    void aTargetSizeBeyondTheDrivesCapacityIsRefusedWithBothSizes() {
        CliRun tooBig = CliRun.of(
                "simulate",
                "--offline",
                "--ssd",
                "sata-240gb",
                "--workload",
                "seed001-tweakers-continuous",
                "--set",
                "targetSize=500GB");
        assertThat(tooBig.exit()).isEqualTo(Main.EXIT_BAD_INPUT);
        assertThat(tooBig.err())
                .contains("targetSize of 500000000000 B (500.00 GB, 465.66 GiB), larger than drive sata-240gb"
                        + " (240000000000 B (240.00 GB, 223.52 GiB) user capacity)")
                .doesNotContain("simulating");
        assertThat(tooBig.out()).isEmpty();
        CliRun tweakersOn120 = CliRun.of(
                "simulate", "--offline", "--ssd", "sata-mlc-120gb-2012", "--workload", "seed001-tweakers-continuous");
        assertThat(tweakersOn120.exit()).isEqualTo(Main.EXIT_BAD_INPUT);
        assertThat(tweakersOn120.err())
                .contains("160000000000 B (160.00 GB, 149.01 GiB)")
                .contains("120000000000 B (120.00 GB, 111.76 GiB)");
    }

    /**
     * The demo's 0 GB-free run (seed 000 exp. 1): a flat fresh-out-of-box plateau that fio's iops_slope judges
     * steady at 60 s, then the write cliff when the free flash (the drive's spare) is used up, at about 240 s. The
     * verdict says it was lost. (The run ends before GC's on/off cycle could make a later window steady again.)
     */
    @Test
    void theDemosCliffRunSaysItsSteadyStateWasLost() throws Exception {
        CliRun r = CliRun.of(
                "simulate",
                "--offline",
                "--quiet",
                "--format",
                "json",
                "--ssd",
                "sata-mlc-120gb-2012",
                "--workload",
                "seed000-exp1-random-write",
                "--set",
                "freeFlashGB=0",
                "--duration",
                "280s");
        assertThat(r.exit()).as(r.err()).isZero();
        JsonNode fio = null;
        for (JsonNode v : new ObjectMapper().readTree(r.out()).get("steadyState")) {
            if (v.get("op").asText().equals("WRITE") && v.get("method").asText().equals("FIO_IOPS_SLOPE")) {
                fio = v;
            }
        }
        assertThat(fio).as("the write direction's fio verdict").isNotNull();
        assertThat(fio.get("reached").asBoolean())
                .as("fio's own verdict: reached on the plateau")
                .isTrue();
        assertThat(fio.get("reachedAtNs").asLong()).isEqualTo(60_000_000_000L);
        assertThat(fio.get("lostAtNs").asLong()).as("lost at the cliff").isBetween(220_000_000_000L, 260_000_000_000L);

        CliRun text = CliRun.of(
                "simulate",
                "--offline",
                "--quiet",
                "--ssd",
                "sata-mlc-120gb-2012",
                "--workload",
                "seed000-exp1-random-write",
                "--set",
                "freeFlashGB=0",
                "--duration",
                "280s");
        assertThat(text.out()).containsPattern("WRITE FIO_IOPS_SLOPE: REACHED at 60 s, LOST at 2[2-5][0-9] s");
    }
}
