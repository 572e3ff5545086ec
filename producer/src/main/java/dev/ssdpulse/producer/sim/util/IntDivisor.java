package dev.ssdpulse.producer.sim.util;

/**
 * Exact division of non-negative ints by a fixed divisor with a multiply and a shift (Granlund and
 * Montgomery's method): for n < 2^31 and k = 31 + ceil(log2 d), m = ceil(2^k / d) gives
 * floor(n * m / 2^k) = floor(n / d), and n * m < 2^63 fits a long. Why: an int division costs 20-40 cycles;
 * the simulator divides per mapping update (map-cache segment) and per page (plane of a block).
 */
public final class IntDivisor {
    private final long multiplier;
    private final int shift;

    public IntDivisor(int divisor) {
        if (divisor < 1) {
            throw new IllegalArgumentException("divisor must be >= 1, got " + divisor);
        }
        int log2Ceil = 32 - Integer.numberOfLeadingZeros(divisor - 1);
        this.shift = 31 + log2Ceil;
        this.multiplier = ((1L << shift) + divisor - 1) / divisor;
    }

    /** @param n >= 0 */
    public int divide(int n) {
        return (int) ((n * multiplier) >>> shift);
    }
}
