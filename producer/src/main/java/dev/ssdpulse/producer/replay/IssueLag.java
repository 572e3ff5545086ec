package dev.ssdpulse.producer.replay;

/**
 * The issue lags of a replay with recorded timing (issue time minus due time, ns): a count of the late ones and a
 * log-linear histogram for percentiles. Lags below 64 ns are exact; above, each power of two is cut into 32
 * buckets, so a percentile is within 1/32 (3.2 %) of the true value (reported as its bucket's midpoint). Not
 * thread-safe.
 */
public final class IssueLag {
    private static final int SUB_BITS = 5;
    private static final int SUB = 1 << SUB_BITS;
    private static final int EXACT = 64;

    private final long lateThresholdNs;
    private final long[] buckets = new long[EXACT + (63 - 6) * SUB];
    private long count;
    private long late;
    private long maxNs;

    public IssueLag(long lateThresholdNs) {
        this.lateThresholdNs = lateThresholdNs;
    }

    /** @param lagNs how long after its due time an I/O was issued (negative counts as 0: early is on time) */
    public void record(long lagNs) {
        long v = Math.max(0, lagNs);
        buckets[index(v)]++;
        count++;
        if (v > lateThresholdNs) {
            late++;
        }
        maxNs = Math.max(maxNs, v);
    }

    static int index(long v) {
        if (v < EXACT) {
            return (int) v;
        }
        int e = 63 - Long.numberOfLeadingZeros(v); // 6..62
        int sub = (int) ((v >>> (e - SUB_BITS)) & (SUB - 1));
        return EXACT + (e - 6) * SUB + sub;
    }

    /** The midpoint of a bucket (exact below 64 ns). */
    static long valueOf(int index) {
        if (index < EXACT) {
            return index;
        }
        int e = (index - EXACT) / SUB + 6;
        int sub = (index - EXACT) % SUB;
        long width = 1L << (e - SUB_BITS);
        long low = (1L << e) + sub * width;
        return low + width / 2;
    }

    public long count() {
        return count;
    }

    /** I/Os issued more than {@link #lateThresholdNs()} after their due time. */
    public long lateCount() {
        return late;
    }

    public long lateThresholdNs() {
        return lateThresholdNs;
    }

    public long maxNs() {
        return maxNs;
    }

    /** The lag at {@code percentile} (0..100) by nearest rank; 0 without samples. */
    public long percentileNs(double percentile) {
        if (count == 0) {
            return 0;
        }
        long rank = Math.max(1, (long) Math.ceil(percentile / 100.0 * count));
        long seen = 0;
        for (int i = 0; i < buckets.length; i++) {
            seen += buckets[i];
            if (seen >= rank) {
                return Math.min(valueOf(i), maxNs);
            }
        }
        return maxNs;
    }
}
