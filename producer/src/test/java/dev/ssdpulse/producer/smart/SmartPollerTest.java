package dev.ssdpulse.producer.smart;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.time.Duration;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.CopyOnWriteArrayList;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Runs the poller against real processes: small shell scripts standing in for smartctl and nvme. */
class SmartPollerTest {
    @TempDir
    Path dir;

    private Path tool(String name, String fixture) throws Exception {
        Path json = dir.resolve(name + ".json");
        Files.writeString(json, SmartParsingTest.fixture(fixture));
        Path script = dir.resolve(name);
        // smartctl exits non-zero (a bit mask) even with valid output: the poller must still parse it. The
        // arguments are written by a rename: a poll still running when the test reads them (the poller polls
        // every 50 ms) must not show a truncated, empty file (it did once in CI)
        Path args = dir.resolve(name + ".args");
        Files.writeString(
                script,
                "#!/bin/sh\necho \"$@\" > " + args + ".$$ && mv " + args + ".$$ " + args + "\ncat " + json
                        + "\nexit 4\n");
        Files.setPosixFilePermissions(script, PosixFilePermissions.fromString("rwxr-xr-x"));
        return script;
    }

    @Test
    void nvmeDevicePrefersNvmeCli() throws Exception {
        Path nvme = tool("nvme", "nvme-cli-smart-log.json");
        Path smartctl = tool("smartctl", "smartctl-ata-samsung.json");
        SmartPoller poller = new SmartPoller(
                Path.of("/dev/nvme0n1"),
                Duration.ofSeconds(1),
                () -> 5,
                r -> {},
                Optional.of(nvme),
                Optional.of(smartctl),
                SmartPoller::runProcess);
        SmartReading r = poller.pollOnce().orElseThrow();
        assertThat(r.source()).isEqualTo(SmartReading.Source.NVME_SMART_LOG);
        assertThat(r.timeNs()).isEqualTo(5);
        assertThat(Files.readString(dir.resolve("nvme.args")).trim()).isEqualTo("smart-log /dev/nvme0n1 -o json");
        assertThat(poller.availability().reason()).contains("NVMe SMART/health log has no NAND-writes");
    }

    @Test
    void sataDeviceUsesSmartctlAndPollsPeriodically() throws Exception {
        Path smartctl = tool("smartctl", "smartctl-ata-sandforce.json");
        List<SmartReading> got = new CopyOnWriteArrayList<>();
        try (SmartPoller poller = new SmartPoller(
                Path.of("/dev/sda"),
                Duration.ofMillis(50),
                () -> 1,
                got::add,
                Optional.empty(),
                Optional.of(smartctl),
                SmartPoller::runProcess)) {
            poller.start();
            await("two SMART readings").atMost(Duration.ofSeconds(30)).until(() -> got.size() >= 2);
            assertThat(poller.availability().available()).isTrue();
        }
        assertThat(got).hasSizeGreaterThanOrEqualTo(2);
        assertThat(got.get(0).nandBytesWritten()).isEqualTo(6144L << 30);
        assertThat(Files.readString(dir.resolve("smartctl.args")).trim()).isEqualTo("-j -a /dev/sda");
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
                SmartPoller::runProcess);
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
                SmartPoller::runProcess);
        assertThat(poller.hasTool()).isFalse();
        assertThat(poller.pollOnce()).isEmpty();
        assertThat(poller.availability().available()).isFalse();
        assertThat(poller.availability().reason())
                .isEqualTo("WA unavailable: neither smartctl (smartmontools) nor nvme (nvme-cli) is on the PATH");
    }

    @Test
    void failingToolIsReportedNotThrown() throws Exception {
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
                SmartPoller::runProcess);
        assertThat(poller.pollOnce()).isEmpty();
        assertThat(poller.lastError()).contains("smartctl").contains("not JSON");
        assertThat(poller.availability().reason()).startsWith("WA unavailable: SMART poll failed");
    }

    @Test
    void findsToolsOnThePath() throws Exception {
        Path smartctl = tool("smartctl", "smartctl-nvme.json");
        assertThat(SmartPoller.findOnPath("smartctl", "/nonexistent:" + dir)).contains(smartctl);
        assertThat(SmartPoller.findOnPath("no-such-tool-xyz", dir.toString())).isEmpty();
    }
}
