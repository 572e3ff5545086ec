package dev.ssdpulse.streams.bench;

import dev.ssdpulse.streams.analysis.AnalysisSettings;
import dev.ssdpulse.streams.analysis.CollectingOutput;
import dev.ssdpulse.streams.analysis.RunAnalysis;
import dev.ssdpulse.streams.codec.BinaryWriter;
import dev.ssdpulse.streams.latency.LatencyScatterSampler;
import java.util.SplittableRandom;

/**
 * Manual check (not a test): what the latency scatter adds to the analysis. One thread, a QD32-like stream at
 * 2,400 IOPS with ~1.6 % of I/Os at 10 ms or more; per I/O: the sampler alone, and the whole RunAnalysis (which
 * includes it); then the sampler's share of a run's encoded state mid-run. Args: I/O count (default 4 M), rounds.
 */
public final class ScatterCostCheck {
    private ScatterCostCheck() {}

    public static void main(String[] args) {
        int n = args.length > 0 ? Integer.parseInt(args[0]) : 4_000_000;
        int rounds = args.length > 1 ? Integer.parseInt(args[1]) : 5;
        SplittableRandom random = new SplittableRandom(1);
        int[] ops = new int[n];
        long[] completion = new long[n];
        long[] latency = new long[n];
        long gapNs = 1_000_000_000L / 2_400;
        for (int i = 0; i < n; i++) {
            ops[i] = random.nextInt(10) < 7 ? 1 : 0;
            latency[i] = random.nextInt(1000) < 16
                    ? 10_000_000 + random.nextLong(200_000_000)
                    : 80_000 + random.nextLong(9_000_000);
            completion[i] = i * gapNs;
        }
        for (int round = 0; round < rounds; round++) {
            LatencyScatterSampler sampler = new LatencyScatterSampler(
                    "run-bench",
                    1_000_000_000L,
                    LatencyScatterSampler.DEFAULT_THRESHOLD_NS,
                    LatencyScatterSampler.DEFAULT_SAMPLES_PER_WINDOW);
            long[] points = new long[1];
            long start = System.nanoTime();
            for (int i = 0; i < n; i++) {
                sampler.add(ops[i], completion[i], latency[i]);
                long watermark = completion[i] - 2_000_000_000L;
                if (watermark >= sampler.nextCloseEndNs()) {
                    sampler.closeUpTo(watermark, w -> points[0] += w.pointCount());
                }
            }
            BinaryWriter state = new BinaryWriter(1024);
            sampler.encodeInto(state);
            int samplerStateBytes = state.toByteArray().length;
            sampler.flushAll(w -> points[0] += w.pointCount());
            double samplerNs = (System.nanoTime() - start) / (double) n;

            RunAnalysis analysis =
                    new RunAnalysis("run-bench", AnalysisSettings.defaults(), new CollectingOutput(false));
            start = System.nanoTime();
            int stateBytes = 0;
            for (int i = 0; i < n; i++) {
                analysis.io(ops[i], 0, completion[i], 4096, latency[i], 0);
                if (i == n / 2) {
                    stateBytes = analysis.encode().length;
                }
            }
            double analysisNs = (System.nanoTime() - start) / (double) n;
            System.out.printf(
                    "round %d: sampler %.1f ns/I/O (%d points kept of %d), whole RunAnalysis %.1f ns/I/O;"
                            + " mid-run state %d B, of which the scatter's open windows %d B%n",
                    round, samplerNs, points[0], n, analysisNs, stateBytes, samplerStateBytes);
        }
    }
}
