package dev.ssdpulse.streams.report.chart;

import java.util.Arrays;

/**
 * A long series made drawable without hiding what matters in it: the x range is cut into equal buckets (one per
 * two units of a chart's width), and of each bucket's points the mean and the lowest and highest are kept — a
 * line through the means and a shaded band from the lowest to the highest. A one-second drop or spike of a
 * 5,000-s run stays on the chart as the band's full reach (a cliff, a stall, an outlier window), which a plain
 * average or every k-th sample would flatten or skip, and the runs of a comparison stay apart where their bands
 * overlap. A missing value (NaN: a gap) counts for nothing; a bucket with no value at all is a gap in line and
 * band.
 */
public final class MinMaxEnvelope {
    private MinMaxEnvelope() {}

    /** Per bucket: the mean x of its points, and the mean, lowest and highest of their values (NaN: no value). */
    public record Buckets(double[] x, double[] mean, double[] min, double[] max) {
        public int size() {
            return x.length;
        }
    }

    /**
     * @param x       ascending; non-finite x are dropped
     * @param buckets number of equal x intervals between the first and the last x (>= 1)
     */
    public static Buckets of(double[] x, double[] y, int buckets) {
        if (x.length != y.length) {
            throw new IllegalArgumentException(x.length + " x but " + y.length + " y");
        }
        if (buckets < 1) {
            throw new IllegalArgumentException("buckets must be >= 1, was " + buckets);
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
        double[] bx = new double[buckets];
        double[] mean = new double[buckets];
        double[] min = new double[buckets];
        double[] max = new double[buckets];
        int n = 0;
        int i = 0;
        while (i < x.length) {
            if (!Double.isFinite(x[i])) {
                i++;
                continue;
            }
            int bucket = index(x[i], lo, width, buckets);
            double sumX = 0;
            double sumY = 0;
            int points = 0;
            int values = 0;
            double low = Double.POSITIVE_INFINITY;
            double high = Double.NEGATIVE_INFINITY;
            for (; i < x.length; i++) {
                if (!Double.isFinite(x[i])) {
                    continue;
                }
                if (index(x[i], lo, width, buckets) != bucket) {
                    break;
                }
                sumX += x[i];
                points++;
                if (Double.isFinite(y[i])) {
                    sumY += y[i];
                    values++;
                    low = Math.min(low, y[i]);
                    high = Math.max(high, y[i]);
                }
            }
            bx[n] = sumX / points;
            mean[n] = values == 0 ? Double.NaN : sumY / values;
            min[n] = values == 0 ? Double.NaN : low;
            max[n++] = values == 0 ? Double.NaN : high;
        }
        return new Buckets(Arrays.copyOf(bx, n), Arrays.copyOf(mean, n), Arrays.copyOf(min, n), Arrays.copyOf(max, n));
    }

    private static int index(double x, double lo, double width, int buckets) {
        return Math.min(buckets - 1, (int) ((x - lo) / width));
    }
}
