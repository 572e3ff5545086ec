package dev.ssdpulse.producer.sim;

import dev.ssdpulse.producer.sim.config.SsdPresets;
import dev.ssdpulse.producer.sim.support.Experiments;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

/** Acceptance 3 scaled down 32x: seed 001's continuous test is fast at first, then drops once free blocks run out. */
class Seed001ShapeTest {
    @Test
    void continuousTestDropsOnceFreeBlocksRunOut() {
        var r = Seed001Main.Seed001.run(Experiments.scaled(new SsdPresets().builtIn("sata-240gb"), 32), 32, 15, 30_000_000_000L);
        int n = r.mbPerSecond().length;
        double first = r.mean(0, 5);
        double last = r.mean(n - 10, n);
        System.out.printf("seed 001 scaled: first 5 windows %.0f MB/s, last 10 windows %.0f MB/s, WA %.2f%n", first, last, r.writeAmplification());
        assertThat(first).isGreaterThan(1.3 * last);
        assertThat(r.writeAmplification()).isGreaterThan(1.05);
    }
}
