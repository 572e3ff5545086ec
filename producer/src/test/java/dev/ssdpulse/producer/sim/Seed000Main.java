package dev.ssdpulse.producer.sim;

import dev.ssdpulse.producer.sim.config.SsdConfig;
import dev.ssdpulse.producer.sim.config.SsdPresets;
import dev.ssdpulse.producer.sim.engine.SimulatedDrive;
import dev.ssdpulse.producer.sim.support.Experiments;
import java.util.Arrays;

/** Benchmark main: seed 000 experiment 1 (and 2) on the 2012 preset; args: [scaleFactor] [minutes]. */
public final class Seed000Main {
    public static void main(String[] args) {
        int factor = args.length > 0 ? Integer.parseInt(args[0]) : 1;
        double minutes = args.length > 1 ? Double.parseDouble(args[1]) : 20;
        SsdConfig cfg = Experiments.scaled(new SsdPresets().builtIn("sata-mlc-120gb-2012"), factor);
        System.out.println(cfg.describe());
        long gb = 1_000_000_000L / factor;
        long span = 24 * gb;
        long duration = (long) (minutes * 60e9 * 4 / Math.max(4, factor)); // NAND parallelism scales by 4 only
        long window = 10_000_000_000L / factor;
        for (long free : new long[] {-1, 0, 4, 8, 16}) {
            long t0 = System.nanoTime();
            SimulatedDrive drive = new SimulatedDrive(cfg, 1);
            var r = Experiments.seed000Random(drive, span, free < 0 ? -1 : free * gb, duration, window, 42);
            var s = Experiments.seed000SequentialRewrite(drive, span, window);
            double wall = (System.nanoTime() - t0) / 1e9;
            System.out.printf("maxLat=%.1fms %s%n", r.maxLatencyNs() / 1e6, r.last());
            System.out.printf(
                    "free=%s WA=%.2f seqWA=%.2f ios=%d wall=%.1fs rate=%.0f IO/s MBps=%s%n",
                    free < 0 ? "empty" : free + "GB",
                    r.writeAmplification(),
                    s.writeAmplification(),
                    r.ios(),
                    wall,
                    r.ios() / wall,
                    Arrays.toString(Arrays.stream(r.mbPerSecond())
                            .mapToLong(Math::round)
                            .toArray()));
        }
    }
}
