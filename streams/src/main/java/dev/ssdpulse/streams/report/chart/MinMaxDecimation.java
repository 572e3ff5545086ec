package dev.ssdpulse.streams.report.chart;

import java.util.Arrays;

/**
 * Thins a long series for drawing without hiding what matters in it: the x range is cut into buckets (one or two
 * per pixel of the drawing), and of each bucket's points the lowest and the highest are kept, in x order. A
 * one-second drop or spike of a 5,000-s run stays on the chart as a full-height stroke (a cliff, a stall, an
 * outlier window), which an average or every-k-th sample would flatten or skip; at the drawing's resolution the
 * polyline through the kept points covers the same pixels as through all of them. A missing value (NaN: a gap)
 * is kept once per bucket so that the line still breaks there. A series of at most {@code 2 x buckets} points is
 * returned as it is.
 */
public final class MinMaxDecimation {
    private MinMaxDecimation() {}

    /** Points (x ascending) as two columns. */
    public record Points(double[] x, double[] y) {
        public int size() {
            return x.length;
        }
    }

    /**
     * @param x       ascending; non-finite x are dropped
     * @param buckets number of equal x intervals between the first and the last x (>= 1)
     */
    public static Points decimate(double[] x, double[] y, int buckets) {
        if (x.length != y.length) {
            throw new IllegalArgumentException(x.length + " x but " + y.length + " y");
        }
        if (buckets < 1) {
            throw new IllegalArgumentException("buckets must be >= 1, was " + buckets);
        }
        if (x.length <= 2L * buckets) {
            return new Points(x, y);
        }
        double lo = Double.POSITIVE_INFINITY;
        double hi = Double.NEGATIVE_INFINITY;
        for (double v : x) {
            if (Double.isFinite(v)) {
                lo = Math.min(lo, v);
                hi = Math.max(hi, v);
            }
        }
        double width = hi > lo ? (hi - lo) / buckets : 1;
        double[] outX = new double[3 * buckets + 2];
        double[] outY = new double[outX.length];
        int n = 0;
        int i = 0;
        while (i < x.length) {
            if (!Double.isFinite(x[i])) {
                i++;
                continue;
            }
            int bucket = Math.min(buckets - 1, (int) ((x[i] - lo) / width));
            int min = -1;
            int max = -1;
            int gap = -1;
            for (; i < x.length; i++) {
                if (!Double.isFinite(x[i])) {
                    continue;
                }
                if (Math.min(buckets - 1, (int) ((x[i] - lo) / width)) != bucket) {
                    break;
                }
                if (!Double.isFinite(y[i])) {
                    gap = gap < 0 ? i : gap;
                } else {
                    min = min < 0 || y[i] < y[min] ? i : min;
                    max = max < 0 || y[i] > y[max] ? i : max;
                }
            }
            int[] kept = {min, max, gap};
            Arrays.sort(kept);
            int last = -1;
            for (int k : kept) {
                if (k >= 0 && k != last) {
                    if (n == outX.length) {
                        outX = Arrays.copyOf(outX, 2 * n);
                        outY = Arrays.copyOf(outY, 2 * n);
                    }
                    outX[n] = x[k];
                    outY[n++] = y[k];
                    last = k;
                }
            }
        }
        return new Points(Arrays.copyOf(outX, n), Arrays.copyOf(outY, n));
    }
}
