package dev.ssdpulse.streams.report;

import dev.ssdpulse.schemas.avro.LatencyPercentiles;
import dev.ssdpulse.schemas.avro.LatencyStats;
import java.util.List;
import java.util.function.ToLongFunction;

/**
 * The latency statistics ssdpulse reports, defined once: the summary JSON (ns), the API's window points (ms), the
 * CSV and text columns (µs) and the HTML report pick from these and only choose the unit and the spelling of the
 * key. Percentiles are the histogram's (HdrHistogram, 3 significant digits: within 0.1 % of the exact value);
 * mean, min and max are exact.
 */
public enum LatencyStatistic {
    MEAN("mean", "mean", null),
    MIN("min", "min", LatencyStats::getMinNs),
    P50("p50", "p50", s -> p(s).getP50Ns()),
    P90("p90", "p90", s -> p(s).getP90Ns()),
    P99("p99", "p99", s -> p(s).getP99Ns()),
    P99_9("p99.9", "p99_9", s -> p(s).getP999Ns()),
    P99_99("p99.99", "p99_99", s -> p(s).getP9999Ns()),
    P99_999("p99.999", "p99_999", s -> p(s).getP99999Ns()),
    P99_9999("p99.9999", "p99_9999", s -> p(s).getP999999Ns()),
    MAX("max", "max", LatencyStats::getMaxNs);

    /** What a run's summary reports: every statistic. */
    public static final List<LatencyStatistic> SUMMARY = List.of(values());
    /** What a window reports (a second of I/Os has no meaningful 99.99th percentile): up to the 99.9th. */
    public static final List<LatencyStatistic> WINDOW = List.of(MEAN, MIN, P50, P90, P99, P99_9, MAX);

    private final String jsonKey;
    private final String columnKey;
    private final ToLongFunction<LatencyStats> nanos;

    LatencyStatistic(String jsonKey, String columnKey, ToLongFunction<LatencyStats> nanos) {
        this.jsonKey = jsonKey;
        this.columnKey = columnKey;
        this.nanos = nanos;
    }

    /** The key in JSON objects ("p99.9"). */
    public String jsonKey() {
        return jsonKey;
    }

    /** The column name in tables, with the unit suffix ("latency_p99_9_us"). */
    public String columnName(String unitSuffix) {
        return "latency_" + columnKey + "_" + unitSuffix;
    }

    /** The value in ns; the mean of no I/Os is 0 (as min and max are). */
    public double valueNs(LatencyStats s) {
        if (this == MEAN) {
            return s.getCount() == 0 ? 0.0 : s.getSumNs() / (double) s.getCount();
        }
        return nanos.applyAsLong(s);
    }

    /** As {@link #valueNs}, but null where the statistic has no value (the mean of no I/Os). */
    public Double valueNsOrNull(LatencyStats s) {
        return this == MEAN && s.getCount() == 0 ? null : valueNs(s);
    }

    private static LatencyPercentiles p(LatencyStats s) {
        return s.getPercentiles();
    }
}
