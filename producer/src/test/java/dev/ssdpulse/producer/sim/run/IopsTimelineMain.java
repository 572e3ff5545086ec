package dev.ssdpulse.producer.sim.run;

import dev.ssdpulse.producer.sim.engine.SimSmartCounters;
import dev.ssdpulse.producer.sim.engine.SimulatedDrive;
import dev.ssdpulse.producer.workload.ScheduledPhase;
import dev.ssdpulse.producer.workload.WorkloadPresets;
import dev.ssdpulse.producer.workload.WorkloadSpec;
import java.util.Arrays;
import java.util.HashMap;
import java.util.Locale;
import java.util.Map;

/**
 * Benchmark main (issue 13 item 4): a shipped workload preset on a simulated drive, and the IOPS of its last
 * phase per second of simulated time (by completion time): mean and peak IOPS, the seconds at >= 80 % of the
 * peak ("GC off") and at <= 20 % of it ("GC on"), the last phase's maximum and p99.9 latency, its WA, and the
 * first 60 seconds' IOPS. Args: drive workload [key=value ...] (workload variables). Uses only API that
 * existed before item 4's host-write change, so the old code runs it too.
 */
public final class IopsTimelineMain {
    private static final long SECOND_NS = 1_000_000_000L;

    public static void main(String[] args) {
        Map<String, String> vars = new HashMap<>();
        for (int i = 2; i < args.length; i++) {
            String[] kv = args[i].split("=", 2);
            vars.put(kv[0], kv[1]);
        }
        WorkloadSpec spec = new WorkloadPresets().load(args[1], vars);
        SimulatedDrive drive = SimulatedDrive.fromPreset(args[0], 1);
        int[] phase = {-1};
        long[] phaseStartNs = {0};
        long[] perSecond = new long[1 << 16];
        long[] latencyHistogram = new long[1 << 20]; // 10 us bins up to ~10 s, the rest in the last bin
        long[] maxLatencyNs = {0};
        long[] ios = {0};
        SimSmartCounters[] phaseStart = {null};
        SimSmartCounters[] last = {null};
        WorkloadSimulation sim = WorkloadSimulation.prepare(drive, spec, SECOND_NS, new SimulationObserver() {
            @Override
            public void onPhaseStarted(ScheduledPhase p, long timeNs) {
                phase[0]++;
                phaseStartNs[0] = timeNs;
                phaseStart[0] = last[0];
                Arrays.fill(perSecond, 0);
                Arrays.fill(latencyHistogram, 0);
                maxLatencyNs[0] = 0;
                ios[0] = 0;
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
                long s = (submitTimeNs + latencyNs - phaseStartNs[0]) / SECOND_NS;
                perSecond[(int) Math.min(perSecond.length - 1, Math.max(0, s))]++;
                latencyHistogram[(int) Math.min(latencyHistogram.length - 1, latencyNs / 10_000)]++;
                maxLatencyNs[0] = Math.max(maxLatencyNs[0], latencyNs);
                ios[0]++;
            }
        });
        sim.runToCompletion(() -> false);
        int seconds = 0;
        for (int i = 0; i < perSecond.length - 1; i++) {
            if (perSecond[i] > 0) {
                seconds = i; // the last second with a completion is cut short: left out
            }
        }
        long[] iops = Arrays.copyOf(perSecond, seconds);
        long peak = Arrays.stream(iops).max().orElse(0);
        long gcOff = Arrays.stream(iops).filter(n -> n >= peak * 0.8).count();
        long gcOn = Arrays.stream(iops).filter(n -> n <= peak * 0.2).count();
        double mean = Arrays.stream(iops).average().orElse(0);
        long rank = (long) Math.ceil(ios[0] * 0.999);
        long seen = 0;
        int p999Bin = 0;
        for (int i = 0; i < latencyHistogram.length; i++) {
            seen += latencyHistogram[i];
            if (seen >= rank) {
                p999Bin = i;
                break;
            }
        }
        double wa = phaseStart[0] == null ? Double.NaN : last[0].writeAmplificationSince(phaseStart[0]);
        System.out.printf(
                Locale.ROOT,
                "%s on %s, last phase: %,d I/Os in %d whole seconds, mean %.0f IOPS, peak %d; %d s >= 80 %% of peak"
                        + " (GC off), %d s <= 20 %% (GC on); latency p99.9 %.2f ms, max %.1f ms; WA %.2f%n",
                args[1],
                args[0],
                ios[0],
                seconds,
                mean,
                peak,
                gcOff,
                gcOn,
                p999Bin / 1e2,
                maxLatencyNs[0] / 1e6,
                wa);
        System.out.printf(
                Locale.ROOT,
                "IOPS of seconds 0-59: %s%n",
                Arrays.toString(Arrays.copyOf(iops, Math.min(60, iops.length))));
        System.out.printf(
                Locale.ROOT,
                "IOPS of the last 60 seconds: %s%n",
                Arrays.toString(Arrays.copyOfRange(iops, Math.max(0, iops.length - 60), iops.length)));
    }
}
