package dev.ssdpulse.streams.summary;

import dev.ssdpulse.streams.latency.LatencyAccumulator;

/**
 * Summary of one op over a span.
 *
 * @param iops     ioCount / span seconds (0 when the span is 0)
 * @param mbPerSec bytes / 1e6 / span seconds
 */
public record OpSummaryData(
        int op,
        long ioCount,
        long bytes,
        long errorCount,
        double iops,
        double mbPerSec,
        long firstSubmitNs,
        long lastCompletionNs,
        LatencyAccumulator latency) {}
