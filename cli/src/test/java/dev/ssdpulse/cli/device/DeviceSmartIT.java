package dev.ssdpulse.cli.device;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;
import static org.awaitility.Awaitility.await;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.ssdpulse.platform.TopicCreation;
import dev.ssdpulse.platform.testing.KafkaTestEnvironment;
import dev.ssdpulse.platform.testing.TestJvmOptions;
import dev.ssdpulse.platform.testing.TestStack;
import dev.ssdpulse.producer.smart.StandInDrive;
import dev.ssdpulse.schemas.avro.RunSummary;
import dev.ssdpulse.schemas.avro.WriteAmplification;
import dev.ssdpulse.streams.app.AnalyticsApp;
import dev.ssdpulse.streams.app.AnalyticsConfig;
import dev.ssdpulse.streams.views.AnalyticsViews;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.io.TempDir;

/**
 * Write amplification end to end from a drive's own counters: `ssdpulse smart` and `ssdpulse device` on a file
 * target, in child JVMs whose PATH starts with stand-in smartctl and nvme executables ({@link StandInDrive}) that
 * serve a drive's outputs with counters advancing poll by poll, streamed through the real broker into the live
 * analytics. Every live WA record (window and cumulative, with bounds and resolved flag) equals what the counters
 * served imply, worked out here from the sequences by the bound formula, not by the code under test.
 */
@ExtendWith(KafkaTestEnvironment.class)
class DeviceSmartIT {
    static final long MIB32 = 32L << 20;
    static final long GIB = 1L << 30;
    static final int STEPS = 60;
    private static TestStack stack;
    /** One live analytics for both runs (each run is its own key). */
    private static AnalyticsApp app;

    @TempDir
    static Path stateDir;

    @TempDir
    Path temp;

    @BeforeAll
    static void init(TestStack shared) throws Exception {
        stack = shared;
        TopicCreation.createCatalogueIfMissing(stack.bootstrapServers(), (short) 1);
        app = new AnalyticsApp(AnalyticsConfig.defaults(stack.bootstrapServers(), stack.schemaRegistryUrl(), stateDir)
                .withApplicationId("device-smart-it-" + UUID.randomUUID()));
        app.start();
        app.awaitRunning(Duration.ofSeconds(60));
    }

    @AfterAll
    static void stopAnalytics() {
        if (app != null) {
            app.close();
        }
    }

    /** The SATA drive: an Intel 520 whose host counter moves 640 x 32 MiB (20 GiB) and NAND counter 29 GiB a poll. */
    static long hostUnits(int step) {
        return 140_800 + 640L * step;
    }

    static long nandGib(int step) {
        return 6160 + 29L * step;
    }

