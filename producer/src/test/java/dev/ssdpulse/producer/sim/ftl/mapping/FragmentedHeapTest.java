package dev.ssdpulse.producer.sim.ftl.mapping;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

/**
 * A mapping table must fit a heap whose free space is in pieces: G1 never moves an array of half a region or
 * more, so a map stored as one such array needs a contiguous run of free regions, which a heap that has been
 * running Kafka clients and analytics for a while may not have (the demo's 277 MB reverse map failed so in CI
 * with ~130 MB of the 512 MiB in use). The probe runs in its own JVM, whose heap it fragments with pinned
 * 2-region arrays before it builds a table of 138 MB: 384 regions of 1 MiB, 170 of them pinned every other
 * run of two, so ~210 MB are free but no free run is longer than the ~40 regions above the pins.
 */
class FragmentedHeapTest {

    @Test
    void aTableLargerThanAnyFreeRunOfTheHeapStillFits() throws IOException, InterruptedException {
        String java = Path.of(System.getProperty("java.home"), "bin", "java").toString();
        Process probe = new ProcessBuilder(
                        java,
                        "-Xms384m",
                        "-Xmx384m",
                        "-XX:+UseG1GC",
                        "-XX:G1HeapRegionSize=1m",
                        "-cp",
                        System.getProperty("java.class.path"),
                        Probe.class.getName())
                .redirectErrorStream(true)
                .start();
        try {
            assertThat(probe.waitFor(60, TimeUnit.SECONDS)).as("the probe ends").isTrue();
            String output = new String(probe.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
            assertThat(probe.exitValue()).as(output).isZero();
            assertThat(output).contains("fragmented: 85 pinned runs of 2 regions");
            assertThat(output).contains("table built and used");
        } finally {
            probe.destroyForcibly();
        }
    }

    static final class Probe {
        public static void main(String[] args) {
            // 1 MiB + 8 KiB: a humongous array taking 2 regions of 1 MiB; G1 places them from the heap's bottom
            List<long[]> pins = new ArrayList<>();
            List<long[]> dropped = new ArrayList<>();
            for (int i = 0; i < 170; i++) {
                (i % 2 == 0 ? pins : dropped).add(new long[(1 << 17) + 1024]);
            }
            dropped.clear();
            System.gc();
            System.out.println("fragmented: " + pins.size() + " pinned runs of 2 regions");
            // int forward map of 16 M units (64 MB) and per-slot reverse map of 18 M slots (74 MB)
            MappingTable table =
                    new MappingTable(16_000_000, new BlockFill(18_000, 1000), 18_000, false, 0, (b, c) -> {});
            for (int lpn = 0; lpn < 16_000_000; lpn += 4099) {
                table.map(lpn, lpn + 1_000_000);
            }
            table.flush();
            if (table.lpnAt(8_198 + 1_000_000) != 8_198 || pins.size() != 85) {
                throw new AssertionError("the table lost a mapping");
            }
            System.out.println("table built and used: " + table.mappedUnits() + " units mapped");
        }
    }
}
