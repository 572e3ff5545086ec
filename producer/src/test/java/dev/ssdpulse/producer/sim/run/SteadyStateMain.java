package dev.ssdpulse.producer.sim.run;

import dev.ssdpulse.producer.sim.config.SsdConfig;
import dev.ssdpulse.producer.sim.config.SsdPresets;
import dev.ssdpulse.producer.sim.engine.SimulatedDrive;
import dev.ssdpulse.producer.sim.stats.HistogramModes;
import dev.ssdpulse.producer.sim.support.Experiments;
import dev.ssdpulse.producer.sim.support.SteadyStateProbe;
import dev.ssdpulse.producer.workload.WorkloadPresets;
import dev.ssdpulse.producer.workload.WorkloadSpec;
import java.util.HashMap;
import java.util.Map;

/**
 * Benchmark main: a workload preset on a drive preset, and its last phase second by second
 * ({@link SteadyStateProbe}): IOPS states, silent seconds, latency modes (20 log bins per decade, valleys to
 * half the peak, peaks of at least 0.1 % of the I/Os). Args: drive blockDivisor pageDivisor workload
 * [key=value ...]; the divisors shrink blocks per plane and pages per block, keeping channels, dies and
 * planes (1 1 = the preset as shipped), or "planes:CHANNELS:BLOCKS_PER_PLANE MAX_PAGES_PER_BLOCK" for
 * {@link Experiments#planeScaled}; windowMs=N sets the window of the per-window counts (default 1000).
 */
public final class SteadyStateMain {
    private static SsdConfig planeScaled(SsdConfig preset, String[] channelsAndBlocks, int maxPagesPerBlock) {
        return Experiments.planeScaled(
                preset,
                Integer.parseInt(channelsAndBlocks[0]),
                Integer.parseInt(channelsAndBlocks[1]),
                maxPagesPerBlock);
    }

    public static void main(String[] args) {
        SsdConfig preset = new SsdPresets().resolve(args[0]);
        SsdConfig cfg = args[1].startsWith("planes:")
                ? planeScaled(preset, args[1].substring(7).split(":"), Integer.parseInt(args[2]))
                : Experiments.shrunk(preset, Integer.parseInt(args[1]), Integer.parseInt(args[2]));
        Map<String, String> vars = new HashMap<>();
        for (int i = 4; i < args.length; i++) {
            String[] kv = args[i].split("=", 2);
            vars.put(kv[0], kv[1]);
        }
        SteadyStateProbe probe =
                new SteadyStateProbe(Long.parseLong(vars.getOrDefault("windowMs", "1000")) * 1_000_000L);
        vars.remove("windowMs");
        WorkloadSpec spec = new WorkloadPresets().load(args[3], vars);
        long t0 = System.nanoTime();
        WorkloadSimulation.prepare(new SimulatedDrive(cfg, 1), spec, 1_000_000_000L, probe)
                .runToCompletion(() -> false);
        System.out.println(cfg.describe());
        System.out.printf("%s, last phase (%.1f s wall):%n", args[3], (System.nanoTime() - t0) / 1e9);
        System.out.println(probe.describe(new HistogramModes(0.5, 0.001)));
    }
}
