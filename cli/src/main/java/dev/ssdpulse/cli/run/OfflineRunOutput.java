package dev.ssdpulse.cli.run;

import dev.ssdpulse.producer.replay.ReplayResult;
import dev.ssdpulse.producer.workload.ScheduledPhase;
import dev.ssdpulse.schemas.avro.PhaseKind;
import dev.ssdpulse.schemas.avro.RunStatus;
import dev.ssdpulse.schemas.avro.RunSummary;
import dev.ssdpulse.schemas.avro.SmartSample;
import dev.ssdpulse.schemas.avro.WindowMetrics;
import dev.ssdpulse.streams.analysis.AnalysisSettings;
import dev.ssdpulse.streams.offline.OfflineRunAnalysis;
import dev.ssdpulse.streams.report.ReportTables;
import java.io.IOException;
import java.io.PrintWriter;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.atomic.AtomicLong;

/**
 * A run analysed in-process with the analytics accumulators ({@link OfflineRunAnalysis}) and summarised on
 * the command's output as text or JSON; optionally the per-window series as CSV. Thread-safe for
 * completions from several workers (the analysis is not, so completions are serialised).
 */
public final class OfflineRunOutput implements RunOutput {
    private final OfflineRunAnalysis analysis;
    private final String format;
    private final Path seriesCsv;
    private final String device;
    private final String workload;
    private final PrintWriter out;
    private final AtomicLong ios = new AtomicLong();

    public OfflineRunOutput(
            String runId,
            long windowNs,
            long sniaRoundNs,
            String format,
            Path seriesCsv,
            String device,
            String workload,
            PrintWriter out) {
        this.analysis = new OfflineRunAnalysis(
                runId,
                AnalysisSettings.defaults()
                        .withWindow(windowNs, 2 * windowNs)
                        .withSteadyState(sniaRoundNs, AnalysisSettings.DEFAULT_FIO_CRITERIA),
                seriesCsv != null);
        this.format = format;
        this.seriesCsv = seriesCsv;
        this.device = device;
        this.workload = workload;
        this.out = out;
    }

    @Override
    public String runId() {
        return analysis.runId();
    }

    @Override
    public synchronized void onIoCompleted(
            int worker,
            int phaseIndex,
            byte op,
            long offsetBytes,
            int sizeBytes,
            long submitTimeNs,
            long latencyNs,
            int queueDepth,
            int status) {
        ios.incrementAndGet();
        analysis.io(op, phaseIndex, submitTimeNs, latencyNs, sizeBytes, status);
    }

    @Override
    public synchronized void phaseStarted(ScheduledPhase phase, long timeNs) {
        analysis.phaseStarted(
                phase.index(),
                phase.name(),
                PhaseKind.valueOf(phase.phase().kind().name()),
                timeNs);
    }

    @Override
    public synchronized void replayFinished(ReplayResult result) {
        analysis.replayFinished(result.toAvro());
    }

    @Override
    public synchronized void smart(SmartSample sample) {
        analysis.smart(sample);
    }

    @Override
    public synchronized int finish(RunStatus status, String reason, long durationNs) {
        // in-process: every completed I/O reached the analysis, none went unpublished
        RunSummary summary = analysis.finish(status, reason, durationNs, ios.get(), 0);
        SummaryRenderer.Context context = new SummaryRenderer.Context(device, workload);
        if ("json".equals(format)) {
            out.println(SummaryRenderer.json(summary, context));
            out.flush();
        } else {
            SummaryRenderer.text(summary, context, out);
        }
        if (seriesCsv != null) {
            writeSeries();
        }
        return status == RunStatus.COMPLETED ? 0 : status == RunStatus.ABORTED ? 130 : 1;
    }

    private void writeSeries() {
        List<WindowMetrics> windows = analysis.windows();
        String csv =
                ReportTables.windows(windows.isEmpty() ? null : windows.get(0)).csv(windows);
        try {
            Files.writeString(seriesCsv, csv);
        } catch (IOException e) {
            throw new UncheckedIOException("cannot write --series-csv " + seriesCsv + ": " + e.getMessage(), e);
        }
    }
}
