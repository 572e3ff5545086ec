package dev.ssdpulse.producer.workload;

import java.util.SplittableRandom;

/**
 * Zipf distribution over ranks 1..n with exponent theta &gt; 0 (P(k) proportional to k^-theta), sampled by
 * rejection-inversion (W. Hörmann, G. Derflinger, "Rejection-inversion to generate variates from monotone
 * discrete distributions", ACM TOMACS 6(3), 1996). O(1) expected time (fewer than ~1.1 tries on average
 * for any theta), no tables, no allocation per sample, so n can be the 2^30+ slots of a large span.
 * Doubles limit exactness for n beyond 2^53, far above any span in slots.
 */
final class ZipfSampler {
    private final long n;
    private final double theta;
    private final double hIntegralX1;
    private final double hIntegralN;
    private final double s;

    ZipfSampler(long n, double theta) {
        if (n < 1 || !(theta > 0)) {
            throw new IllegalArgumentException("zipf needs n >= 1 and theta > 0, got n=" + n + " theta=" + theta);
        }
        this.n = n;
        this.theta = theta;
        this.hIntegralX1 = hIntegral(1.5) - 1.0;
        this.hIntegralN = hIntegral(n + 0.5);
        this.s = 2.0 - hIntegralInverse(hIntegral(2.5) - h(2.0));
    }

    /** A rank in 1..n; rank 1 is the most frequent. */
    long sample(SplittableRandom random) {
        while (true) {
            double u = hIntegralN + random.nextDouble() * (hIntegralX1 - hIntegralN);
            double x = hIntegralInverse(u);
            long k = (long) (x + 0.5);
            if (k < 1) {
                k = 1;
            } else if (k > n) {
                k = n;
            }
            if (k - x <= s || u >= hIntegral(k + 0.5) - h(k)) {
                return k;
            }
        }
    }

    private double h(double x) {
        return Math.exp(-theta * Math.log(x));
    }

    /** Integral of h from 1 to x, shifted: (x^(1-theta) - 1) / (1-theta), or log(x) when theta = 1. */
    private double hIntegral(double x) {
        double logX = Math.log(x);
        return helper2((1.0 - theta) * logX) * logX;
    }

    private double hIntegralInverse(double x) {
        double t = x * (1.0 - theta);
        if (t < -1.0) {
            t = -1.0; // rounding guard: the true value is never below -1
        }
        return Math.exp(helper1(t) * x);
    }

    /** log1p(x)/x, continuous at 0. */
    private static double helper1(double x) {
        if (Math.abs(x) > 1e-8) {
            return Math.log1p(x) / x;
        }
        return 1.0 - x * (0.5 - x * (1.0 / 3.0 - 0.25 * x));
    }

    /** expm1(x)/x, continuous at 0. */
    private static double helper2(double x) {
        if (Math.abs(x) > 1e-8) {
            return Math.expm1(x) / x;
        }
        return 1.0 + x * 0.5 * (1.0 + x * (1.0 / 3.0) * (1.0 + 0.25 * x));
    }
}
