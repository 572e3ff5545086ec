package dev.ssdpulse.streams.report;

import dev.ssdpulse.schemas.avro.LatencyStats;
import dev.ssdpulse.schemas.avro.OpSummary;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/** The outlier counts reviewers publish (I/Os at or above 10/30/50/100/200 ms), exact from the fixed bins. */
public final class Outliers {
    public static final long[] THRESHOLDS_NS = {10_000_000L, 30_000_000L, 50_000_000L, 100_000_000L, 200_000_000L};

    private Outliers() {}

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

    /**
     * The latency bins of all ops together, as the distribution charts draw them: each bin's label ("<1ms"; the
     * last, open one "&ge;1s" with the given sign) and count, and the bins of outliers (at or above the first
     * threshold).
     */
    public record Distribution(List<String> labels, long[] counts, List<Integer> outlierBins) {}

    /** @param ops at least one; every op of a run has the same bins */
    public static Distribution distribution(List<OpSummary> ops, String atOrAbove) {
        List<Long> bounds = ops.get(0).getLatency().getBinUpperBoundsNs();
        long[] counts = new long[ops.get(0).getLatency().getBinCounts().size()];
        List<String> labels = new ArrayList<>();
        List<Integer> outliers = new ArrayList<>();
        for (int i = 0; i < counts.length; i++) {
            for (OpSummary op : ops) {
                counts[i] += op.getLatency().getBinCounts().get(i);
            }
            labels.add(i < bounds.size() ? "<" + label(bounds.get(i)) : atOrAbove + label(bounds.get(i - 1)));
            if (i > 0 && bounds.get(i - 1) >= THRESHOLDS_NS[0]) {
                outliers.add(i);
            }
        }
        return new Distribution(labels, counts, outliers);
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
        String s = v >= 100
                ? String.format(Locale.ROOT, "%.0f", v)
                : v >= 10 ? String.format(Locale.ROOT, "%.1f", v) : String.format(Locale.ROOT, "%.2f", v);
        if (s.contains(".")) {
            s = s.replaceAll("0+$", "").replaceAll("\\.$", "");
        }
        return s;
    }
}
