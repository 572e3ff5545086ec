package dev.ssdpulse.producer.sim;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import dev.ssdpulse.producer.sim.config.SsdPresets;
import dev.ssdpulse.producer.sim.support.Seed000;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.condition.EnabledIfSystemProperty;

/**
 * Full-size seed runs (minutes each), the checks of {@link Seed000ModelTest} and {@link Seed001ShapeTest} on the
 * presets as shipped: {@code ./mvnw -B -q -pl schemas,platform,producer test -Dtest=LongAcceptanceTest
 * -Dssdpulse.longTests=true -Dsurefire.failIfNoSpecifiedTests=false}. bench/sim-seeds.sh prints the same figures.
 */
@EnabledIfSystemProperty(named = "ssdpulse.longTests", matches = "true")
// full-size runs take minutes each: far beyond the 3-minute default of unit tests
@Timeout(value = 2, unit = TimeUnit.HOURS)
class LongAcceptanceTest {

    @Test
    void seed000EightFiguresFullSize() {
        Seed000.Figures f = Seed000.run(new SsdPresets().builtIn("sata-mlc-120gb-2012"), 1, 1, 20);
        System.out.println("seed 000 full size, figures (ratio to the seed):" + f.line());
        for (int i = 0; i < 8; i++) {
            assertThat(f.ratio(i)).as(Seed000.CASES[i]).isCloseTo(1.0, within(i < 5 ? 0.10 : 0.15));
        }
        assertThat(f.compressedFillWa()).isLessThan(f.writeAmplification()[2]).isGreaterThan(f.writeAmplification()[3]);
    }

    @Test
    void seed001ContinuousTestFullSize() {
        var r = Seed001Main.Seed001.run(new SsdPresets().builtIn("sata-240gb"), 1, 15, 30_000_000_000L);
        double[] mbps = r.mbPerSecond();
        int drop = 2;
        while (drop < mbps.length && mbps[drop] > 0.8 * mbps[0]) {
            drop++;
        }
        System.out.printf("seed 001 full size: drop at %.1f min, WA %.2f%n", drop / 2.0, r.writeAmplification());
        assertThat(drop / 2.0).isBetween(4.5, 7.5);
    }
}
