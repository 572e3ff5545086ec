package dev.ssdpulse.streams.bench;

import dev.ssdpulse.streams.latency.LatencyBins;
import dev.ssdpulse.streams.window.RunWindowAggregator;
import java.util.Random;

/**
 * Manual check (not a test): the get-add-put cycle a Kafka Streams processor runs per I/O batch
 * (decodeState, add the batch, encodeState), 200k IOPS QD32-like stream, 1-s windows, 2-s grace.
 * Args: I/O count, batch size.
 */
public final class StateCodecCheck {
    private StateCodecCheck() {}

    public static void main(String[] args) {
        int n = args.length > 0 ? Integer.parseInt(args[0]) : 4_000_000;
        int batch = args.length > 1 ? Integer.parseInt(args[1]) : 512;
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
        for (int round = 0; round < 6; round++) {
            boolean inMemory = round % 2 == 1;
            RunWindowAggregator live = null;
            long[] windows = new long[1];
            byte[] state = new RunWindowAggregator(1_000_000_000L, 2_000_000_000L, LatencyBins.iometer(), w -> {})
                    .encodeState();
            long stateBytes = 0;
            long start = System.nanoTime();
            for (int from = 0; from < n; from += batch) {
                RunWindowAggregator agg =
                        inMemory && live != null ? live : RunWindowAggregator.decodeState(state, w -> windows[0]++);
                live = agg;
                int to = Math.min(n, from + batch);
                for (int i = from; i < to; i++) {
                    agg.add(ops[i], 0, completion[i], 4096, latency[i], 0);
                }
                state = agg.encodeState();
                stateBytes += state.length;
            }
            long elapsed = System.nanoTime() - start;
            long batches = (n + batch - 1) / batch;
            System.out.printf(
                    (inMemory ? "in-memory + encode " : "decode + encode    ")
                            + "batch %d: %.1f M I/Os/s, %.1f us per batch cycle, mean state %d B, %d windows closed%n",
                    batch,
                    n / (elapsed / 1e9) / 1e6,
                    elapsed / 1e3 / batches,
                    stateBytes / batches,
                    windows[0]);
        }
    }
}
