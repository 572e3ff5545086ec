package dev.ssdpulse.producer.sim;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import dev.ssdpulse.producer.sim.config.CapacitySpec;
import dev.ssdpulse.producer.sim.config.FtlSpec;
import dev.ssdpulse.producer.sim.config.SsdConfig;
import dev.ssdpulse.producer.sim.config.SsdPresets;
import dev.ssdpulse.producer.sim.config.VictimPolicy;
import dev.ssdpulse.producer.sim.engine.SimulatedDrive;
import dev.ssdpulse.producer.sim.nand.NandGeometry;
import dev.ssdpulse.producer.sim.support.Experiments;
import dev.ssdpulse.producer.sim.support.RandomGenerator;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/** Acceptance 1: simulated greedy WA vs the analytic model at four spare factors. */
class GreedyWriteAmplificationTest {

    @Test
    void lambertWSatisfiesItsDefinition() {
        for (double x : new double[] {-1 / Math.E + 1e-12, -0.3, -0.1, 0, 0.5, 1, 10, 1000}) {
            double w = GreedyWriteAmplificationModel.lambertW0(x);
            assertThat(w * Math.exp(w)).isCloseTo(x, within(1e-12 * (1 + Math.abs(x))));
        }
        assertThat(GreedyWriteAmplificationModel.lambertW0(Math.E)).isCloseTo(1.0, within(1e-14));
    }

    @Test
    void modelGivesKnownValues() {
        // alpha = 2: X0 = 0.2032, A = 1.255 (Desnoyers 2012, table of LRU WA)
        assertThat(GreedyWriteAmplificationModel.writeAmplification(2.0)).isCloseTo(1.255, within(0.002));
        assertThat(GreedyWriteAmplificationModel.writeAmplification(1.07))
                .isGreaterThan(7)
                .isLessThan(9);
    }

    /** A one-plane drive of 4096 blocks x 128 pages of 4 KiB; user capacity set so alpha = 1 + spare. */
    static SsdConfig driveWithSpare(double spare, int blocks, int pagesPerBlock) {
        SsdConfig base = new SsdPresets().builtIn("tiny-test");
        NandGeometry g = new NandGeometry(1, 1, 1, blocks, pagesPerBlock, 4096);
        long userUnits = (long) Math.floor((double) blocks * pagesPerBlock / (1 + spare));
        return base.withGeometry(g)
                .withCapacity(new CapacitySpec(userUnits * 4096, 0, 0))
                .withFtl(new FtlSpec(VictimPolicy.GREEDY, 8, 4, 2, 4, 1_000_000_000_000L, 1.0, 0, 0, 4));
    }

    static double simulatedWa(double spare, int blocks, int pagesPerBlock, double warmupWrites, double measuredWrites) {
        SimulatedDrive drive = new SimulatedDrive(driveWithSpare(spare, blocks, pagesPerBlock), 7);
        long cap = drive.capacityBytes();
        drive.fill(0, cap);
        long units = cap / 4096;
        Experiments.runPhase(
                drive,
                List.of(new RandomGenerator(0, cap, new int[] {4096}, 0, 11, (long) (warmupWrites * units))),
                32,
                0,
                1_000_000_000L);
        return Experiments.runPhase(
                        drive,
                        List.of(new RandomGenerator(0, cap, new int[] {4096}, 0, 12, (long) (measuredWrites * units))),
                        32,
                        0,
                        1_000_000_000L)
                .writeAmplification();
    }

    @ParameterizedTest
    @ValueSource(doubles = {0.07, 0.125, 0.28, 0.5})
    void greedyWaWithinTenPercentOfModel(double spare) {
        double model = GreedyWriteAmplificationModel.writeAmplification(1 + spare);
        double simulated = simulatedWa(spare, 1024, 128, 3, 2);
        System.out.printf(
                "spare %.3f model %.3f simulated %.3f (%.1f%%)%n",
                spare, model, simulated, 100 * (simulated / model - 1));
        assertThat(simulated).isCloseTo(model, within(0.10 * model));
    }
}
