package dev.ssdpulse.streams.summary;

import java.util.List;

/**
 * Summary of one phase: span from its first I/O submit to its last completion; op rates over that span.
 */
public record PhaseSummaryData(int phaseIndex, long startNs, long endNs, List<OpSummaryData> ops) {}
