package dev.ssdpulse.streams.report;

import dev.ssdpulse.schemas.avro.LatencyStats;
import java.util.List;
import java.util.Locale;

/** The outlier counts reviewers publish (I/Os at or above 10/30/50/100/200 ms), exact from the fixed bins. */
public final class Outliers {
    public static final long[] THRESHOLDS_NS = {10_000_000L, 30_000_000L, 50_000_000L, 100_000_000L, 200_000_000L};

    private Outliers() {
    }

    /** I/Os with latency >= thresholdNs, exact from the fixed bins; -1 if the threshold is not a bin edge. */
    public static long countAtOrAbove(LatencyStats latency, long thresholdNs) {
        List<Long> bounds = latency.getBinUpperBoundsNs();
        int edge = bounds.indexOf(thresholdNs);
        if (edge < 0) {
            return -1;
        }
        long count = 0;
        List<Long> bins = latency.getBinCounts();
        for (int i = edge + 1; i < bins.size(); i++) {
            count += bins.get(i);
        }
        return count;
    }

    /** "10ms", "1.5s", "200us": labels of thresholds and bin edges, the same in every locale. */
    public static String label(long ns) {
        if (ns >= 1_000_000_000L) {
            return trim(ns / 1e9) + "s";
        }
        if (ns >= 1_000_000L) {
            return trim(ns / 1e6) + "ms";
        }
        if (ns >= 1_000L) {
            return trim(ns / 1e3) + "us";
        }
        return ns + "ns";
    }

    private static String trim(double v) {
        String s = v >= 100 ? String.format(Locale.ROOT, "%.0f", v)
                : v >= 10 ? String.format(Locale.ROOT, "%.1f", v) : String.format(Locale.ROOT, "%.2f", v);
        if (s.contains(".")) {
            s = s.replaceAll("0+$", "").replaceAll("\\.$", "");
        }
        return s;
    }
}
