package dev.ssdpulse.cli;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Files;
import java.nio.file.Path;

import static org.assertj.core.api.Assertions.assertThat;

/** {@code device --offline} on a file: real O_DIRECT I/O, the file created at --size and never grown. */
class DeviceCommandTest {

    private static String[] run(String... args) {
        StringWriter out = new StringWriter();
        StringWriter err = new StringWriter();
        var cli = Main.commandLine();
        cli.setOut(new PrintWriter(out));
        cli.setErr(new PrintWriter(err));
        int exit = cli.execute(args);
        return new String[] {Integer.toString(exit), out.toString(), err.toString()};
    }

    @Test
    void randomReadsAndWritesOnAFileAreTimedAndSummarised(@TempDir Path dir) throws Exception {
        Path file = dir.resolve("target.bin");
        String[] r = run("device", "--target", file.toString(), "--size", "32MiB", "--workload", "seed003-mixed-80-20",
                "--duration", "2s", "--queue-depth", "4", "--offline", "--format", "json", "--quiet");
        assertThat(r[0]).as(r[2]).isEqualTo("0");
        assertThat(Files.size(file)).as("created at --size, never grown").isEqualTo(32L << 20);
        JsonNode summary = new ObjectMapper().readTree(r[1]);
        assertThat(summary.get("ioCount").asLong()).isPositive().isEqualTo(summary.get("ioCountExpected").asLong());
        assertThat(summary.get("ops")).extracting(op -> op.get("op").asText()).contains("READ", "WRITE");
        assertThat(summary.get("writeAmplification").get("cumulative").isNull()).as("no SMART on a file").isTrue();
    }

    @Test
    void aFileTargetThatDoesNotExistNeedsASize(@TempDir Path dir) {
        String[] r = run("device", "--target", dir.resolve("missing.bin").toString(), "--workload", "seed003-mixed-80-20",
                "--offline");
        assertThat(r[0]).isEqualTo(Integer.toString(Main.EXIT_BAD_INPUT));
        assertThat(r[2]).contains("missing.bin");
    }

    @Test
    void theNullEngineMeasuresTheToolItself(@TempDir Path dir) throws Exception {
        String[] r = run("device", "--target", dir.resolve("n.bin").toString(), "--size", "16MiB", "--engine", "null",
                "--workload", "seed003-qd1-random-read-1000s", "--duration", "1s", "--offline", "--format", "json", "--quiet");
        assertThat(r[0]).as(r[2]).isEqualTo("0");
        JsonNode summary = new ObjectMapper().readTree(r[1]);
        assertThat(summary.get("ioCount").asLong()).as("the tool alone does far more than a disk at QD1").isGreaterThan(20_000);
    }
}
