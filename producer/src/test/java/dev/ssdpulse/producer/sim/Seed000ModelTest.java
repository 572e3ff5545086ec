package dev.ssdpulse.producer.sim;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import dev.ssdpulse.producer.sim.config.SsdConfig;
import dev.ssdpulse.producer.sim.config.SsdPresets;
import dev.ssdpulse.producer.sim.engine.SimSmartCounters;
import dev.ssdpulse.producer.sim.support.Experiments;
import org.junit.jupiter.api.Test;

/**
 * Issue 13 item 1: seed 000's eight WA figures from the model (parity, map-cache metadata, 2 % bad-block
 * reserve; one fitted number, metadata.mapSegmentBytes, see BENCHMARKS.md), at 1/32 scale as in
 * {@link Seed000ShapeTest}. Five figures are held to +-12 % of the seed; the three the model still misses
 * (exp. 1 at 0 GB free, exp. 2 at 0 and 8 GB free) are held to their present error so a change shows.
 */
class Seed000ModelTest {

    @Test
    void eightSeedFiguresFromTheModel() {
        SsdConfig cfg = Experiments.scaled(new SsdPresets().builtIn("sata-mlc-120gb-2012"), 32);
        SimSmartCounters[] phases = new SimSmartCounters[12];
        double[] wa = Experiments.seed000EightFigures(cfg, 32, 20, phases);
        double[] seed = Experiments.SEED000_WA;
        for (int i = 0; i < wa.length; i++) {
            System.out.printf("case %d: WA %.2f, seed %.2f, ratio %.2f%n", i, wa[i], seed[i], wa[i] / seed[i]);
        }
        for (int i : new int[] {0, 2, 3, 4, 5}) {
            assertThat(wa[i] / seed[i]).as("case %d", i).isCloseTo(1.0, within(0.12));
        }
        // known gaps (BENCHMARKS.md): greedy GC with the real spare cannot be both this bad at random and this good at
        // sequential
        assertThat(wa[1] / seed[1]).isBetween(0.65, 0.88);
        assertThat(wa[6] / seed[6]).isBetween(1.12, 1.40);
        assertThat(wa[7] / seed[7]).isBetween(1.12, 1.35);
        assertThat(wa[0]).isGreaterThanOrEqualTo(1.25);
        assertThat(wa[5]).isBetween(1.03, 1.15);
        // metadata: >= 10 % of NAND writes for random 4 KiB, < 3 % for a sequential pass over a clean drive
        assertThat(Experiments.share(phases[0], phases[1], true)).isGreaterThanOrEqualTo(10);
        assertThat(Experiments.share(phases[2], phases[3], true)).isLessThan(3);
        // parity: one page per 15 data pages
        assertThat(Experiments.share(phases[2], phases[3], false)).isCloseTo(100.0 / 16, within(0.5));
        // monotone in free flash, as the seed
        assertThat(wa[1]).isGreaterThan(wa[2]);
        assertThat(wa[2]).isGreaterThan(wa[3]);
        assertThat(wa[3]).isGreaterThan(wa[4]);
        assertThat(wa[6]).isGreaterThan(wa[7]).isGreaterThan(wa[5]);
    }
}
