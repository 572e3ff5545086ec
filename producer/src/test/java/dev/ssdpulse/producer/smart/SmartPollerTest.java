package dev.ssdpulse.producer.smart;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.CopyOnWriteArrayList;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Runs the poller against real processes: the stand-in smartctl and nvme of {@link StandInDrive}. */
class SmartPollerTest {
    @TempDir
    Path dir;

    @Test
    void anNvmeDriveIsProbedOnceThenPolledThroughTheStandardLogAndItsNandLog() throws Exception {
        StandInDrive drive = StandInDrive.in(dir)
                .serveFixture("nvme", "id-ctrl", "nvme-id-ctrl-kioxia.json")
                .serve(
                        "nvme",
                        "smart-log",
                        StandInDrive.fieldSequence(
                                "nvme-smart-log.json", 3, k -> Map.of("/data_units_written", 1_000_000L + 4_000L * k)))
                .serve(
                        "nvme",
                        "ocp_smart-add-log",
                        StandInDrive.fieldSequence(
                                "nvme-ocp-smart-add-log-v2.json",
                                3,
                                k -> Map.of(
                                        "/physical_media_units_written/lo", 900_000_000_000L + 3_072_000_000L * k)));
        SmartPoller poller = new SmartPoller(
                Path.of("/dev/nvme0n1"),
                Duration.ofSeconds(1),
                () -> 5,
                r -> {},
                Optional.of(drive.nvme()),
                Optional.of(drive.smartctl()),
                ToolProcess::run);
        SmartReading first = poller.pollOnce().orElseThrow();
        SmartReading second = poller.pollOnce().orElseThrow();
        assertThat(first.source()).isEqualTo(SmartReading.Source.OCP_C0);
        assertThat(first.timeNs()).isEqualTo(5);
        assertThat(second.wa().hostWrites() - first.wa().hostWrites()).isEqualTo(4_000L * 512_000L);
        assertThat(second.wa().nandWrites() - first.wa().nandWrites()).isEqualTo(3_072_000_000L);
        assertThat(drive.calls())
                .containsExactly(
                        "nvme id-ctrl /dev/nvme0n1 -o json",
                        "nvme ocp smart-add-log /dev/nvme0n1 -o json",
                        "nvme smart-log /dev/nvme0n1 -o json",
                        "nvme ocp smart-add-log /dev/nvme0n1 -o json",
                        "nvme smart-log /dev/nvme0n1 -o json",
                        "nvme ocp smart-add-log /dev/nvme0n1 -o json");
        assertThat(poller.availability().available()).isTrue();
    }

    @Test
    void aSataDriveIsReadWithSmartctlAndPolledPeriodically() throws Exception {
        StandInDrive drive = StandInDrive.in(dir)
                .serve(
                        "smartctl",
                        "",
                        StandInDrive.ataSequence(
                                "smartctl-ata-sandforce.json", 5, k -> Map.of(241, 4400L + k, 233, 6144L + 2 * k)));
        List<SmartReading> got = new CopyOnWriteArrayList<>();
        try (SmartPoller poller = new SmartPoller(
                Path.of("/dev/sda"),
                Duration.ofMillis(50),
                () -> 1,
                got::add,
                Optional.empty(),
                Optional.of(drive.smartctl()),
                ToolProcess::run)) {
            poller.start();
            await("two SMART readings").atMost(Duration.ofSeconds(30)).until(() -> got.size() >= 2);
            assertThat(poller.availability().available()).isTrue();
        }
        assertThat(got.get(1).wa().nandWrites() - got.get(0).wa().nandWrites()).isEqualTo(2L << 30);
        assertThat(drive.calls().get(0)).isEqualTo("smartctl -j -a /dev/sda");
    }

