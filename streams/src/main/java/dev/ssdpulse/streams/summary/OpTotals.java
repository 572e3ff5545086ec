package dev.ssdpulse.streams.summary;

import dev.ssdpulse.streams.latency.LatencyAccumulator;
import dev.ssdpulse.streams.latency.LatencyBins;

/**
 * Running totals of one op (in one phase or the whole run). firstSubmitNs = min(completion - latency),
 * lastCompletionNs = max(completion). Not thread-safe.
 */
public final class OpTotals {
    private final int op;
    private final LatencyAccumulator latency;
    private long ioCount;
    private long bytes;
    private long errorCount;
    private long firstSubmitNs = Long.MAX_VALUE;
    private long lastCompletionNs = Long.MIN_VALUE;

    public OpTotals(int op, LatencyBins bins) {
        this.op = op;
        this.latency = new LatencyAccumulator(bins);
    }

    void add(long completionTimeNs, long sizeBytes, long latencyNs, int status) {
        latency.record(latencyNs);
        ioCount++;
        bytes += sizeBytes;
        if (status != 0) {
            errorCount++;
        }
        firstSubmitNs = Math.min(firstSubmitNs, completionTimeNs - latencyNs);
        lastCompletionNs = Math.max(lastCompletionNs, completionTimeNs);
    }

    public int op() {
        return op;
    }

    public long ioCount() {
        return ioCount;
    }

    public long bytes() {
        return bytes;
    }

    public long errorCount() {
        return errorCount;
    }

    /** Earliest submit time (completion - latency); Long.MAX_VALUE when empty. */
    public long firstSubmitNs() {
        return firstSubmitNs;
    }

    /** Latest completion time; Long.MIN_VALUE when empty. */
    public long lastCompletionNs() {
        return lastCompletionNs;
    }

    public LatencyAccumulator latency() {
        return latency;
    }
}
