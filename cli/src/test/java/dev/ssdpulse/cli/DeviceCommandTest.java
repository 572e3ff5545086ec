package dev.ssdpulse.cli;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.Random;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** {@code device --offline} on a file: real O_DIRECT I/O, the file created at --size and never grown. */
class DeviceCommandTest {

    @Test
    void randomReadsAndWritesOnAFileAreTimedAndSummarised(@TempDir Path dir) throws Exception {
        Path file = dir.resolve("target.bin");
        CliRun r = CliRun.of(
                "device",
                "--target",
                file.toString(),
                "--size",
                "32MiB",
                "--workload",
                "seed003-mixed-80-20",
                "--duration",
                "2s",
                "--queue-depth",
                "4",
                "--offline",
                "--format",
                "json",
                "--quiet");
        assertThat(r.exit()).as(r.err()).isEqualTo(0);
        assertThat(Files.size(file)).as("created at --size, never grown").isEqualTo(32L << 20);
        JsonNode summary = new ObjectMapper().readTree(r.out());
        assertThat(summary.get("ioCount").asLong())
                .isPositive()
                .isEqualTo(summary.get("ioCountExpected").asLong());
        assertThat(summary.get("ops")).extracting(op -> op.get("op").asText()).contains("READ", "WRITE");
        assertThat(summary.get("writeAmplification").get("cumulative").isNull())
                .as("no SMART on a file")
                .isTrue();
    }

    @Test
    void aFileTargetThatDoesNotExistNeedsASize(@TempDir Path dir) {
        CliRun r = CliRun.of(
                "device",
                "--target",
                dir.resolve("missing.bin").toString(),
                "--workload",
                "seed003-mixed-80-20",
                "--offline");
        assertThat(r.exit()).isEqualTo(Main.EXIT_BAD_INPUT);
        assertThat(r.err()).contains("missing.bin");
    }

    /**
     * A writing run on an existing file of someone's data is refused, naming its size, and the file is left as it
     * was; with --allow-destroy-data the run overwrites it.
     */
    @Test
    void anExistingFileIsNeverOverwrittenWithoutAllowDestroyData(@TempDir Path dir) throws Exception {
        Path file = dir.resolve("thesis.tar");
        byte[] data = new byte[(3 << 20) + 4096];
        new Random(11).nextBytes(data);
        Files.write(file, data);
        String[] args = {
            "device",
            "--target",
            file.toString(),
            "--workload",
            "seed003-qd32-random-write-5000s",
            "--duration",
            "1s",
            "--offline",
            "--format",
            "json",
            "--quiet"
        };
        CliRun refused = CliRun.of(args);
        assertThat(refused.exit()).as(refused.err()).isEqualTo(Main.EXIT_BAD_INPUT);
        assertThat(refused.err().strip())
                .as("one line, no stack trace")
                .doesNotContain("\n")
                .contains("refusing to write to " + file)
                .contains("3149824 B (3.15 MB, 3.00 MiB)")
                .contains("--allow-destroy-data");
        assertThat(refused.out()).isEmpty();
        assertThat(Files.readAllBytes(file)).as("the file is untouched").isEqualTo(data);

        Path randread = dir.resolve("randread.yaml");
        Files.writeString(randread, """
                name: randread
                seed: 1
                phases:
                  - name: test
                    kind: TEST
                    accessSpecs:
                      - {transferSize: 4KiB, percentRead: 100, percentRandom: 100}
                    queueDepth: 4
                    duration: 1s
                """);
        CliRun reading = CliRun.of(
                "device",
                "--target",
                file.toString(),
                "--workload",
                randread.toString(),
                "--offline",
                "--format",
                "json",
                "--quiet");
        assertThat(reading.exit())
                .as("reading destroys nothing: " + reading.err())
                .isZero();
        assertThat(Files.readAllBytes(file)).isEqualTo(data);

        String[] allowed = Arrays.copyOf(args, args.length + 1);
        allowed[args.length] = "--allow-destroy-data";
        CliRun overwritten = CliRun.of(allowed);
        assertThat(overwritten.exit()).as(overwritten.err()).isZero();
        assertThat(overwritten.err()).contains("--allow-destroy-data given: overwriting the existing file");
        assertThat(Files.readAllBytes(file)).as("written, as asked").isNotEqualTo(data);
    }

    /** A span beyond the target is refused with both sizes before the target is created or any phase runs. */
    @Test
    void aSpanBeyondTheTargetIsRefusedBeforeAnyIo(@TempDir Path dir) {
        Path file = dir.resolve("small.bin");
        CliRun r = CliRun.of(
                "device",
                "--target",
                file.toString(),
                "--size",
                "32MiB",
                "--workload",
                "seed003-qd32-random-write-5000s",
                "--span",
                "1GB",
                "--offline");
        assertThat(r.exit()).as(r.err()).isEqualTo(Main.EXIT_BAD_INPUT);
        assertThat(r.err())
                .contains("[0, 1000000000) is not inside a target of 33554432 B (33.55 MB, 32.00 MiB)")
                .doesNotContain("phase 1");
        assertThat(file).as("not created for a run that cannot start").doesNotExist();
    }

