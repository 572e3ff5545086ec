package dev.ssdpulse.streams.bench;

import dev.ssdpulse.streams.latency.LatencyBins;
import dev.ssdpulse.streams.window.RunWindowAggregator;
import java.util.Random;

/**
 * Manual throughput check (not a test): how many I/Os per second one thread pushes through
 * RunWindowAggregator (1-s windows, 2-s grace, IOMeter bins, HdrHistogram per window).
 * Run: java -cp streams/target/classes:streams/target/test-classes:$HDR
 * dev.ssdpulse.streams.bench.AccumulatorThroughputCheck
 */
public final class AccumulatorThroughputCheck {
    private AccumulatorThroughputCheck() {}

    public static void main(String[] args) {
        int n = args.length > 0 ? Integer.parseInt(args[0]) : 20_000_000;
        // QD32-like stream: 200k IOPS, mixed 70/30, latencies ~50 us .. tens of ms, completions slightly out of order
        Random random = new Random(1);
        int[] ops = new int[n];
        long[] completion = new long[n];
        long[] latency = new long[n];
        long t = 0;
        for (int i = 0; i < n; i++) {
            t += 5_000;
            ops[i] = random.nextInt(10) < 7 ? 0 : 1;
            latency[i] = 50_000 + (long) (random.nextDouble() * random.nextDouble() * random.nextDouble() * 20_000_000);
            completion[i] = t - random.nextInt(100_000);
        }
        for (int round = 0; round < 5; round++) {
            long[] windows = new long[1];
            RunWindowAggregator agg =
                    new RunWindowAggregator(1_000_000_000L, 2_000_000_000L, LatencyBins.iometer(), w -> windows[0]++);
            long start = System.nanoTime();
            for (int i = 0; i < n; i++) {
                agg.add(ops[i], 0, completion[i], 4096, latency[i], 0);
            }
            agg.flushAll();
            long elapsed = System.nanoTime() - start;
            System.out.printf(
                    "round %d: %,d I/Os in %.3f s = %.1f M I/Os/s (%d windows, late %d)%n",
                    round, n, elapsed / 1e9, n / (elapsed / 1e9) / 1e6, windows[0], agg.lateIoCount());
        }
    }
}
