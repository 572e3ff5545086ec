package dev.ssdpulse.cli.options;

import dev.ssdpulse.cli.command.UserInputException;
import dev.ssdpulse.cli.run.OfflineRunOutput;
import java.io.PrintWriter;
import java.nio.file.Path;
import java.time.Duration;
import picocli.CommandLine.Option;

/**
 * In-process analysis instead of Kafka, shared by the producers ({@code simulate}, {@code device},
 * {@code import fio}): the same switch, summary formats, series CSV and analysis settings for each.
 */
public final class OfflineOptions {

    @Option(names = "--offline", description = "Analyse in-process and print the summary; no Kafka needed.")
    public boolean offline;

    @Option(
            names = "--format",
            defaultValue = "text",
            paramLabel = "text|json",
            description = "Summary format with --offline (default: ${DEFAULT-VALUE}).")
    String format;

    @Option(
            names = "--series-csv",
            paramLabel = "FILE",
            description = "With --offline: write the per-window series (time, op, IOPS, MB/s, latency) as CSV.")
    Path seriesCsv;

    @Option(
            names = "--window",
            defaultValue = "1s",
            paramLabel = "DURATION",
            description = "With --offline: window length of the series (default: ${DEFAULT-VALUE}).")
    Duration window;

    @Option(
            names = "--snia-round",
            defaultValue = "60s",
            paramLabel = "DURATION",
            description = "With --offline: SNIA steady-state round length (default: ${DEFAULT-VALUE}).")
    Duration sniaRound;

    /** Refuses a combination that cannot work, before the run starts. */
    public void validate() {
        if (!"text".equals(format) && !"json".equals(format)) {
            throw new UserInputException("--format must be text or json, got '" + format + "'");
        }
        if (!offline && seriesCsv != null) {
            throw new UserInputException("--series-csv needs --offline (a streamed run's series is in Kafka)");
        }
    }

    /** The in-process analysis of run {@code runId}, summarised on {@code out}. */
    public OfflineRunOutput output(String runId, String device, String workload, PrintWriter out) {
        return new OfflineRunOutput(
                runId, window.toNanos(), sniaRound.toNanos(), format, seriesCsv, device, workload, out);
    }
}
