package dev.ssdpulse.streams.window;

import dev.ssdpulse.streams.latency.LatencyAccumulator;

/**
 * The I/Os of one phase inside one window of one op. A window has one part, or several when phases change
 * inside it; the run summary merges parts, so per-phase totals stay exact without a second per-I/O pass.
 *
 * @param firstSubmitNs    min(completion - latency) of the part's I/Os
 * @param lastCompletionNs max completion of the part's I/Os
 */
public record PhasePart(
        int phaseIndex,
        long ioCount,
        long bytes,
        long errorCount,
        long firstSubmitNs,
        long lastCompletionNs,
        LatencyAccumulator latency) {}