    @Test
    void theNullEngineMeasuresTheToolItself(@TempDir Path dir) throws Exception {
        CliRun r = CliRun.of(
                "device",
                "--target",
                dir.resolve("n.bin").toString(),
                "--size",
                "16MiB",
                "--engine",
                "null",
                "--workload",
                "seed003-qd1-random-read-1000s",
                "--duration",
                "1s",
                "--offline",
                "--format",
                "json",
                "--quiet");
        assertThat(r.exit()).as(r.err()).isEqualTo(0);
        JsonNode summary = new ObjectMapper().readTree(r.out());
        assertThat(summary.get("ioCount").asLong())
                .as("the tool alone does far more than a disk at QD1")
                .isGreaterThan(20_000);
    }

    @Test
    void everyEngineRunsTheSameWorkloadAndTheChoiceIsRecorded(@TempDir Path dir) throws Exception {
        Path workload = dir.resolve("randread.yaml");
        Files.writeString(workload, """
                name: randread
                seed: 1
                phases:
                  - name: test
                    kind: TEST
                    accessSpecs:
                      - {transferSize: 4KiB, percentRead: 100, percentRandom: 100}
                    queueDepth: 32
                    duration: 1s
                """);
        for (String engine : new String[] {"libaio", "io_uring", "psync"}) {
            CliRun r = CliRun.of(
                    "device",
                    "--target",
                    dir.resolve("e.bin").toString(),
                    "--size",
                    "16MiB",
                    "--engine",
                    engine,
                    "--workload",
                    workload.toString(),
                    "--offline",
                    "--format",
                    "json");
            if (r.err().contains("is not available here")) {
                assertThat(engine).as(r.err()).isEqualTo("io_uring"); // refused by this kernel: said so, exit 2
                assertThat(r.exit()).isEqualTo(Main.EXIT_BAD_INPUT);
                continue;
            }
            assertThat(r.exit()).as(engine + ": " + r.err()).isEqualTo(0);
            assertThat(r.err())
                    .contains("engine " + (engine.equals("psync") ? "sync-direct-workers" : engine))
                    .containsPattern(
                            "phase \\d+ 'test' ended \\(DURATION\\): \\d+ I/Os, \\d+ IOPS, 0 errors, process CPU "
                                    + "[0-9.]+ us/IO");
            JsonNode summary = new ObjectMapper().readTree(r.out());
            assertThat(summary.get("ioCount").asLong()).isPositive();
        }
        CliRun batched = CliRun.of(
                "device",
                "--target",
                dir.resolve("e.bin").toString(),
                "--engine",
                "libaio",
                "--submit-batch",
                "8",
                "--workload",
                workload.toString(),
                "--offline",
                "--format",
                "json");
        assertThat(batched.exit()).as(batched.err()).isEqualTo(0);
        assertThat(batched.err()).contains("engine libaio (submit batch 8)");
        CliRun bad = CliRun.of(
                "device",
                "--target",
                dir.resolve("e.bin").toString(),
                "--engine",
                "posixaio",
                "--workload",
                "seed003-qd1-random-read-1000s",
                "--offline");
        assertThat(bad.exit()).isEqualTo(Main.EXIT_BAD_INPUT);
        assertThat(bad.err()).contains("auto|io_uring|libaio|psync|null");
        CliRun zeroBatch = CliRun.of(
                "device",
                "--target",
                dir.resolve("e.bin").toString(),
                "--submit-batch",
                "0",
                "--workload",
                workload.toString(),
                "--offline");
        assertThat(zeroBatch.exit()).isEqualTo(Main.EXIT_BAD_INPUT);
        assertThat(zeroBatch.err()).contains("--submit-batch must be at least 1");
        CliRun pinned = CliRun.of(
                "device",
                "--target",
                dir.resolve("e.bin").toString(),
                "--engine",
                "libaio",
                "--cpus-allowed",
                "0",
                "--workload",
                workload.toString(),
                "--offline",
                "--format",
                "json");
        assertThat(pinned.exit()).as(pinned.err()).isEqualTo(0);
        assertThat(pinned.err()).contains("I/O threads on CPUs 0 (run ");
        CliRun badList = CliRun.of(
                "device",
                "--target",
                dir.resolve("e.bin").toString(),
                "--cpus-allowed",
                "2-1",
                "--workload",
                workload.toString(),
                "--offline");
        assertThat(badList.exit()).isEqualTo(Main.EXIT_BAD_INPUT);
        assertThat(badList.err()).contains("--cpus-allowed: CPU range 2-1 in '2-1' runs backwards");
        CliRun absentCpu = CliRun.of(
                "device",
                "--target",
                dir.resolve("e.bin").toString(),
                "--cpus-allowed",
                "0,4000-4095",
                "--workload",
                workload.toString(),
                "--offline");
        assertThat(absentCpu.exit()).isEqualTo(Main.EXIT_BAD_INPUT);
        assertThat(absentCpu.err())
                .contains("--cpus-allowed 0,4000-4095: CPU(s) 4000-4095 not available to this process"
                        + " (it may run on 0");
    }

