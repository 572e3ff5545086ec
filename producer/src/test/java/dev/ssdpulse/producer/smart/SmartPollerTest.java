package dev.ssdpulse.producer.smart;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.time.Duration;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.CopyOnWriteArrayList;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

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
        Files.writeString(script, "#!/bin/sh\necho \"$@\" > " + args + ".$$ && mv " + args + ".$$ " + args
                + "\ncat " + json + "\nexit 4\n");
        Files.setPosixFilePermissions(script, PosixFilePermissions.fromString("rwxr-xr-x"));
        return script;
    }

    @Test
    void nvmeDevicePrefersNvmeCli() throws Exception {
        Path nvme = tool("nvme", "nvme-cli-smart-log.json");
        Path smartctl = tool("smartctl", "smartctl-ata-samsung.json");
        SmartPoller poller = new SmartPoller(Path.of("/dev/nvme0n1"), Duration.ofSeconds(1), () -> 5, r -> { },
                Optional.of(nvme), Optional.of(smartctl), SmartPoller::runProcess);
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
        try (SmartPoller poller = new SmartPoller(Path.of("/dev/sda"), Duration.ofMillis(50), () -> 1, got::add,
                Optional.empty(), Optional.of(smartctl), SmartPoller::runProcess)) {
            poller.start();
            await("two SMART readings").atMost(Duration.ofSeconds(30)).until(() -> got.size() >= 2);
            assertThat(poller.availability().available()).isTrue();
        }
        assertThat(got).hasSizeGreaterThanOrEqualTo(2);
        assertThat(got.get(0).nandBytesWritten()).isEqualTo(6144L << 30);
        assertThat(Files.readString(dir.resolve("smartctl.args")).trim()).isEqualTo("-j -a /dev/sda");
    }

    @Test
    void noToolMeansWaUnavailableWithReason() {
        SmartPoller poller = new SmartPoller(Path.of("/dev/sda"), Duration.ofSeconds(1), () -> 0, r -> { },
                Optional.empty(), Optional.empty(), SmartPoller::runProcess);
        assertThat(poller.hasTool()).isFalse();
        assertThat(poller.pollOnce()).isEmpty();
        assertThat(poller.availability().available()).isFalse();
        assertThat(poller.availability().reason()).isEqualTo(
                "WA unavailable: neither smartctl (smartmontools) nor nvme (nvme-cli) is on the PATH");
    }

    @Test
    void failingToolIsReportedNotThrown() throws Exception {
        Path bad = dir.resolve("smartctl");
        Files.writeString(bad, "#!/bin/sh\necho 'Smartctl open device: /dev/sdz failed: No such device'\nexit 2\n");
        Files.setPosixFilePermissions(bad, PosixFilePermissions.fromString("rwxr-xr-x"));
        SmartPoller poller = new SmartPoller(Path.of("/dev/sdz"), Duration.ofSeconds(1), () -> 0, r -> { },
                Optional.empty(), Optional.of(bad), SmartPoller::runProcess);
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
