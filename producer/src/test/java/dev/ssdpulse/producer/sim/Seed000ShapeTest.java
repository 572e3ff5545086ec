package dev.ssdpulse.producer.sim;

import static org.assertj.core.api.Assertions.assertThat;

import dev.ssdpulse.producer.sim.config.SsdConfig;
import dev.ssdpulse.producer.sim.config.SsdPresets;
import dev.ssdpulse.producer.sim.engine.SimulatedDrive;
import dev.ssdpulse.producer.sim.support.Experiments;
import org.junit.jupiter.api.Test;

/**
 * Acceptance 2, scaled down 32x (capacities, span and free space divided by 32, a quarter of the channels,
 * so the 20 minutes are divided by 8 to keep NAND time per byte of capacity): WA falls strictly with free
 * flash, each within 1.5x of the seed's measurement, and MB/s after the cliff is higher with more free flash.
 */
class Seed000ShapeTest {
    private static final double[] SEED_WA = {1.39, 4.54, 2.54, 1.96, 1.53};
    private static final long[] FREE_GB = {-1, 0, 4, 8, 16};

    @Test
    void writeAmplificationFallsWithFreeFlashLikeTheSeed() {
        int factor = 32;
        SsdConfig cfg = Experiments.scaled(new SsdPresets().builtIn("sata-mlc-120gb-2012"), factor);
        long gb = 1_000_000_000L / factor;
        double[] wa = new double[5];
        double[] lastThirdMbps = new double[5];
        for (int i = 0; i < 5; i++) {
            SimulatedDrive drive = new SimulatedDrive(cfg, 1);
            var r = Experiments.seed000Random(
                    drive,
                    24 * gb,
                    FREE_GB[i] < 0 ? -1 : FREE_GB[i] * gb,
                    20 * 60_000_000_000L * 4 / factor,
                    1_000_000_000L,
                    42);
            wa[i] = r.writeAmplification();
            int n = r.mbPerSecond().length;
            lastThirdMbps[i] = r.mean(2 * n / 3, n);
            System.out.printf(
                    "free %s: WA %.2f (seed %.2f), first 3 s %.1f MB/s, last third %.1f MB/s%n",
                    FREE_GB[i] < 0 ? "empty" : FREE_GB[i] + " GB", wa[i], SEED_WA[i], r.mean(0, 3), lastThirdMbps[i]);
            if (i == 0) {
                continue; // the empty drive keeps its fresh speed: no cliff within 20 minutes
            }
            assertThat(r.mean(0, 3)).isGreaterThan(1.3 * lastThirdMbps[i]);
            assertThat(wa[i]).isBetween(SEED_WA[i] / 1.5, SEED_WA[i] * 1.5);
        }
        // issue 13 item 2: a full drive whose fill compressed 1.0625:1 (~7 GB of flash freed) lands between 4 and 8 GB
        // free
        SimulatedDrive compressed = new SimulatedDrive(cfg, 1);
        double compressedWa = Experiments.seed000Random(
                        compressed, 24 * gb, 0, 1 / 1.0625, 20 * 60_000_000_000L * 4 / factor, 1_000_000_000L, 42)
                .writeAmplification();
        System.out.printf("compressed fill: WA %.2f%n", compressedWa);
        assertThat(compressedWa).isLessThan(wa[2]).isGreaterThan(wa[3]);
        assertThat(wa[0]).isLessThan(wa[4]);
        assertThat(wa[1]).isGreaterThan(wa[2]);
        assertThat(wa[2]).isGreaterThan(wa[3]);
        assertThat(wa[3]).isGreaterThan(wa[4]);
        assertThat(lastThirdMbps[1]).isLessThan(lastThirdMbps[2]);
        assertThat(lastThirdMbps[2]).isLessThan(lastThirdMbps[3]);
        assertThat(lastThirdMbps[3]).isLessThan(lastThirdMbps[4]);
    }
}
