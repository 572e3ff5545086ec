package dev.ssdpulse.streams.steadystate;

/** Least-squares helpers over equally spaced x = 0, 1, ..., n-1. */
final class LeastSquares {
    private LeastSquares() {}

    /**
     * Sum of (x - mean x) * y, i.e. n x Sxy-like numerator times 1 with x centred, times 2 to stay integral:
     * returns sum over i of (2i - (n-1)) * y_i = 2 x Sum (x_i - x_mean) y_i. Exact for integer-valued y
     * below 2^52 / n^2, which lets the SNIA comparisons be made without rounding.
     */
    static double twiceCentredSxy(double[] y) {
        int n = y.length;
        double sum = 0;
        for (int i = 0; i < n; i++) {
            sum += (2.0 * i - (n - 1)) * y[i];
        }
        return sum;
    }

    /** Sum of (x - mean x)^2 = n (n^2 - 1) / 12. */
    static double sxx(int n) {
        return n * ((double) n * n - 1) / 12.0;
    }

    static double slope(double[] y) {
        return twiceCentredSxy(y) / (2.0 * sxx(y.length));
    }
}
