package dev.ssdpulse.producer.sim;

import dev.ssdpulse.producer.sim.config.SsdConfig;
import dev.ssdpulse.producer.sim.config.SsdPresets;
import dev.ssdpulse.producer.sim.engine.SimulatedDrive;
import dev.ssdpulse.producer.sim.support.Experiments;
import dev.ssdpulse.producer.sim.support.RandomGenerator;
import java.util.Arrays;
import java.util.List;

/**
 * Benchmark main: seed 001's continuous test on the sata-240gb preset. The 160 GB test file is written
 * first (sequential fill), then 15 minutes of QD32, 50 % reads, 25 % each of 4K/64K/128K/1M, random over
 * the file. Args: [scaleFactor (1 or a multiple of 8)] [minutes] [preset name or file]. Prints MB/s per 30 s window
 * (of full-size time).
 */
public final class Seed001Main {
    public static void main(String[] args) {
        int factor = args.length > 0 ? Integer.parseInt(args[0]) : 1;
        double minutes = args.length > 1 ? Double.parseDouble(args[1]) : 15;
        SsdConfig preset = new SsdPresets().resolve(args.length > 2 ? args[2] : "sata-240gb");
        System.out.println(preset.describe());
        var r = Seed001.run(preset, factor, minutes, 30_000_000_000L);
        System.out.printf(
                "WA %.2f, ios %d, MB/s per 30 s: %s%n",
                r.writeAmplification(),
                r.ios(),
                Arrays.toString(
                        Arrays.stream(r.mbPerSecond()).mapToLong(Math::round).toArray()));
    }

    /**
     * Shared with the test: the preset shrunk by {@code factor} (1, or a multiple of 8: blocks per plane / (factor /
     * 4), pages per block / 4, planes kept, {@link Experiments#shrunk}), so the host and the NAND run as fast as at
     * full size and times (the 15 minutes, the windows) are divided by the factor.
     */
    static final class Seed001 {
        static Experiments.PhaseResult run(SsdConfig preset, int factor, double minutes, long windowNs) {
            SsdConfig cfg = factor == 1 ? preset : Experiments.shrunk(preset, factor / 4, 4);
            SimulatedDrive drive = new SimulatedDrive(cfg, 1);
            long file = 160_000_000_000L / factor / 4096 * 4096;
            drive.fill(0, file);
            int[] sizes = {4096, 65536, 131072, 1 << 20};
            long duration = (long) (minutes * 60e9 / factor);
            return Experiments.runPhase(
                    drive,
                    List.of(new RandomGenerator(0, file, sizes, 0.5, 3, Long.MAX_VALUE)),
                    32,
                    duration,
                    windowNs / factor);
        }
    }
}