    @Test
    void liveWaAndItsBoundsFromASataDrivesQuantisedCountersAreWhatTheCountersImply() throws Exception {
        StandInDrive drive = StandInDrive.in(temp.resolve("tools"))
                .serve(
                        "smartctl",
                        "",
                        StandInDrive.ataSequence(
                                "smartctl-ata-intel-520.json",
                                STEPS,
                                k -> Map.of(225, hostUnits(k), 241, hostUnits(k), 249, nandGib(k))));
        Path sda = Files.createFile(temp.resolve("sda"));

        String smart = cli(drive, List.of("smart", "--target", temp.toString(), "--smart-device", sda.toString()))
                .out();
        assertThat(smart)
                .contains("drive     " + sda + ": INTEL SSDSC2CW120A3 (Intel 520 Series SSDs)")
                .contains("nand writes            smartctl: 249 NAND_Writes_1GiB = 6,160 x GiB")
                .contains("WA        available: smartctl: 249 NAND_Writes_1GiB over smartctl: 225 Host_Writes_32MiB")
                .contains("a run resolves it (bounds within 5 %) after about");
        drive.restart();

        String runId = "it-smart-sata-" + UUID.randomUUID().toString().substring(0, 8);
        int polls = runDevice(drive, runId, sda);
        List<WriteAmplification> series = awaitSeries(app.views(), runId, polls - 1);
        long host0 = hostUnits(0);
        long nand0 = nandGib(0);
        int resolvedFrom = -1;
        for (int i = 0; i < series.size(); i++) {
            WriteAmplification w = series.get(i);
            int j = Math.min(i + 1, STEPS - 1); // the sample ending this interval served step j
            int from = Math.min(i, STEPS - 1);
            long hostCum = (hostUnits(j) - host0) * MIB32;
            long nandCum = (nandGib(j) - nand0) * GIB;
            assertThat(w.getUnit()).isEqualTo("B");
            assertThat(w.getHostResolution()).isEqualTo(MIB32);
            assertThat(w.getNandResolution()).isEqualTo(GIB);
            assertThat(w.getHostBytesWrittenCumulative()).as("record " + i).isEqualTo(hostCum);
            assertThat(w.getNandBytesWrittenCumulative()).as("record " + i).isEqualTo(nandCum);
            assertThat(w.getWaCumulative()).isCloseTo((double) nandCum / hostCum, within(1e-12));
            // one step of each counter for the whole unbroken chain of samples
            double low = (double) (nandCum - GIB) / (hostCum + MIB32);
            double high = (double) (nandCum + GIB) / (hostCum - MIB32);
            assertThat(w.getWaCumulativeLow()).isCloseTo(low, within(1e-12));
            assertThat(w.getWaCumulativeHigh()).isCloseTo(high, within(1e-12));
            boolean resolved = high - low <= 0.05 * nandCum / hostCum;
            assertThat(w.getWaCumulativeResolved())
                    .as("record " + i + " resolved")
                    .isEqualTo(resolved);
            if (resolved && resolvedFrom < 0) {
                resolvedFrom = i;
            }
            long hostDelta = (hostUnits(j) - hostUnits(from)) * MIB32;
            if (hostDelta > 0) {
                long nandDelta = (nandGib(j) - nandGib(from)) * GIB;
                assertThat(w.getWaWindowLow())
                        .isCloseTo((double) (nandDelta - GIB) / (hostDelta + MIB32), within(1e-12));
                assertThat(w.getWaWindowHigh())
                        .isCloseTo((double) (nandDelta + GIB) / (hostDelta - MIB32), within(1e-12));
                assertThat(w.getWaWindowResolved())
                        .as("one poll's 29 GiB is not enough")
                        .isFalse();
            }
        }
        assertThat(series.get(0).getWaCumulativeResolved())
                .as("not yet resolvable after one poll")
                .isFalse();
        assertThat(resolvedFrom).as("resolved from the second interval on").isEqualTo(1);
        RunSummary summary = awaitSummary(app.views(), runId);
        WriteAmplification last = series.get(series.size() - 1);
        assertThat(summary.getWriteAmplification().getWaCumulativeLow()).isEqualTo(last.getWaCumulativeLow());
        assertThat(summary.getWriteAmplification().getWaCumulativeResolved()).isTrue();
        assertThat(summary.getPhases())
                .anySatisfy(p -> assertThat(p.getWriteAmplificationResolved()).isTrue());
    }

    @Test
    void anNvmeDriveWithoutTheOcpLogGivesWaThroughItsVendorPluginWithTheSameBounds() throws Exception {
        // an Intel P4510: no OCP log, NAND in log CAh counted in 32 MiB, host writes in the standard log's 512,000 B
        long hostBytesPerPoll = 20 * GIB;
        StandInDrive drive = StandInDrive.in(temp.resolve("tools"))
                .serveFixture("nvme", "id-ctrl", "nvme-id-ctrl-intel.json")
                .serve(
                        "nvme",
                        "smart-log",
                        StandInDrive.fieldSequence(
                                "nvme-smart-log.json",
                                STEPS,
                                k -> Map.of(
                                        "/data_units_written", dataUnits(1_000_000 * 512_000L + hostBytesPerPoll * k))))
                .serve(
                        "nvme",
                        "intel_smart-log-add",
                        StandInDrive.fieldSequence(
                                "nvme-intel-smart-log-add.json",
                                STEPS,
                                k -> Map.of("/Device stats/nand_bytes_written/raw", 1_150_000L + 928L * k)));
        Path nvme0n1 = Files.createFile(temp.resolve("nvme0n1"));

        JsonNode smart = new ObjectMapper()
                .readTree(cli(
                                drive,
                                List.of(
                                        "smart",
                                        "--target",
                                        temp.toString(),
                                        "--smart-device",
                                        nvme0n1.toString(),
                                        "--format",
                                        "json"))
                        .out());
        assertThat(smart.get("drive").asText()).isEqualTo("INTEL SSDPE2KX010T8 (PCI vendor 0x8086)");
        assertThat(smart.at("/writeAmplification/available").asBoolean()).isTrue();
        assertThat(smart.at("/writeAmplification/nandSources/0").asText())
                .isEqualTo("nvme intel smart-log-add: nand_bytes_written");
        assertThat(smart.at("/writeAmplification/nandResolution").asLong()).isEqualTo(MIB32);
        assertThat(smart.get("notes").toString()).contains("not used: nvme ocp smart-add-log");
        drive.restart();

        String runId = "it-smart-nvme-" + UUID.randomUUID().toString().substring(0, 8);
        int polls = runDevice(drive, runId, nvme0n1);
        List<WriteAmplification> series = awaitSeries(app.views(), runId, polls - 1);
        for (int i = 0; i < series.size(); i++) {
            WriteAmplification w = series.get(i);
            int j = Math.min(i + 1, STEPS - 1);
            long hostCum = (dataUnits(1_000_000 * 512_000L + hostBytesPerPoll * j) - dataUnits(1_000_000 * 512_000L))
                    * 512_000L;
            long nandCum = 928L * j * MIB32;
            assertThat(w.getSource().name()).isEqualTo("NVME_SMART_LOG");
            assertThat(w.getHostBytesWrittenCumulative()).isEqualTo(hostCum);
            assertThat(w.getNandBytesWrittenCumulative()).isEqualTo(nandCum);
            assertThat(w.getWaCumulativeLow())
                    .isCloseTo((double) (nandCum - MIB32) / (hostCum + 512_000L), within(1e-12));
            assertThat(w.getWaCumulativeHigh())
                    .isCloseTo((double) (nandCum + MIB32) / (hostCum - 512_000L), within(1e-12));
            assertThat(w.getWaCumulativeResolved())
                    .as("fine counters resolve at once")
                    .isTrue();
        }
    }

