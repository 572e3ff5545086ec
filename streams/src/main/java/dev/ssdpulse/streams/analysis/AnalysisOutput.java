package dev.ssdpulse.streams.analysis;

import dev.ssdpulse.schemas.avro.LatencyScatter;
import dev.ssdpulse.schemas.avro.RunLatency;
import dev.ssdpulse.schemas.avro.RunSummary;
import dev.ssdpulse.schemas.avro.SteadyStateVerdict;
import dev.ssdpulse.schemas.avro.WindowMetrics;
import dev.ssdpulse.schemas.avro.WriteAmplification;
import java.util.List;

/**
 * Where a {@link RunAnalysis} sends its results: the Streams processor forwards them to output topics and
 * stores, the offline path collects them. Each method receives every result of its kind once, in the order
 * the analysis produced it.
 */
public interface AnalysisOutput {
    void window(WindowMetrics window);

    void latency(RunLatency latency);

    /** A closed window's latency scatter (every I/O at or above the threshold, a uniform sample of the rest). */
    void scatter(LatencyScatter scatter);

    /**
     * A changed steady-state verdict; {@code slot} tells the criterion apart (0 SNIA PTS, 1 + i the i-th fio
     * criterion) for a keyed store.
     */
    void verdict(SteadyStateVerdict verdict, int slot);

    void writeAmplification(WriteAmplification interval);

    /** The run summary; emitted again when a SMART sample arrives after the run finished. */
    void summary(RunSummary summary);

    /**
     * Every WA interval emitted so far for the run, in time order. Per-phase WA is computed from them at
     * summary time, so it does not depend on how SMART samples and phase changes interleave (two topics in
     * Kafka, one call sequence offline).
     */
    List<WriteAmplification> writeAmplificationSeries(String runId);
}
