package dev.ssdpulse.producer.sim;

import static org.assertj.core.api.Assertions.assertThat;

import dev.ssdpulse.producer.sim.config.SsdConfig;
import dev.ssdpulse.producer.sim.config.SsdPresets;
import dev.ssdpulse.producer.sim.engine.SimulatedDrive;
import dev.ssdpulse.producer.sim.support.Experiments;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.condition.EnabledIfSystemProperty;

/**
 * Full-size acceptance runs (minutes each): {@code ./mvnw -B -q -pl producer -am test -Dtest=LongAcceptanceTest
 * -Dssdpulse.longTests=true -Dsurefire.failIfNoSpecifiedTests=false}. Results are in BENCHMARKS-sim.md.
 */
@EnabledIfSystemProperty(named = "ssdpulse.longTests", matches = "true")
// full-size runs take minutes each: far beyond the 3-minute default of unit tests
@Timeout(value = 2, unit = TimeUnit.HOURS)
class LongAcceptanceTest {
    private static final double[] SEED_WA = {1.39, 4.54, 2.54, 1.96, 1.53};
    private static final long[] FREE_GB = {-1, 0, 4, 8, 16};

    @Test
    void seed000Experiment1FullSize() {
        SsdConfig cfg = new SsdPresets().builtIn("sata-mlc-120gb-2012");
        double[] wa = new double[5];
        for (int i = 0; i < 5; i++) {
            var r = Experiments.seed000Random(
                    new SimulatedDrive(cfg, 1),
                    24_000_000_000L,
                    FREE_GB[i] < 0 ? -1 : FREE_GB[i] * 1_000_000_000L,
                    20 * 60_000_000_000L,
                    10_000_000_000L,
                    42);
            wa[i] = r.writeAmplification();
            int n = r.mbPerSecond().length;
            System.out.printf(
                    "full size, free %s: WA %.2f (seed %.2f), first minute %.1f MB/s, last 5 minutes %.1f MB/s%n",
                    FREE_GB[i] < 0 ? "empty" : FREE_GB[i] + " GB", wa[i], SEED_WA[i], r.mean(0, 6), r.mean(n - 30, n));
            assertThat(wa[i]).isBetween(SEED_WA[i] / 1.5, SEED_WA[i] * 1.5);
        }
        assertThat(wa[0]).isLessThan(wa[4]);
        assertThat(wa[1]).isGreaterThan(wa[2]);
        assertThat(wa[2]).isGreaterThan(wa[3]);
        assertThat(wa[3]).isGreaterThan(wa[4]);
    }

    @Test
    void seed001ContinuousTestFullSize() {
        var r = Seed001Main.Seed001.run(new SsdPresets().builtIn("sata-240gb"), 1, 15, 30_000_000_000L);
        int n = r.mbPerSecond().length;
        System.out.printf(
                "seed 001 full size: first 2 min %.0f MB/s, last 5 min %.0f MB/s, WA %.2f%n",
                r.mean(0, 4), r.mean(n - 10, n), r.writeAmplification());
        assertThat(r.mean(0, 4)).isGreaterThan(1.3 * r.mean(n - 10, n));
    }
}
