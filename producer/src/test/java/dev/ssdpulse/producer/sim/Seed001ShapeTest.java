package dev.ssdpulse.producer.sim;

import static org.assertj.core.api.Assertions.assertThat;

import dev.ssdpulse.producer.sim.config.SsdPresets;
import java.util.Arrays;
import java.util.Locale;
import org.junit.jupiter.api.Test;

/**
 * Seed 001's continuous test (QD32, 50 % reads, 4 KiB-1 MiB, a 160 GB file, 15 minutes) on its preset, shrunk 32x
 * with its planes kept (times / 32; MB/s per 30 s of full-size time). What the seed states and the model meets:
 * fast at first, a drop once the free blocks are gone between 4.5 and 7.5 minutes (the seed: about 6), a plateau
 * after it that creeps up by 2-15 % over the rest of the 15 minutes. Where it is off: the first minute runs at the
 * SATA link's 550 MB/s (the seed's drive: ~480; with datasheet NAND timing the drive's own limit is above the
 * link), and the minute after the drop is ~16 % above the seed's 270 MB/s (the NAND's program bandwidth sets it);
 * asserted here within 20 % so that a change of either shows.
 */
class Seed001ShapeTest {
    @Test
    void continuousTestDropsOnceFreeBlocksRunOut() {
        var r = Seed001Main.Seed001.run(new SsdPresets().builtIn("sata-240gb"), 32, 15, 30_000_000_000L);
        double[] mbps = r.mbPerSecond();
        System.out.printf(
                Locale.ROOT,
                "seed 001 at 1/32: MB/s per 30 s %s, WA %.2f%n",
                Arrays.toString(Arrays.stream(mbps).mapToLong(Math::round).toArray()),
                r.writeAmplification());
        double first = (mbps[0] + mbps[1]) / 2;
        int drop = 2;
        while (drop < mbps.length && mbps[drop] > 0.8 * first) {
            drop++;
        }
        double dropMinutes = drop / 2.0;
        double plateau = (mbps[drop] + mbps[drop + 1]) / 2;
        System.out.printf(
                Locale.ROOT,
                "first minute %.0f MB/s, drop at %.1f min, plateau %.0f MB/s, last minute %.0f MB/s%n",
                first,
                dropMinutes,
                plateau,
                (mbps[mbps.length - 2] + mbps[mbps.length - 1]) / 2);
        double last = (mbps[mbps.length - 2] + mbps[mbps.length - 1]) / 2;
        assertThat(dropMinutes).as("drop").isBetween(4.5, 7.5);
        assertThat(plateau).as("the minute after the drop").isBetween(270 * 0.85, 270 * 1.2);
        assertThat(first).as("fast at first").isGreaterThan(1.4 * plateau);
        assertThat(last / plateau).as("creeps up by 2-15 %").isBetween(1.02, 1.15);
    }
}
