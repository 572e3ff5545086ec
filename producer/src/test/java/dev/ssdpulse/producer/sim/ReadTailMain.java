package dev.ssdpulse.producer.sim;

import dev.ssdpulse.producer.sim.config.SsdConfig;
import dev.ssdpulse.producer.sim.config.SsdPresets;
import dev.ssdpulse.producer.sim.engine.SimulatedDrive;
import dev.ssdpulse.producer.sim.host.SimPhase;
import dev.ssdpulse.producer.sim.support.Experiments;
import dev.ssdpulse.producer.sim.support.RandomGenerator;
import dev.ssdpulse.schemas.iobatch.IoOpCode;
import java.util.Arrays;
import java.util.List;

/**
 * Benchmark main (issue 13 item 4): seed 003's 80:20 random 4 KiB mix at QD1 on the 2012 preset, filled and
 * warmed up with a capacity of random writes; prints read latency percentiles and IOPS per second window
 * (GC-on / GC-off states). Args: [scaleFactor] [I/Os].
 */
public final class ReadTailMain {
    public static void main(String[] args) {
        int factor = args.length > 0 ? Integer.parseInt(args[0]) : 32;
        int count = args.length > 1 ? Integer.parseInt(args[1]) : 400_000;
        SsdConfig cfg = Experiments.scaled(new SsdPresets().builtIn("sata-mlc-120gb-2012"), factor);
        SimulatedDrive drive = new SimulatedDrive(cfg, 1);
        long cap = drive.capacityBytes();
        drive.fill(0, cap);
        Experiments.runPhase(
                drive, List.of(new RandomGenerator(0, cap, new int[] {4096}, 0, 1, cap / 4096)), 32, 0, 1_000_000_000L);
        long[] readLat = new long[count];
        int[] n = {0};
        long[] perSecond = new long[100_000];
        var run = drive.newRun(
                List.of(SimPhase.io(0, List.of(new RandomGenerator(0, cap, new int[] {4096}, 0.8, 2, count)), 1, 0, 0)),
                (w, p, op, o, s, t, lat, q, st) -> {
                    if (op == IoOpCode.READ) {
                        readLat[n[0]++] = lat;
                    }
                    perSecond[(int) Math.min(perSecond.length - 1, (t + lat) / 1_000_000_000L)]++;
                },
                x -> {},
                1_000_000_000L,
                null);
        run.runToCompletion();
        long[] sorted = Arrays.copyOf(readLat, n[0]);
        Arrays.sort(sorted);
        int seconds = (int) (run.nowNs() / 1_000_000_000L);
        System.out.printf(
                "QD1 80:20 at steady state, 1/%d scale: %d reads, read p50 %.0f us, p99 %.2f ms, p99.9 %.2f ms, max "
                        + "%.1f ms;"
                        + " IOPS per second: %s%n",
                factor,
                sorted.length,
                sorted[sorted.length / 2] / 1e3,
                sorted[(int) (sorted.length * 0.99)] / 1e6,
                sorted[(int) (sorted.length * 0.999)] / 1e6,
                sorted[sorted.length - 1] / 1e6,
                Arrays.toString(Arrays.copyOf(perSecond, Math.min(seconds, 40))));
    }
}