    /**
     * A device that fails its writes mid-run: a loop device over a 64 MiB sparse image on an 8 MiB tmpfs (no
     * device-mapper on this machine). The run ends FAILED with the errors counted, and the summary is still printed.
     */
    @Test
    void aDeviceErrorEndsTheRunFailedWithItsSummary(@TempDir Path dir) throws Exception {
        Path mount = Files.createDirectory(dir.resolve("small"));
        Assumptions.assumeTrue(
                exec("mount", "-t", "tmpfs", "-o", "size=8m", "tmpfs", mount.toString()),
                "needs root to mount a tmpfs");
        String loop = null;
        try {
            Path image = mount.resolve("disk.img");
            Assumptions.assumeTrue(exec("truncate", "-s", "64M", image.toString()));
            Process p = new ProcessBuilder("losetup", "-f", "--show", image.toString()).start();
            loop = new String(p.getInputStream().readAllBytes()).trim();
            Assumptions.assumeTrue(p.waitFor() == 0 && loop.startsWith("/dev/loop"), "losetup");
            Path workload = dir.resolve("fill.yaml");
            Files.writeString(workload, """
                    name: fill
                    seed: 1
                    phases:
                      - name: fill
                        kind: PRECONDITION_INDEPENDENT
                        accessSpecs:
                          - {transferSize: 128KiB, percentRead: 0, percentRandom: 0}
                        queueDepth: 8
                        totalBytes: 100%
                    """);
            CliRun r = CliRun.of(
                    "device",
                    "--target",
                    loop,
                    "--engine",
                    "libaio",
                    "--workload",
                    workload.toString(),
                    "--offline",
                    "--format",
                    "json");
            assertThat(r.exit()).as(r.err()).isEqualTo(1);
            assertThat(r.err())
                    .contains("ended (FAILED)")
                    .contains("device error")
                    .contains("WRITE");
            JsonNode summary = new ObjectMapper().readTree(r.out());
            assertThat(summary.get("status").asText()).isEqualTo("FAILED");
            assertThat(summary.toString()).contains("device error");
            assertThat(summary.get("ioCount").asLong()).isPositive();
        } finally {
            if (loop != null) {
                exec("losetup", "-d", loop);
            }
            exec("umount", "-l", mount.toString());
        }
    }

    private static boolean exec(String... cmd) {
        try {
            Process p = new ProcessBuilder(cmd).redirectErrorStream(true).start();
            p.getInputStream().readAllBytes();
            return p.waitFor() == 0;
        } catch (Exception e) {
            return false;
        }
    }

    /** seed 002's protocol on a real block device: set, record, restore; and the refusal of an unknown name. */
    @Test
    void schedulerIsSetForTheRunAndRestoredAfterwards(@TempDir Path dir) throws Exception {
        Path image = dir.resolve("disk.img");
        Files.write(image, new byte[16 << 20]);
        Process p = new ProcessBuilder("losetup", "-f", "--show", image.toString()).start();
        String loop = new String(p.getInputStream().readAllBytes()).trim();
        Assumptions.assumeTrue(p.waitFor() == 0 && loop.startsWith("/dev/loop"), "needs losetup");
        try {
            Path file = Path.of("/sys/block", Path.of(loop).getFileName().toString(), "queue/scheduler");
            Assumptions.assumeTrue(Files.isWritable(file), "needs a writable /sys");
            String before = Files.readString(file);
            Assumptions.assumeTrue(before.contains("mq-deadline") && before.contains("[none]"));
            CliRun r = CliRun.of(
                    "device",
                    "--target",
                    loop,
                    "--engine",
                    "libaio",
                    "--scheduler",
                    "mq-deadline",
                    "--workload",
                    "seed002-hdparm-direct-read",
                    "--set",
                    "runSeconds=1",
                    "--set",
                    "repetitions=2",
                    "--offline",
                    "--format",
                    "json");
            assertThat(r.exit()).as(r.err()).isEqualTo(0);
            assertThat(r.err())
                    .contains("I/O scheduler of loop")
                    .contains("mq-deadline for this run (was none")
                    .contains("scheduler mq-deadline (run ");
            assertThat(Files.readString(file)).as("restored").isEqualTo(before);
            CliRun bad = CliRun.of(
                    "device",
                    "--target",
                    loop,
                    "--scheduler",
                    "cfq",
                    "--workload",
                    "seed002-hdparm-direct-read",
                    "--offline");
            assertThat(bad.exit()).isEqualTo(Main.EXIT_BAD_INPUT);
            assertThat(bad.err()).contains("--scheduler cfq: not available").contains("offers: none, mq-deadline");
            assertThat(Files.readString(file)).isEqualTo(before);
        } finally {
            exec("losetup", "-d", loop);
        }
    }
}
