package dev.ssdpulse.producer.sim.run;

import dev.ssdpulse.producer.sim.engine.SimSmartCounters;
import dev.ssdpulse.producer.sim.engine.SimulatedDrive;
import dev.ssdpulse.producer.workload.ScheduledPhase;
import dev.ssdpulse.producer.workload.WorkloadPresets;
import dev.ssdpulse.producer.workload.WorkloadSpec;
import java.lang.management.ManagementFactory;
import java.lang.management.MemoryPoolMXBean;
import java.lang.management.MemoryType;
import java.util.HashMap;
import java.util.Locale;
import java.util.Map;

/**
 * Benchmark main (issue 13 items 5 and 6): a shipped workload preset on a simulated drive as the offline
 * CLI runs it, minus the analytics: drive preparation plus simulation on one thread, every completion
 * delivered to a counting observer. Prints host I/Os, wall and thread-CPU time, I/Os per second, WA of the
 * last phase and the peak heap used, then the final SMART counters and a hash of every completion (worker,
 * phase, op, offset, size, submit time, latency, queue depth), so two builds can be checked for identical
 * results. Args: drive workload [key=value ...] (workload variables). Compiles against the simulator as of
 * ca39b42 too (bench/sim-old-vs-new.sh runs this same main on the old code).
 */
public final class WorkloadSpeedMain {
    public static void main(String[] args) {
        String drivePreset = args[0];
        String workloadName = args[1];
        Map<String, String> vars = new HashMap<>();
        for (int i = 2; i < args.length; i++) {
            String[] kv = args[i].split("=", 2);
            vars.put(kv[0], kv[1]);
        }
        WorkloadSpec spec = new WorkloadPresets().load(workloadName, vars);
        var threads = ManagementFactory.getThreadMXBean();
        long cpu0 = threads.getCurrentThreadCpuTime();
        long t0 = System.nanoTime();
        SimulatedDrive drive = SimulatedDrive.fromPreset(drivePreset, 1);
        long[] ios = {0};
        long[] hash = {1125899906842597L};
        SimSmartCounters[] phaseStart = {null};
        SimSmartCounters[] last = {null};
        WorkloadSimulation sim = WorkloadSimulation.prepare(drive, spec, 1_000_000_000L, new SimulationObserver() {
            @Override
            public void onPhaseStarted(ScheduledPhase phase, long timeNs) {
                phaseStart[0] = last[0];
            }

            @Override
            public void onSmartSample(SimSmartCounters counters) {
                last[0] = counters;
            }

            @Override
            public void onIoCompleted(
                    int worker,
                    int phaseIndex,
                    byte op,
                    long offsetBytes,
                    int sizeBytes,
                    long submitTimeNs,
                    long latencyNs,
                    int queueDepth,
                    int status) {
                ios[0]++;
                long h = hash[0];
                h = 31 * h + worker;
                h = 31 * h + phaseIndex;
                h = 31 * h + op;
                h = 31 * h + offsetBytes;
                h = 31 * h + sizeBytes;
                h = 31 * h + submitTimeNs;
                h = 31 * h + latencyNs;
                h = 31 * h + queueDepth;
                hash[0] = h;
            }
        });
        sim.runToCompletion(() -> false);
        double wall = (System.nanoTime() - t0) / 1e9;
        double cpu = (threads.getCurrentThreadCpuTime() - cpu0) / 1e9;
        long peak = 0;
        for (MemoryPoolMXBean pool : ManagementFactory.getMemoryPoolMXBeans()) {
            if (pool.getType() == MemoryType.HEAP) {
                peak += pool.getPeakUsage().getUsed();
            }
        }
        double wa = phaseStart[0] == null ? Double.NaN : last[0].writeAmplificationSince(phaseStart[0]);
        System.out.printf(
                Locale.ROOT,
                "%s on %s: %,d host I/Os, %.1f s wall (%.1f s thread CPU) = %.3f M I/Os per wall s (%.3f per CPU s);"
                        + " last-phase WA %.2f; peak heap %d MiB of max %d MiB%n",
                workloadName,
                drivePreset,
                ios[0],
                wall,
                cpu,
                ios[0] / wall / 1e6,
                ios[0] / cpu / 1e6,
                wa,
                peak >> 20,
                Runtime.getRuntime().maxMemory() >> 20);
        System.out.printf(Locale.ROOT, "result: completions hash %016x; final %s%n", hash[0], last[0]);
    }
}
