package dev.ssdpulse.producer.workload;

/**
 * Distribution of random offsets over the alignment-sized slots of the span. ZIPF: slot rank k has
 * probability proportional to 1/k^theta (theta &gt; 0, fio's {@code random_distribution=zipf:theta}); ranks
 * are spread over the span by a fixed permutation so the hot set is not just the span's beginning.
 */
public record Distribution(Kind kind, double theta) {
    public enum Kind {
        UNIFORM,
        ZIPF
    }

    public static Distribution uniform() {
        return new Distribution(Kind.UNIFORM, 0);
    }

    public static Distribution zipf(double theta) {
        return new Distribution(Kind.ZIPF, theta);
    }
}
