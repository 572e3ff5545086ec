package dev.ssdpulse.streams.analysis;

import dev.ssdpulse.schemas.avro.LatencyScatter;
import dev.ssdpulse.schemas.avro.RunLatency;
import dev.ssdpulse.schemas.avro.RunSummary;
import dev.ssdpulse.schemas.avro.SteadyStateVerdict;
import dev.ssdpulse.schemas.avro.WindowMetrics;
import dev.ssdpulse.schemas.avro.WriteAmplification;
import java.util.ArrayList;
import java.util.List;

/**
 * Keeps the outputs of a {@link RunAnalysis} in memory, in order: the offline path's output, and the tests'.
 * Verdicts, WA intervals (per-phase WA needs them) and summaries are always kept; windows and run-latency records
 * only when asked (~1 KB per window and direction with its histogram), latency scatters only when asked for apart
 * (a 5,000-s run's scatter is ~1.2 M points: tens of MB as Avro objects, which a series export does not need).
 */
public final class CollectingOutput implements AnalysisOutput {
    public final List<WindowMetrics> windows = new ArrayList<>();
    public final List<RunLatency> latencies = new ArrayList<>();
    public final List<LatencyScatter> scatters = new ArrayList<>();
    public final List<SteadyStateVerdict> verdicts = new ArrayList<>();
    public final List<WriteAmplification> writeAmplification = new ArrayList<>();
    public final List<RunSummary> summaries = new ArrayList<>();
    private final boolean keepSeries;
    private final boolean keepScatter;

    /** Keeps everything. */
    public CollectingOutput() {
        this(true, true);
    }

    /** @param keepSeries keep windows and run-latency records too (not the latency scatter) */
    public CollectingOutput(boolean keepSeries) {
        this(keepSeries, false);
    }

    /**
     * @param keepSeries  keep windows and run-latency records too
     * @param keepScatter keep the latency scatters too
     */
    public CollectingOutput(boolean keepSeries, boolean keepScatter) {
        this.keepSeries = keepSeries;
        this.keepScatter = keepScatter;
    }

    @Override
    public void window(WindowMetrics window) {
        if (keepSeries) {
            windows.add(window);
        }
    }

    @Override
    public void latency(RunLatency latency) {
        if (keepSeries) {
            latencies.add(latency);
        }
    }

    @Override
    public void scatter(LatencyScatter scatter) {
        if (keepScatter) {
            scatters.add(scatter);
        }
    }

    @Override
    public void verdict(SteadyStateVerdict verdict, int slot) {
        verdicts.add(verdict);
    }

    @Override
    public void writeAmplification(WriteAmplification interval) {
        writeAmplification.add(interval);
    }

    @Override
    public void summary(RunSummary summary) {
        summaries.add(summary);
    }

    @Override
    public List<WriteAmplification> writeAmplificationSeries(String runId) {
        return writeAmplification;
    }

    /** The latest summary, null before the run finished. */
    public RunSummary lastSummary() {
        return summaries.isEmpty() ? null : summaries.get(summaries.size() - 1);
    }
}
