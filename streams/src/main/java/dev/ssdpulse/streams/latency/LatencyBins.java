package dev.ssdpulse.streams.latency;

import java.math.BigDecimal;
import java.util.Arrays;
import java.util.Locale;

/**
 * Fixed latency bins given by exclusive upper bounds in ns: bin 0 holds [0, edge0), bin i holds
 * [edge(i-1), edge(i)), and the last bin (index = number of edges) is open-ended. The default is IOMeter's
 * 21 edges, so "how many I/Os took 10 ms or more" is the exact sum of the bins from the 10 ms edge on.
 * Immutable and thread-safe.
 */
public final class LatencyBins {
    private static final long US = 1_000L;
    private static final long MS = 1_000_000L;
    private static final long S = 1_000_000_000L;

    /** IOMeter's edges: 50/100/200/500 us, 1/2/5/10/15/20/30/50/100/200/500 ms, 1/2/4.7/5/10 s. */
    private static final long[] IOMETER_EDGES_NS = {
        50 * US,
        100 * US,
        200 * US,
        500 * US,
        1 * MS,
        2 * MS,
        5 * MS,
        10 * MS,
        15 * MS,
        20 * MS,
        30 * MS,
        50 * MS,
        100 * MS,
        200 * MS,
        500 * MS,
        1 * S,
        2 * S,
        4_700 * MS,
        5 * S,
        10 * S
    };

    private static final LatencyBins IOMETER = new LatencyBins(IOMETER_EDGES_NS.clone());

    private final long[] upperBoundsNs;

    private LatencyBins(long[] upperBoundsNs) {
        this.upperBoundsNs = upperBoundsNs;
    }

    /** IOMeter's bins: 21 edges, 22 bins. */
    public static LatencyBins iometer() {
        return IOMETER;
    }

    /**
     * Custom bins from exclusive upper bounds in ns.
     *
     * @throws IllegalArgumentException when empty, not positive or not strictly increasing
     */
    public static LatencyBins of(long... upperBoundsNs) {
        if (upperBoundsNs == null || upperBoundsNs.length == 0) {
            throw new IllegalArgumentException("latency bins: at least one upper bound is required");
        }
        long[] edges = upperBoundsNs.clone();
        for (int i = 0; i < edges.length; i++) {
            if (edges[i] <= 0) {
                throw new IllegalArgumentException(
                        "latency bins: upper bound #" + (i + 1) + " = " + edges[i] + " ns is not positive");
            }
            if (i > 0 && edges[i] <= edges[i - 1]) {
                throw new IllegalArgumentException("latency bins: upper bound #" + (i + 1) + " = " + edges[i]
                        + " ns is not greater than the previous one (" + edges[i - 1]
                        + " ns); bounds must be strictly increasing");
            }
        }
        return Arrays.equals(edges, IOMETER_EDGES_NS) ? IOMETER : new LatencyBins(edges);
    }

    /**
     * Parses a comma-separated list such as {@code "50us,100us,1ms,4.7s"}. Units: ns, us (or µs), ms, s;
     * decimals allowed as long as the result is a whole number of ns.
     */
    public static LatencyBins parse(String text) {
        if (text == null || text.isBlank()) {
            throw new IllegalArgumentException("latency bins: empty list; expected e.g. '50us,100us,1ms,4.7s'");
        }
        String[] parts = text.split(",");
        long[] edges = new long[parts.length];
        for (int i = 0; i < parts.length; i++) {
            edges[i] = parseDurationNs(parts[i].trim(), i + 1);
        }
        return of(edges);
    }

    private static long parseDurationNs(String token, int position) {
        String lower = token.toLowerCase(Locale.ROOT);
        long unitNs;
        String number;
        if (lower.endsWith("ns")) {
            unitNs = 1;
            number = lower.substring(0, lower.length() - 2);
        } else if (lower.endsWith("us") || lower.endsWith("µs")) {
            unitNs = US;
            number = lower.substring(0, lower.length() - 2);
        } else if (lower.endsWith("ms")) {
            unitNs = MS;
            number = lower.substring(0, lower.length() - 2);
        } else if (lower.endsWith("s")) {
            unitNs = S;
            number = lower.substring(0, lower.length() - 1);
        } else {
            throw new IllegalArgumentException("latency bins: item #" + position + " '" + token
                    + "' has no unit; use ns, us, ms or s (e.g. '500us')");
        }
        try {
            BigDecimal ns = new BigDecimal(number.trim()).multiply(BigDecimal.valueOf(unitNs));
            return ns.longValueExact();
        } catch (NumberFormatException | ArithmeticException e) {
            throw new IllegalArgumentException(
                    "latency bins: item #" + position + " '" + token + "' is not a whole number of ns", e);
        }
    }

    /** Number of bins = number of edges + 1. */
    public int binCount() {
        return upperBoundsNs.length + 1;
    }

    public int edgeCount() {
        return upperBoundsNs.length;
    }

    public long upperBoundNs(int edgeIndex) {
        return upperBoundsNs[edgeIndex];
    }

    public long[] upperBoundsNs() {
        return upperBoundsNs.clone();
    }

    public boolean isIometer() {
        return this == IOMETER;
    }

    /** Bin of a latency: the number of edges <= latencyNs (binary search, ~5 compares for 21 edges). */
    public int binIndex(long latencyNs) {
        int low = 0;
        int high = upperBoundsNs.length;
        while (low < high) {
            int mid = (low + high) >>> 1;
            if (upperBoundsNs[mid] <= latencyNs) {
                low = mid + 1;
            } else {
                high = mid;
            }
        }
        return low;
    }

    /** Text form accepted by {@link #parse}, in ns. */
    public String format() {
        StringBuilder sb = new StringBuilder();
        for (int i = 0; i < upperBoundsNs.length; i++) {
            if (i > 0) {
                sb.append(',');
            }
            sb.append(upperBoundsNs[i]).append("ns");
        }
        return sb.toString();
    }

    @Override
    public boolean equals(Object o) {
        return o instanceof LatencyBins && Arrays.equals(upperBoundsNs, ((LatencyBins) o).upperBoundsNs);
    }

    @Override
    public int hashCode() {
        return Arrays.hashCode(upperBoundsNs);
    }

    @Override
    public String toString() {
        return "LatencyBins[" + format() + "]";
    }
}