    /** NVMe data units written for {@code bytes}: thousands of 512 bytes, rounded up as the specification says. */
    static long dataUnits(long bytes) {
        return -Math.floorDiv(-bytes, 512_000L);
    }

    /** The device run; the number of SMART readings it published. */
    private int runDevice(StandInDrive drive, String runId, Path smartDevice) throws Exception {
        Path workload = temp.resolve("writes.yaml");
        Files.writeString(workload, """
                name: random-writes
                seed: 1
                phases:
                  - name: writes
                    kind: TEST
                    accessSpecs:
                      - {transferSize: 4KiB, percentRead: 0, percentRandom: 100}
                    queueDepth: 4
                    duration: 2s
                """);
        Output run = cli(
                drive,
                List.of(
                        "device",
                        "--target",
                        temp.resolve("target.bin").toString(),
                        "--size",
                        "16MiB",
                        "--workload",
                        workload.toString(),
                        "--smart-device",
                        smartDevice.toString(),
                        "--smart-interval",
                        "150ms",
                        "--run-id",
                        runId,
                        "--bootstrap-servers",
                        stack.bootstrapServers(),
                        "--schema-registry-url",
                        stack.schemaRegistryUrl()));
        assertThat(run.err()).contains("SMART: polling " + smartDevice + " with ");
        Matcher readings = Pattern.compile("SMART: (\\d+) readings\n").matcher(run.err());
        assertThat(readings.find()).as(run.err()).isTrue();
        return Integer.parseInt(readings.group(1));
    }

    record Output(String out, String err) {}

    /** Runs an ssdpulse command in a child JVM with the stand-ins first on its PATH; what it printed. */
    private Output cli(StandInDrive drive, List<String> args) throws Exception {
        List<String> command = new ArrayList<>();
        command.add(Path.of(System.getProperty("java.home"), "bin", "java").toString());
        command.add("-Xmx256m");
        command.addAll(TestJvmOptions.forChildJvms());
        command.add("-Dorg.apache.avro.SERIALIZABLE_PACKAGES=dev.ssdpulse.schemas.avro");
        command.add("-cp");
        command.add(System.getProperty("java.class.path"));
        command.add("dev.ssdpulse.cli.Main");
        command.addAll(args);
        Path out = Files.createTempFile(temp, "out", ".txt");
        Path err = Files.createTempFile(temp, "err", ".txt");
        ProcessBuilder pb =
                new ProcessBuilder(command).redirectOutput(out.toFile()).redirectError(err.toFile());
        pb.environment().put("PATH", drive.toolDir() + ":" + System.getenv("PATH"));
        Process p = pb.start();
        if (!p.waitFor(2, TimeUnit.MINUTES)) {
            p.destroyForcibly();
            throw new AssertionError("ssdpulse " + args + " did not end; stderr:\n" + Files.readString(err));
        }
        assertThat(p.exitValue())
                .as("ssdpulse %s; stderr:%n%s", args, Files.readString(err))
                .isZero();
        return new Output(Files.readString(out), Files.readString(err));
    }

    private static List<WriteAmplification> awaitSeries(AnalyticsViews views, String runId, int intervals) {
        assertThat(intervals).as("the run polled the drive at least 3 times").isGreaterThanOrEqualTo(2);
        return await("the run's " + intervals + " WA intervals")
                .atMost(Duration.ofSeconds(60))
                .ignoreExceptions()
                .until(() -> views.waSeries(runId), s -> s.size() >= intervals);
    }

    private static RunSummary awaitSummary(AnalyticsViews views, String runId) {
        return await("the run's summary")
                .atMost(Duration.ofSeconds(60))
                .ignoreExceptions()
                .until(() -> views.summary(runId).orElse(null), s -> s != null && s.getWriteAmplification() != null);
    }
}
