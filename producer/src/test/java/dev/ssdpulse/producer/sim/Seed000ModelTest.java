package dev.ssdpulse.producer.sim;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import dev.ssdpulse.producer.sim.config.SsdPresets;
import dev.ssdpulse.producer.sim.support.Experiments;
import dev.ssdpulse.producer.sim.support.Seed000;
import org.junit.jupiter.api.Test;

/**
 * Seed 000's eight WA figures from the model: the 2012 SandForce preset, whose timing is cited
 * (datasheet NAND, a published SATA write path, a NAND read per map-cache miss) and whose two fitted numbers (the
 * reserve and the map segment, fitted to all eight at once, SOURCES.md) leave the host's speed, and so each
 * 20-minute phase's volume, to the model. At full size (the figures are not scale-free: a shrunk drive's blocks
 * and watermarks move them by several per cent; at QD1 the whole run is ~20 s of CPU): exp. 1 within +-10 % of
 * the seed, exp. 2 within +-15 %, the compressed fill between 4 and 8 GB free, and the speeds the seed describes:
 * more free flash, a higher steady speed, and none back to its fresh speed without TRIM.
 */
class Seed000ModelTest {

    @Test
    void eightSeedFiguresFromTheModel() {
        Seed000.Figures f = Seed000.run(new SsdPresets().builtIn("sata-mlc-120gb-2012"), 1, 1, 20);
        System.out.println("seed 000 at full size, figures (ratio to the seed):" + f.line());
        for (int i = 0; i < 8; i++) {
            double tolerance = i < 5 ? 0.10 : 0.15;
            assertThat(f.ratio(i)).as(Seed000.CASES[i]).isCloseTo(1.0, within(tolerance));
        }
        double[] wa = f.writeAmplification();
        assertThat(f.compressedFillWa())
                .as("a full drive whose fill compressed to free ~7 GB lies between 4 and 8 GB free")
                .isLessThan(wa[2])
                .isGreaterThan(wa[3]);
        // MB/s per 10 s (full-size time): 20 minutes = 120 windows; steady = the last 5 minutes
        double[] steady = new double[5];
        for (int i = 0; i < 5; i++) {
            double[] mbps = f.exp1MbPerSecond()[i];
            int n = mbps.length;
            steady[i] = mean(mbps, n - 30, n);
            if (i > 0 && i < 4) {
                assertThat(steady[i])
                        .as("%s: without TRIM never back to the fresh speed", Seed000.CASES[i])
                        .isLessThan(0.9 * mean(mbps, 0, 6));
            }
        }
        assertThat(steady[1]).isLessThan(steady[2]);
        assertThat(steady[2]).isLessThan(steady[3]);
        assertThat(steady[3]).isLessThan(steady[4]);
        // metadata: >= 10 % of the NAND writes of random 4 KiB on the empty drive, a few % of a sequential pass;
        // parity: one page per 15 data pages
        var p = f.phases();
        assertThat(Experiments.share(p[0], p[1], true)).isGreaterThanOrEqualTo(10);
        assertThat(Experiments.share(p[2], p[3], true)).isLessThan(3);
        assertThat(Experiments.share(p[2], p[3], false)).isCloseTo(100.0 / 16, within(0.5));
    }

    private static double mean(double[] v, int from, int to) {
        double s = 0;
        for (int i = from; i < to; i++) {
            s += v[i];
        }
        return s / (to - from);
    }
}
