package dev.ssdpulse.cli;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** REPLAY phases through the commands: the load time in the summaries, bad traces refused in one line. */
class ReplayCommandTest {
    @TempDir
    Path dir;

    private Path workload(String trace, String extra) throws Exception {
        Path w = dir.resolve("w.yaml");
        Files.writeString(
                w,
                "name: replay\ntargetSize: 64MiB\nphases:\n  - {name: load, kind: REPLAY, trace: " + trace + extra
                        + "}\n");
        return w;
    }

    @Test
    void theSimulatedBootPresetHasItsLoadTimeAndReplayResultInTheSummaryJson() throws Exception {
        CliRun r = CliRun.of(
                "simulate",
                "--workload",
                "seed003-load-boot",
                "--set",
                "timing=fast",
                "--offline",
                "--format",
                "json",
                "--quiet");
        assertThat(r.exit()).as(r.err()).isZero();
        JsonNode s = new ObjectMapper().readTree(r.out());
        assertThat(s.get("ioCount").asLong()).isEqualTo(9_701);
        JsonNode phase = s.get("phases").get(0);
        assertThat(phase.get("kind").asText()).isEqualTo("REPLAY");
        assertThat(phase.get("loadTimeNs").asLong())
                .isEqualTo(phase.get("endNs").asLong() - phase.get("startNs").asLong())
                .isPositive();
        JsonNode replay = phase.get("replay");
        assertThat(replay.get("trace").asText()).isEqualTo("classpath:workloads/traces/boot.iolog.gz");
        assertThat(replay.get("timing").asText()).isEqualTo("fast");
        assertThat(replay.get("traceIoCount").asLong()).isEqualTo(9_701);
        assertThat(replay.get("issuedIoCount").asLong()).isEqualTo(9_701);
    }

    @Test
    void aRecordedReplayOnTheNullEngineSaysItsLoadTimeInTheTextSummary() throws Exception {
        Path trace = dir.resolve("t.iolog");
        StringBuilder b = new StringBuilder("fio version 3 iolog\n");
        for (int i = 0; i < 50; i++) {
            b.append(i * 1000)
                    .append(" /dev/x ")
                    .append(i % 4 == 0 ? "write " : "read ")
                    .append(i * 8192)
                    .append(" 4096\n");
        }
        Files.writeString(trace, b);
        CliRun r = CliRun.of(
                "device",
                "--target",
                dir.resolve("n.bin").toString(),
                "--size",
                "64MiB",
                "--engine",
                "null",
                "--workload",
                workload("t.iolog", "").toString(),
                "--offline",
                "--quiet");
        assertThat(r.exit()).as(r.err()).isZero();
        assertThat(r.out())
                .containsPattern(
                        "phase 0 'load' \\(REPLAY\\), .*, load time \\d+\\.\\d{3} s \\(trace .*t\\.iolog, 50 of 50"
                                + " I/Os issued, recorded timing x1: \\d+ issued more than 1 ms late, issue lag p50 \\d+ us,"
                                + " p99 \\d+ us\\)");
    }

    @Test
    void aMalformedTraceLineIsOneErrorLineWithFileLineAndWhatWasExpected() throws Exception {
        Path trace = dir.resolve("bad.iolog");
        Files.writeString(trace, "fio version 3 iolog\n0 /dev/x read 0 4096\n5 /dev/x read 4096\n");
        for (String command : new String[] {"simulate", "device"}) {
            CliRun r = command.equals("simulate")
                    ? CliRun.of(
                            "simulate", "--workload", workload("bad.iolog", "").toString(), "--offline", "--quiet")
                    : CliRun.of(
                            "device",
                            "--target",
                            dir.resolve("d.bin").toString(),
                            "--size",
                            "64MiB",
                            "--workload",
                            workload("bad.iolog", "").toString(),
                            "--offline",
                            "--quiet");
            assertThat(r.exit()).as(r.output()).isEqualTo(Main.EXIT_BAD_INPUT);
            assertThat(r.err())
                    .as(command)
                    .isEqualTo("error: " + trace + ":3: expected 'TIMESTAMP FILE ACTION OFFSET LENGTH' or 'TIMESTAMP"
                            + " FILE add|open|close' (fio iolog v3), found '5 /dev/x read 4096'"
                            + System.lineSeparator());
            assertThat(r.out()).as(command).isEmpty();
        }
    }

    @Test
    void aTraceLargerThanTheTargetIsRefusedNamingBothSizes() throws Exception {
        Path trace = dir.resolve("big.iolog");
        Files.writeString(trace, "fio version 3 iolog\n0 /dev/x read 0 4096\n5 /dev/x read 1073741824 4096\n");
        CliRun r = CliRun.of("simulate", "--workload", workload("big.iolog", "").toString(), "--offline", "--quiet");
        assertThat(r.exit()).isEqualTo(Main.EXIT_BAD_INPUT);
        assertThat(r.err())
                .startsWith("error: phase 'load': trace " + trace + " addresses 1073745920 B")
                .contains("but the span is 67108864 B")
                .contains("remap: wrap")
                .hasLineCount(1);
    }
}
