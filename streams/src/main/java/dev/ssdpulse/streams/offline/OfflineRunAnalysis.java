package dev.ssdpulse.streams.offline;

import dev.ssdpulse.schemas.avro.PhaseKind;
import dev.ssdpulse.schemas.avro.RunLatency;
import dev.ssdpulse.schemas.avro.RunStatus;
import dev.ssdpulse.schemas.avro.RunSummary;
import dev.ssdpulse.schemas.avro.SmartSample;
import dev.ssdpulse.schemas.avro.SteadyStateVerdict;
import dev.ssdpulse.schemas.avro.WindowMetrics;
import dev.ssdpulse.schemas.avro.WriteAmplification;
import dev.ssdpulse.streams.analysis.AnalysisOutput;
import dev.ssdpulse.streams.analysis.AnalysisSettings;
import dev.ssdpulse.streams.analysis.RunAnalysis;
import java.util.ArrayList;
import java.util.List;

/**
 * The offline adapter of {@link RunAnalysis}: a producer in the same JVM (the simulator's {@code --offline}
 * mode, the fio importer, an offline device run) feeds it directly, and the outputs are collected in memory
 * instead of going to Kafka. The same settings and events give the same results as the Streams topology.
 * Not thread-safe: one instance per run.
 */
public final class OfflineRunAnalysis {
    private final RunAnalysis analysis;
    private final boolean keepWindows;
    private final List<WindowMetrics> windows = new ArrayList<>();
    private final List<SteadyStateVerdict> verdicts = new ArrayList<>();
    private final List<WriteAmplification> writeAmplification = new ArrayList<>();
    private RunSummary summary;

    /**
     * @param keepWindows keep every closed window for {@link #windows()} (a series export; ~1 KB per window and
     *                    direction with its histogram). The WA series is always kept: per-phase WA needs it.
     */
    public OfflineRunAnalysis(String runId, AnalysisSettings settings, boolean keepWindows) {
        this.keepWindows = keepWindows;
        this.analysis = new RunAnalysis(runId, settings, new Collector());
    }

    public String runId() {
        return analysis.runId();
    }

    public void phaseStarted(int phaseIndex, String name, PhaseKind kind, long timeNs) {
        analysis.phaseChanged(phaseIndex, name, kind, timeNs);
    }

    /** One completed I/O; {@code op} is the IoOp ordinal. */
    public void io(int op, int phaseIndex, long submitTimeNs, long latencyNs, long sizeBytes, int status) {
        analysis.io(op, phaseIndex, submitTimeNs + latencyNs, sizeBytes, latencyNs, status);
    }

    public void smart(SmartSample sample) {
        analysis.smart(sample);
    }

    /** Closes every window and returns the run's summary. */
    public RunSummary finish(RunStatus status, String reason, long durationNs, long ioCountExpected,
                             long ioNotPublished) {
        analysis.finish(status, reason, durationNs, ioCountExpected, ioNotPublished);
        return summary;
    }

    /** Closed windows in order (only with keepWindows). */
    public List<WindowMetrics> windows() {
        return windows;
    }

    /** Every verdict change, in order. */
    public List<SteadyStateVerdict> verdicts() {
        return verdicts;
    }

    public List<WriteAmplification> writeAmplification() {
        return writeAmplification;
    }

    /** The latest summary, null before {@link #finish}. */
    public RunSummary summary() {
        return summary;
    }

    private final class Collector implements AnalysisOutput {
        @Override
        public void window(WindowMetrics window) {
            if (keepWindows) {
                windows.add(window);
            }
        }

        @Override
        public void latency(RunLatency latency) {
            // the summary carries the final latency of the run and of each phase
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
        public void summary(RunSummary runSummary) {
            summary = runSummary;
        }

        @Override
        public List<WriteAmplification> writeAmplificationSeries(String runId) {
            return writeAmplification;
        }
    }
}
