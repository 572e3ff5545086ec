package dev.ssdpulse.streams.analysis;

import dev.ssdpulse.schemas.avro.RunLatency;
import dev.ssdpulse.schemas.avro.RunSummary;
import dev.ssdpulse.schemas.avro.SteadyStateVerdict;
import dev.ssdpulse.schemas.avro.WindowMetrics;
import dev.ssdpulse.schemas.avro.WriteAmplification;
import java.util.ArrayList;
import java.util.List;

/** Keeps every output of a {@link RunAnalysis}, in order. */
public final class CollectingOutput implements AnalysisOutput {
    public final List<WindowMetrics> windows = new ArrayList<>();
    public final List<RunLatency> latencies = new ArrayList<>();
    public final List<SteadyStateVerdict> verdicts = new ArrayList<>();
    public final List<WriteAmplification> writeAmplification = new ArrayList<>();
    public final List<RunSummary> summaries = new ArrayList<>();

    @Override
    public void window(WindowMetrics window) {
        windows.add(window);
    }

    @Override
    public void latency(RunLatency latency) {
        latencies.add(latency);
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

    public RunSummary lastSummary() {
        return summaries.isEmpty() ? null : summaries.get(summaries.size() - 1);
    }
}