    /**
     * close() interrupts a poll in flight; the tool must not outlive it, nor anything it started (a wrapper script's
     * children), or it would go on writing after the poller is closed (the CI once failed to delete this test
     * class's directory because a poll's leftover `mv` wrote into it).
     */
    @Test
    void closeKillsAPollInFlightAndEveryProcessItStarted() throws Exception {
        Path script = dir.resolve("smartctl");
        Path shellPid = dir.resolve("shell.pid");
        Path sleepPid = dir.resolve("sleep.pid");
        Files.writeString(
                script,
                "#!/bin/sh\necho $$ > " + shellPid + "\nsleep 60 &\necho $! > " + sleepPid + ".tmp && mv " + sleepPid
                        + ".tmp " + sleepPid + "\nwait\n");
        Files.setPosixFilePermissions(script, PosixFilePermissions.fromString("rwxr-xr-x"));
        SmartPoller poller = new SmartPoller(
                Path.of("/dev/sda"),
                Duration.ofHours(1),
                () -> 1,
                r -> {},
                Optional.empty(),
                Optional.of(script),
                ToolProcess::run);
        poller.start();
        await("the tool's child started").atMost(Duration.ofSeconds(30)).until(() -> Files.exists(sleepPid));
        long shell = Long.parseLong(Files.readString(shellPid).trim());
        long sleeper = Long.parseLong(Files.readString(sleepPid).trim());
        assertThat(running(sleeper)).isTrue();
        long startNs = System.nanoTime();
        poller.close();
        assertThat(Duration.ofNanos(System.nanoTime() - startNs))
                .as("close() does not wait for the tool")
                .isLessThan(Duration.ofSeconds(10));
        assertThat(running(shell)).as("the tool").isFalse();
        assertThat(running(sleeper)).as("a process the tool started").isFalse();
    }

    /** Whether the process exists and is not a zombie (an orphan's reaper may take its time). */
    private static boolean running(long pid) throws Exception {
        Path stat = Path.of("/proc", Long.toString(pid), "stat");
        if (!Files.exists(stat)) {
            return false;
        }
        String line;
        try {
            line = Files.readString(stat);
        } catch (NoSuchFileException e) {
            return false;
        }
        char state = line.charAt(line.lastIndexOf(')') + 2);
        return state != 'Z' && state != 'X';
    }

    @Test
    void noToolMeansWaUnavailableWithReason() {
        SmartPoller poller = new SmartPoller(
                Path.of("/dev/sda"),
                Duration.ofSeconds(1),
                () -> 0,
                r -> {},
                Optional.empty(),
                Optional.empty(),
                ToolProcess::run);
        assertThat(poller.hasTool()).isFalse();
        assertThat(poller.pollOnce()).isEmpty();
        assertThat(poller.availability().reason())
                .isEqualTo("WA unavailable: smartctl (smartmontools) is not on the PATH");
        SmartPoller nvme = new SmartPoller(
                Path.of("/dev/nvme0n1"),
                Duration.ofSeconds(1),
                () -> 0,
                r -> {},
                Optional.empty(),
                Optional.empty(),
                ToolProcess::run);
        assertThat(nvme.availability().reason())
                .isEqualTo("WA unavailable: neither nvme (nvme-cli) nor smartctl (smartmontools) is on the PATH");
    }

    @Test
    void aFailingToolIsReportedInItsOwnWordsNotThrown() throws Exception {
        Path bad = dir.resolve("smartctl");
        Files.writeString(bad, "#!/bin/sh\necho 'Smartctl open device: /dev/sdz failed: No such device'\nexit 2\n");
        Files.setPosixFilePermissions(bad, PosixFilePermissions.fromString("rwxr-xr-x"));
        SmartPoller poller = new SmartPoller(
                Path.of("/dev/sdz"),
                Duration.ofSeconds(1),
                () -> 0,
                r -> {},
                Optional.empty(),
                Optional.of(bad),
                ToolProcess::run);
        assertThat(poller.pollOnce()).isEmpty();
        assertThat(poller.lastError())
                .isEqualTo("smartctl printed text, not JSON: 'Smartctl open device: /dev/sdz failed: No such device'");
        assertThat(poller.availability().reason()).startsWith("WA unavailable: SMART poll failed: smartctl printed");
        Path silent = dir.resolve("nvme");
        Files.writeString(silent, "#!/bin/sh\necho 'nvme: Permission denied' >&2\nexit 13\n");
        Files.setPosixFilePermissions(silent, PosixFilePermissions.fromString("rwxr-xr-x"));
        SmartPoller nvme = new SmartPoller(
                Path.of("/dev/nvme0n1"),
                Duration.ofSeconds(1),
                () -> 0,
                r -> {},
                Optional.of(silent),
                Optional.empty(),
                ToolProcess::run);
        assertThat(nvme.pollOnce()).isEmpty();
        assertThat(nvme.lastError())
                .isEqualTo(
                        silent + " smart-log /dev/nvme0n1 -o json: no output (exit code 13: nvme: Permission denied)");
    }

    @Test
    void findsToolsOnThePath() throws Exception {
        StandInDrive drive = StandInDrive.in(dir);
        assertThat(SmartPoller.findOnPath("smartctl", "/nonexistent:" + dir)).contains(drive.smartctl());
        assertThat(SmartPoller.findOnPath("no-such-tool-xyz", dir.toString())).isEmpty();
    }
}
