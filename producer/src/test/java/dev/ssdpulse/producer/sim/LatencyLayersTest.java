package dev.ssdpulse.producer.sim;

import static org.assertj.core.api.Assertions.assertThat;

import dev.ssdpulse.producer.sim.config.SsdConfig;
import dev.ssdpulse.producer.sim.config.SsdPresets;
import dev.ssdpulse.producer.sim.engine.SimulatedDrive;
import dev.ssdpulse.producer.sim.host.SimPhase;
import dev.ssdpulse.producer.sim.stats.HistogramModes;
import dev.ssdpulse.producer.sim.stats.LogHistogram;
import dev.ssdpulse.producer.sim.support.Experiments;
import dev.ssdpulse.producer.sim.support.RandomGenerator;
import java.util.List;
import java.util.Locale;
import org.junit.jupiter.api.Test;

/**
 * Seed 003 saw the QD32 random-write latencies of an 8-channel drive form about seven layers: how busy the
 * channels were when a command arrived. In the model a write that waits, waits for the operations ahead of its
 * page on its plane (a program in progress, one or two more, GC copies and erases), so its latency falls on
 * layers set by the NAND timing. Counted on the 8-channel SandForce preset with its channels kept and fewer blocks
 * and pages ({@link Experiments#planeScaled}) with {@link HistogramModes}: 20 log bins per decade, valleys down to
 * half the lower peak, peaks of at least 0.1 % of the I/Os. The count depends on the drive's size: the full-size
 * runs (bench/sim-seeds.sh) find 5 modes on the Marvell preset and 3 on the full SandForce one, whose layers
 * past one program time are shoulders, not separate peaks.
 */
class LatencyLayersTest {
    private static final long SECOND_NS = 1_000_000_000L;

    @Test
    void anEightChannelDrivesQd32WriteLatenciesFormAtLeastFiveLayers() {
        SsdConfig cfg = Experiments.planeScaled(new SsdPresets().builtIn("sata-mlc-120gb-2012"), 8, 128, 128);
        assertThat(cfg.geometry().channels()).isEqualTo(8);
        SimulatedDrive drive = new SimulatedDrive(cfg, 1);
        long cap = drive.capacityBytes();
        drive.fill(0, cap);
        LogHistogram histogram = new LogHistogram(1_000, 9, 20);
        drive.newRun(
                        List.of(
                                // steady state first (1.5 capacities of random writes), then the measured minutes
                                SimPhase.io(
                                        0,
                                        List.of(new RandomGenerator(
                                                0, cap, new int[] {4096}, 0, 5, cap / 4096 * 3 / 2)),
                                        32,
                                        0,
                                        0),
                                SimPhase.io(1, List.of(RandomGenerator.writes4k(0, cap, 6)), 32, 90 * SECOND_NS, 0)),
                        (w, phase, op, o, size, submitNs, latencyNs, q, st) -> {
                            if (phase == 1) {
                                histogram.add(latencyNs);
                            }
                        },
                        x -> {},
                        SECOND_NS,
                        null)
                .runToCompletion();
        var modes = new HistogramModes(0.5, 0.001).modes(histogram.counts());
        StringBuilder sb = new StringBuilder();
        for (var m : modes) {
            sb.append(String.format(
                    Locale.ROOT,
                    " %.3g ms (%.2f %%)",
                    histogram.centreNs(m.bin()) / 1e6,
                    100.0 * m.count() / histogram.total()));
        }
        System.out.printf("%d I/Os, %d layers:%s%n", histogram.total(), modes.size(), sb);
        long[] counts = histogram.counts();
        StringBuilder all = new StringBuilder();
        for (int b = 0; b < counts.length; b++) {
            if (counts[b] * 10_000 >= histogram.total()) {
                all.append(String.format(
                        Locale.ROOT, " %.3g:%.2f", histogram.centreNs(b) / 1e6, 100.0 * counts[b] / histogram.total()));
            }
        }
        System.out.println("histogram (ms: %):" + all);
        assertThat(modes).as("layers").hasSizeGreaterThanOrEqualTo(5);
        // a write waiting behind one program in progress, and behind two: layers at one and two program times
        long programNs = cfg.timing().programNs();
        for (int k = 1; k <= 2; k++) {
            long expectedNs = k * programNs;
            assertThat(modes)
                    .as("a layer within 15 %% of %d program time(s)", k)
                    .anySatisfy(m ->
                            assertThat(histogram.centreNs(m.bin()) / expectedNs).isBetween(0.85, 1.15));
        }
    }
}
