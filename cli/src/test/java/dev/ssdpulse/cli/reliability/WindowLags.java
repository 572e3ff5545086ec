package dev.ssdpulse.cli.reliability;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.List;
import java.util.Map;

/**
 * The lag of every window of every run: from the wall clock at which the producer handed the window's last I/O to
 * the publisher to the wall clock at which the window was appended to the output topic (the broker's
 * LogAppendTime of its last {@code WindowMetrics} record, one per op). Both clocks are the same machine's
 * {@code System.currentTimeMillis()}, so the difference needs no clock sync; resolution 1 ms.
 *
 * @param windows number of windows measured
 * @param minMs   smallest lag (negative would mean the measurement is wrong: a window shown before its last I/O)
 */
record WindowLags(int windows, long minMs, long p50Ms, long p99Ms, long maxMs) {

    /** A window of a run: index = window start / window length. */
    record RunWindow(String runId, long index) {}

    /**
     * @param lastIoWallMs every window in which a producer recorded I/Os
     * @param appendWallMs every window the analytics appended (may hold more runs than measured: ignored)
     * @throws IllegalStateException naming the windows never appended
     */
    static WindowLags of(Map<RunWindow, Long> lastIoWallMs, Map<RunWindow, Long> appendWallMs) {
        if (lastIoWallMs.isEmpty()) {
            throw new IllegalArgumentException("no window recorded by any producer");
        }
        List<RunWindow> missing = new ArrayList<>();
        long[] lags = new long[lastIoWallMs.size()];
        int n = 0;
        for (Map.Entry<RunWindow, Long> e : lastIoWallMs.entrySet()) {
            Long appended = appendWallMs.get(e.getKey());
            if (appended == null) {
                missing.add(e.getKey());
            } else {
                lags[n++] = appended - e.getValue();
            }
        }
        if (!missing.isEmpty()) {
            missing.sort(Comparator.comparing(RunWindow::runId).thenComparingLong(RunWindow::index));
            throw new IllegalStateException(missing.size() + " of " + lastIoWallMs.size()
                    + " windows with I/Os never appended to the output topic, e.g. "
                    + missing.subList(0, Math.min(5, missing.size())));
        }
        Arrays.sort(lags);
        return new WindowLags(n, lags[0], percentile(lags, 0.50), percentile(lags, 0.99), lags[n - 1]);
    }

    /** Nearest rank: the smallest value with at least q of the values at or below it. */
    static long percentile(long[] sorted, double q) {
        if (sorted.length == 0 || !(q > 0 && q <= 1)) {
            throw new IllegalArgumentException("percentile " + q + " of " + sorted.length + " values");
        }
        int rank = (int) Math.ceil(q * sorted.length);
        return sorted[Math.max(rank, 1) - 1];
    }
}
