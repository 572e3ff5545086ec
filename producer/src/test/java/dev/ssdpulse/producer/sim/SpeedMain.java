package dev.ssdpulse.producer.sim;

import dev.ssdpulse.producer.sim.config.SsdPresets;
import dev.ssdpulse.producer.sim.engine.SimulatedDrive;
import dev.ssdpulse.producer.sim.support.Experiments;
import dev.ssdpulse.producer.sim.support.RandomGenerator;

import java.util.List;

/**
 * Benchmark main (acceptance 5): the full 128 GiB-raw 2012 preset, filled, then 4 KiB random writes at
 * QD32 over the whole user space with timing on; reports simulated host I/Os per wall second in steady
 * state and the heap in use. Run with -Xmx1g. Args: [preset] [warmup IOs] [measured IOs].
 */
public final class SpeedMain {
    public static void main(String[] args) {
        String preset = args.length > 0 ? args[0] : "sata-mlc-120gb-2012";
        long warm = args.length > 1 ? Long.parseLong(args[1]) : 20_000_000;
        long measured = args.length > 2 ? Long.parseLong(args[2]) : 10_000_000;
        SimulatedDrive drive = new SimulatedDrive(new SsdPresets().builtIn(preset), 1);
        long cap = drive.capacityBytes();
        long t0 = System.nanoTime();
        drive.fill(0, cap);
        System.out.printf("fill %s in %.1f s%n", dev.ssdpulse.producer.sim.config.Capacity.format(cap), (System.nanoTime() - t0) / 1e9);
        Experiments.runPhase(drive, List.of(new RandomGenerator(0, cap, new int[] {4096}, 0, 1, warm)), 32, 0, 1_000_000_000L);
        System.gc();
        Runtime rt = Runtime.getRuntime();
        long t1 = System.nanoTime();
        var r = Experiments.runPhase(drive, List.of(new RandomGenerator(0, cap, new int[] {4096}, 0, 2, measured)), 32, 0, 1_000_000_000L);
        double wall = (System.nanoTime() - t1) / 1e9;
        System.out.printf("%s: %d host I/Os in %.2f s wall = %.0f I/Os per second; WA %.2f; heap used %d MiB of max %d MiB%n",
                preset, r.ios(), wall, r.ios() / wall, r.writeAmplification(), (rt.totalMemory() - rt.freeMemory()) >> 20, rt.maxMemory() >> 20);
    }
}
