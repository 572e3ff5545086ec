package dev.ssdpulse.producer.sim;

import static org.assertj.core.api.Assertions.assertThat;

import dev.ssdpulse.producer.sim.config.SsdConfig;
import dev.ssdpulse.producer.sim.config.SsdPresets;
import dev.ssdpulse.producer.sim.engine.SimulatedDrive;
import dev.ssdpulse.producer.sim.support.Experiments;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * Issue 13 item 3: seed 000 exp. 3 on the 128 GB Marvell-class preset at 1/32 scale (times x 1/8): idle GC
 * runs at a bounded rate, so the first minute of 2 MB sequential writes after the pause is faster the
 * longer the pause: 1 minute visibly less than 5, and at 8 GB OP 30 minutes more than 5.
 */
class Seed000IdleGcTest {
    private static final int FACTOR = 32;

    @Test
    void longerPausesRecoverMore() {
        SsdConfig cfg = Experiments.scaled(new SsdPresets().builtIn("sata-mlc-128gb-2012-marvell"), FACTOR);
        double[][] firstMinute = new double[2][3];
        long[] pauses = {1, 5, 30};
        for (int op = 0; op < 2; op++) {
            for (int p = 0; p < 3; p++) {
                firstMinute[op][p] = firstMinuteMbps(cfg, op * 8, pauses[p]);
                System.out.printf(
                        "OP %d GB, pause %2d min: 2 MB sequential first minute %.1f MB/s%n",
                        op * 8, pauses[p], firstMinute[op][p]);
            }
        }
        assertThat(firstMinute[0][1]).isGreaterThan(1.15 * firstMinute[0][0]);
        assertThat(firstMinute[1][1]).isGreaterThan(1.15 * firstMinute[1][0]);
        assertThat(firstMinute[1][2]).isGreaterThan(1.10 * firstMinute[1][1]);
        assertThat(firstMinute[0][2]).isGreaterThanOrEqualTo(firstMinute[0][1]);
    }

    private static double firstMinuteMbps(SsdConfig cfg, long opGb, long pauseMin) {
        long gb = 1_000_000_000L / FACTOR;
        long minute = 60_000_000_000L * 4 / FACTOR;
        long window = minute / 6;
        SimulatedDrive drive = new SimulatedDrive(cfg, 1);
        drive.fill(0, drive.capacityBytes() - opGb * gb);
        List<Experiments.PhaseResult> r =
                Experiments.seed000IdleGc(drive, 24 * gb, 20 * minute, pauseMin * minute, 2 * minute, window, 5);
        return r.get(1).mean(0, 6);
    }
}
