package dev.ssdpulse.producer.sim;

import dev.ssdpulse.producer.sim.config.Capacity;
import dev.ssdpulse.producer.sim.config.SsdPresets;
import dev.ssdpulse.producer.sim.engine.SimulatedDrive;
import dev.ssdpulse.producer.sim.support.Experiments;
import dev.ssdpulse.producer.sim.support.RandomGenerator;
import java.lang.management.ManagementFactory;
import java.util.List;

/**
 * Benchmark main (acceptance 5): the full 128 GiB-raw 2012 preset, filled, then 4 KiB random writes at
 * QD32 over the whole user space with timing on; reports simulated host I/Os per wall second in steady
 * state and the heap in use. Run with -Xmx1g. Args: [preset] [span GB, 0 = whole drive] [warmup IOs] [measured IOs].
 * The span defaults to seed 000's 24 GB on the filled drive (WA ~4.5); the whole drive gives WA ~20 on
 * the 2012 preset (4 % spare), where every host write costs ~20 relocations.
 */
public final class SpeedMain {
    public static void main(String[] args) {
        String preset = args.length > 0 ? args[0] : "sata-mlc-120gb-2012";
        long spanGb = args.length > 1 ? Long.parseLong(args[1]) : 24;
        long warm = args.length > 2 ? Long.parseLong(args[2]) : 20_000_000;
        long measured = args.length > 3 ? Long.parseLong(args[3]) : 10_000_000;
        SimulatedDrive drive = new SimulatedDrive(new SsdPresets().builtIn(preset), 1);
        long cap = drive.capacityBytes();
        long span = spanGb == 0 ? cap : spanGb * 1_000_000_000L;
        long t0 = System.nanoTime();
        drive.fill(0, cap);
        System.out.printf("fill %s in %.1f s%n", Capacity.format(cap), (System.nanoTime() - t0) / 1e9);
        Experiments.runPhase(
                drive, List.of(new RandomGenerator(0, span, new int[] {4096}, 0, 1, warm)), 32, 0, 1_000_000_000L);
        System.gc();
        Runtime rt = Runtime.getRuntime();
        var threads = ManagementFactory.getThreadMXBean();
        long cpu0 = threads.getCurrentThreadCpuTime();
        long t1 = System.nanoTime();
        var r = Experiments.runPhase(
                drive, List.of(new RandomGenerator(0, span, new int[] {4096}, 0, 2, measured)), 32, 0, 1_000_000_000L);
        double wall = (System.nanoTime() - t1) / 1e9;
        double cpu = (threads.getCurrentThreadCpuTime() - cpu0) / 1e9;
        // on a shared machine wall time includes waiting for a core; CPU time of the thread does not
        System.out.printf("thread CPU %.2f s = %.0f I/Os per CPU second%n", cpu, r.ios() / cpu);
        System.out.printf(
                "%s, span %s: %d host I/Os in %.2f s wall = %.0f I/Os per second; WA %.2f; heap used %d MiB of max "
                        + "%d MiB%n",
                preset,
                Capacity.format(span),
                r.ios(),
                wall,
                r.ios() / wall,
                r.writeAmplification(),
                (rt.totalMemory() - rt.freeMemory()) >> 20,
                rt.maxMemory() >> 20);
    }
}
