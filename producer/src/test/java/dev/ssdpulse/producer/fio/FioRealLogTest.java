package dev.ssdpulse.producer.fio;

import static org.assertj.core.api.Assertions.assertThat;

import dev.ssdpulse.schemas.iobatch.IoOpCode;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Runs the real fio (must be installed: CI does {@code apt-get install fio}; missing fio FAILS this test) on
 * a small temp file and checks the parser yields exactly one event per log line with identical values, and
 * that the per-direction counts match fio's own JSON totals.
 */
class FioRealLogTest {
    @TempDir
    static Path dir;

    static FioJsonReport report;

    @BeforeAll
    static void runFio() throws Exception {
        List<String> cmd = new ArrayList<>(List.of(
                "fio",
                "--name=job",
                "--filename=" + dir.resolve("data"),
                "--size=16M",
                "--rw=randrw",
                "--rwmixread=70",
                "--bs=4k",
                "--ioengine=psync",
                "--runtime=2",
                "--time_based",
                "--write_lat_log=" + dir.resolve("run"),
                "--log_offset=1",
                "--output-format=json+",
                "--output=" + dir.resolve("out.json")));
        int rc = run(cmd, "--direct=1");
        if (rc != 0) {
            rc = run(cmd, "--direct=0"); // a file system without O_DIRECT (tmpfs)
        }
        assertThat(rc)
                .as("fio exit code (is fio installed? apt-get install -y fio)")
                .isZero();
        report = FioJsonReport.read(dir.resolve("out.json"));
    }

    private static int run(List<String> cmd, String direct) throws IOException, InterruptedException {
        List<String> full = new ArrayList<>(cmd);
        full.add(direct);
        Process p;
        try {
            p = new ProcessBuilder(full)
                    .redirectErrorStream(true)
                    .redirectOutput(dir.resolve("fio.out").toFile())
                    .start();
        } catch (IOException e) {
            throw new AssertionError(
                    "fio is not installed or not on PATH (apt-get install -y fio): " + e.getMessage(), e);
        }
        if (!p.waitFor(60, TimeUnit.SECONDS)) {
            p.destroyForcibly();
            throw new AssertionError("fio did not finish within 60 s");
        }
        return p.exitValue();
    }

    @Test
    void clatAndLatLogsParseLineForLine() throws IOException {
        for (String name : List.of("run_clat.1.log", "run_lat.1.log")) {
            Path log = dir.resolve(name);
            List<String> lines = Files.readAllLines(log, StandardCharsets.US_ASCII);
            assertThat(lines).hasSizeGreaterThan(100);
            List<long[]> events = new ArrayList<>();
            long n = new FioLatencyLogParser()
                    .parse(log, (t, l, op, bs, off, prio) -> events.add(new long[] {t, l, op, bs, off, prio}));
            assertThat(n).isEqualTo(lines.size());
            assertThat(events).hasSize(lines.size());
            long[] perOp = new long[3];
            for (int i = 0; i < lines.size(); i++) {
                String[] cols = lines.get(i).split(",");
                long[] e = events.get(i);
                for (int c = 0; c < cols.length; c++) {
                    assertThat(e[c])
                            .as("%s line %d column %d", name, i + 1, c + 1)
                            .isEqualTo(Long.parseLong(cols[c].trim()));
                }
                assertThat(e[3]).isEqualTo(4096);
                perOp[(int) e[2]]++;
            }
            FioJsonReport.Job job = report.jobs().get(0);
            assertThat(perOp[IoOpCode.READ]).isEqualTo(job.read().totalIos());
            assertThat(perOp[IoOpCode.WRITE]).isEqualTo(job.write().totalIos());
            assertThat(FioLogType.fromFileName(log).isIoLatency()).isTrue();
        }
    }

    @Test
    void jsonReportTotals() {
        assertThat(report.fioVersion()).startsWith("fio-3.");
        FioJsonReport.Job job = report.jobs().get(0);
        assertThat(job.name()).isEqualTo("job");
        assertThat(job.read().totalIos()).isPositive();
        assertThat(job.read().ioBytes()).isEqualTo(job.read().totalIos() * 4096);
        assertThat(job.read().clatNs().count()).isEqualTo(job.read().totalIos());
        assertThat(job.read().clatNs().percentiles()).containsKey(99.9);
        assertThat(job.read().clatNs().bins().values().stream()
                        .mapToLong(Long::longValue)
                        .sum())
                .isEqualTo(job.read().totalIos());
        assertThat(job.read().clatNs().meanNs())
                .isBetween((double) job.read().clatNs().minNs(), (double)
                        job.read().clatNs().maxNs());
        assertThat(job.trim().totalIos()).isZero();
    }
}
