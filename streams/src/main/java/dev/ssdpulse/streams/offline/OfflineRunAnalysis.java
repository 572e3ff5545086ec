package dev.ssdpulse.streams.offline;

import dev.ssdpulse.schemas.avro.LatencyScatter;
import dev.ssdpulse.schemas.avro.PhaseKind;
import dev.ssdpulse.schemas.avro.ReplayPhaseResult;
import dev.ssdpulse.schemas.avro.RunStatus;
import dev.ssdpulse.schemas.avro.RunSummary;
import dev.ssdpulse.schemas.avro.SmartSample;
import dev.ssdpulse.schemas.avro.SteadyStateVerdict;
import dev.ssdpulse.schemas.avro.WindowMetrics;
import dev.ssdpulse.schemas.avro.WriteAmplification;
import dev.ssdpulse.streams.analysis.AnalysisSettings;
import dev.ssdpulse.streams.analysis.CollectingOutput;
import dev.ssdpulse.streams.analysis.RunAnalysis;
import java.util.List;

/**
 * The offline adapter of {@link RunAnalysis}: a producer in the same JVM (the simulator's {@code --offline}
 * mode, the fio importer, an offline device run) feeds it directly, and the outputs are collected in memory
 * instead of going to Kafka. The same settings and events give the same results as the Streams topology.
 * Not thread-safe: one instance per run.
 */
public final class OfflineRunAnalysis {
    private final RunAnalysis analysis;
    private final CollectingOutput output;

    /**
     * @param keepWindows keep every closed window for {@link #windows()} (a series export; ~1 KB per window and
     *                    direction with its histogram). The WA series is always kept: per-phase WA needs it.
     */
    public OfflineRunAnalysis(String runId, AnalysisSettings settings, boolean keepWindows) {
        this(runId, settings, keepWindows, false);
    }

    /** @param keepScatter keep every closed window's latency scatter for {@link #scatters()} too */
    public OfflineRunAnalysis(String runId, AnalysisSettings settings, boolean keepWindows, boolean keepScatter) {
        this.output = new CollectingOutput(keepWindows, keepScatter);
        this.analysis = new RunAnalysis(runId, settings, output);
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

    /** How the producer issued a REPLAY phase's I/Os (before {@link #finish}, as RunFinished carries them). */
    public void replayFinished(ReplayPhaseResult result) {
        analysis.replayFinished(result);
    }

    /** Closes every window and returns the run's summary. */
    public RunSummary finish(
            RunStatus status, String reason, long durationNs, long ioCountExpected, long ioNotPublished) {
        analysis.finish(status, reason, durationNs, ioCountExpected, ioNotPublished);
        return output.lastSummary();
    }

    /** Closed windows in order (only with keepWindows). */
    public List<WindowMetrics> windows() {
        return output.windows;
    }

    /** Closed windows' latency scatters in order (only with keepScatter). */
    public List<LatencyScatter> scatters() {
        return output.scatters;
    }

    /** Every verdict change, in order. */
    public List<SteadyStateVerdict> verdicts() {
        return output.verdicts;
    }

    public List<WriteAmplification> writeAmplification() {
        return output.writeAmplification;
    }

    /** The latest summary, null before {@link #finish}. */
    public RunSummary summary() {
        return output.lastSummary();
    }
}
