package dev.ssdpulse.cli.smart;

import static org.assertj.core.api.Assertions.assertThat;

import dev.ssdpulse.cli.CliRun;
import dev.ssdpulse.cli.Main;
import dev.ssdpulse.producer.smart.WaBasis;
import dev.ssdpulse.streams.waf.WaBounds;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** `ssdpulse smart`'s answers that need no drive; the drive's own answers are in DeviceSmartIT. */
class SmartCommandTest {
    static final long MIB32 = 32L << 20;
    static final long GIB = 1L << 30;

    @Test
    void theHostWritesAfterWhichWaResolvesAreTheFewestTheBoundsAllow() {
        // an Intel 520: host writes in 32 MiB steps, NAND writes in 1 GiB steps, lifetime WA 1.4
        WaBasis intel = new WaBasis("B", 1000 * GIB, MIB32, 1400 * GIB, GIB, List.of("241"), List.of("249"));
        long host = SmartCommand.hostWritesToResolve(intel);
        assertThat(WaBounds.of(host, MIB32, Math.round(host * 1.4), GIB).resolved())
                .isTrue();
        assertThat(WaBounds.of(host - 1, MIB32, Math.round((host - 1) * 1.4), GIB)
                        .resolved())
                .isFalse();
        // about 40 NAND steps over WA plus 40 host steps: 29.4 GiB
        assertThat(host / (double) GIB).isBetween(29.0, 30.0);
        // NVMe's fine data units and an OCP byte counter resolve after a few MB
        WaBasis ocp = new WaBasis("B", 1000 * GIB, 512_000, 2000 * GIB, 1, List.of("duw"), List.of("pmuw"));
        assertThat(SmartCommand.hostWritesToResolve(ocp)).isLessThan(50_000_000L);
    }

    @Test
    void badInputIsOneClearLine(@TempDir Path dir) {
        CliRun missing = CliRun.of("smart", "--target", dir.resolve("none").toString());
        assertThat(missing.exit()).isEqualTo(Main.EXIT_BAD_INPUT);
        assertThat(missing.err()).isEqualTo("error: --target " + dir.resolve("none") + ": no such file or device\n");
        CliRun format = CliRun.of("smart", "--target", dir.toString(), "--format", "xml");
        assertThat(format.exit()).isEqualTo(Main.EXIT_BAD_INPUT);
        assertThat(format.err()).contains("--format must be text or json, got 'xml'");
        CliRun device = CliRun.of("smart", "--target", dir.toString(), "--smart-device", "/dev/no-such-drive");
        assertThat(device.exit()).isEqualTo(Main.EXIT_BAD_INPUT);
        assertThat(device.err()).contains("--smart-device /dev/no-such-drive: no such device");
    }
}
