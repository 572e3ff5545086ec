package dev.ssdpulse.streams.summary;

import java.util.List;

/**
 * Plain run summary; {@code dev.ssdpulse.streams.avro.AvroMappers} turns it into the Avro RunSummary.
 *
 * @param durationNs the duration the run-level rates use (given, or first submit .. last completion)
 * @param ops        whole-run per-op summaries, by op code, only ops that occurred
 * @param phases     per-phase summaries, by phase index
 */
public record RunSummaryData(
        long durationNs, long ioCount, long errorCount, List<OpSummaryData> ops, List<PhaseSummaryData> phases) {}
