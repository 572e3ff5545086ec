package dev.ssdpulse.cli.report;

import dev.ssdpulse.cli.command.UserInputException;
import dev.ssdpulse.cli.options.GroupOptions;
import dev.ssdpulse.cli.options.KafkaOptions;
import dev.ssdpulse.cli.run.RunIds;
import dev.ssdpulse.cli.run.SummaryRenderer;
import dev.ssdpulse.schemas.avro.IoOp;
import dev.ssdpulse.schemas.avro.LatencyScatter;
import dev.ssdpulse.schemas.avro.RunStarted;
import dev.ssdpulse.schemas.avro.RunSummary;
import dev.ssdpulse.schemas.avro.WindowMetrics;
import dev.ssdpulse.schemas.avro.WriteAmplification;
import dev.ssdpulse.schemas.registry.HttpSchemaRegistryClient;
import dev.ssdpulse.schemas.topics.RunRecords;
import dev.ssdpulse.schemas.topics.Topics;
import dev.ssdpulse.streams.group.GroupAnalysis;
import dev.ssdpulse.streams.report.Outliers;
import dev.ssdpulse.streams.report.ReportFormat;
import dev.ssdpulse.streams.report.ReportTables;
import dev.ssdpulse.streams.report.chart.Palette;
import dev.ssdpulse.streams.report.chart.ScatterRaster;
import dev.ssdpulse.streams.report.html.HtmlReport;
import java.io.IOException;
import java.io.PrintWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.EnumMap;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

/**
 * {@code ssdpulse report --run ID}: a finished (or aborted) run's summary from the run-summary topic — the
 * percentile table, exact bin counts and outliers, WA, steady-state verdicts — as text, JSON or CSV, and PNG
 * charts of the main plots from the per-window metrics. With {@code --html FILE}: one self-contained HTML
 * report of a run or a set of runs (by ids and labels): for a set, a comparison first, then each run with its
 * test setup and its power-loss verification where it has one ({@link HtmlReport}); with {@code --group NAME}, a
 * run group's merged results and its members, then each member's run. A run's latency scatter is drawn window by
 * window as it is read, so a 5,000-s run's millions of points are never all in memory.
 */
@Command(
        name = "report",
        description = "Print a run's summary (text, JSON or CSV), draw its charts as PNG, or write"
                + " an HTML report of a run or a set of runs (a comparison first, then each run).")
public final class ReportCommand implements Callable<Integer> {

    @Spec
    CommandSpec spec;

    @Option(names = "--run", paramLabel = "ID", description = "A run; repeatable with --html.")
    List<String> runIds = new ArrayList<>();

    @Option(
            names = "--label",
            paramLabel = "KEY=VALUE",
            description = "With --html: also every run whose labels include all of these (repeatable).")
    Map<String, String> labels = new LinkedHashMap<>();

    @Option(
            names = "--group",
            paramLabel = "NAME",
            description = "With --html: a run group (--group NAME on the producers), its members' results merged and"
                    + " each member with its host, status and share, then each member's run (repeatable).")
    List<String> groups = new ArrayList<>();

    @Option(
            names = "--html",
            paramLabel = "FILE",
            description = "Write one self-contained HTML report of the runs (no network needed to view it): for"
                    + " several runs their headline figures side by side, IOPS, MB/s, p99 latency and WA over time"
                    + " with a line per run, average against minimum; then each run with its test setup.")
    Path htmlFile;

    @Option(
            names = "--format",
            defaultValue = "text",
            paramLabel = "text|json|csv",
            description = "Output format (default: ${DEFAULT-VALUE}).")
    String format;

    @Option(
            names = "--png",
            paramLabel = "DIR",
            description = "Also write iops.png, mbps.png, latency.png, scatter.png, bins.png, wa.png here.")
    Path pngDir;

    @Option(
            names = "--timeout",
            defaultValue = "60s",
            paramLabel = "DURATION",
            description = "Give up reading after this long.")
    Duration timeout;

    @Mixin
    KafkaOptions kafka;

    @Override
    public Integer call() throws Exception {
        runIds.forEach(RunIds::validate);
        if (!List.of("text", "json", "csv").contains(format)) {
            throw new UserInputException("--format must be text, json or csv, got '" + format + "'");
        }
        if (htmlFile != null) {
            return html();
        }
        if (!groups.isEmpty()) {
            throw new UserInputException("--group needs --html FILE (a group's report shows its members too)");
        }
        if (runIds.size() != 1 || !labels.isEmpty()) {
            throw new UserInputException("give exactly one --run (a set of runs, or --label, needs --html FILE)");
        }
        String runId = runIds.get(0);
        Map<String, Object> props = kafka.clientProperties();
        try (HttpSchemaRegistryClient registry = kafka.registryClient()) {
            List<RunStarted> started = RunRecords.read(props, registry, Topics.RUNS, runId, timeout);
            RunSummary summary = summary(props, registry, runId, !started.isEmpty());
            SummaryRenderer.Context context = started.isEmpty()
                    ? null
                    : new SummaryRenderer.Context(
                            started.get(0).getDevice().getModel().toString(),
                            started.get(0).getWorkload().getName().toString());
            PrintWriter out = spec.commandLine().getOut();
            switch (format) {
                case "json" -> out.println(SummaryRenderer.json(summary, context));
                case "csv" -> out.print(ReportTables.SUMMARY.csv(ReportTables.summaryRows(summary)));
                default -> SummaryRenderer.text(summary, context, out);
            }
            out.flush();
            if (pngDir != null) {
                Files.createDirectories(pngDir);
                List<WindowMetrics> windows = RunRecords.read(props, registry, Topics.METRICS_1S, runId, timeout);
                List<WriteAmplification> wa = RunRecords.read(props, registry, Topics.WAF, runId, timeout);
                List<Path> written = charts(summary, windows, wa);
                Path scatter = scatterChart(props, registry, summary);
                if (scatter != null) {
                    written.add(scatter);
                }
                written.forEach(p -> spec.commandLine().getErr().println("wrote " + p));
                spec.commandLine().getErr().flush();
            }
        }
        return 0;
    }

    /** The run's latest summary; a clear error when there is none yet. */
    private RunSummary summary(
            Map<String, Object> props, HttpSchemaRegistryClient registry, String runId, boolean started) {
        List<RunSummary> summaries = RunRecords.read(props, registry, Topics.RUN_SUMMARY, runId, timeout);
        if (summaries.isEmpty()) {
            throw new UserInputException(
                    !started
                            ? "no run '" + runId + "' in " + Topics.RUNS.name()
                            : "run '" + runId + "' has no summary yet in " + Topics.RUN_SUMMARY.name()
                                    + " (still running, or the analytics (`ssdpulse streams`) are not running)");
        }
        return summaries.get(summaries.size() - 1);
    }

    private int html() throws IOException {
        if (runIds.isEmpty() && labels.isEmpty() && groups.isEmpty()) {
            throw new UserInputException(
                    "--html needs the runs: --run ID (repeatable), --label KEY=VALUE and/or --group NAME");
        }
        for (String group : groups) {
            GroupOptions.checkName(group);
        }
        Map<String, Object> props = kafka.clientProperties();
        List<HtmlReport.RunData> runs = new ArrayList<>();
        try (HttpSchemaRegistryClient registry = kafka.registryClient()) {
            Map<String, RunStarted> catalogue = RunRecords.latestPerRun(props, registry, Topics.RUNS, timeout);
            Set<String> chosen = new LinkedHashSet<>();
            // a group first, then its members in the order they joined
            Map<String, RunSummary> groupSummaries = new LinkedHashMap<>();
            for (String group : groups) {
                String key = GroupAnalysis.ID_PREFIX + group;
                List<RunSummary> summaries = RunRecords.read(props, registry, Topics.RUN_SUMMARY, key, timeout);
                if (summaries.isEmpty()) {
                    throw new UserInputException("no run group '" + group + "' in " + Topics.RUN_SUMMARY.name()
                            + " (no member published with --group " + group
                            + ", or the analytics (`ssdpulse streams`) are not running)");
                }
                RunSummary summary = summaries.get(summaries.size() - 1);
                groupSummaries.put(key, summary);
                chosen.add(key);
                if (summary.getGroup() != null) {
                    summary.getGroup()
                            .getMembers()
                            .forEach(m -> chosen.add(m.getRunId().toString()));
                }
            }
            chosen.addAll(runIds);
            if (!labels.isEmpty()) {
                int before = chosen.size();
                catalogue.forEach((id, started) -> {
                    if (started.getLabels().entrySet().containsAll(labels.entrySet())) {
                        chosen.add(id);
                    }
                });
                if (chosen.size() == before) {
                    throw new UserInputException("no run in " + Topics.RUNS.name() + " has the labels " + labels);
                }
            }
            int done = 0;
            for (String id : chosen) {
                // a 5,000-s run's records take a while to read: say which run is being read
                spec.commandLine().getErr().println("reading run " + id + " (" + ++done + " of " + chosen.size() + ")");
                spec.commandLine().getErr().flush();
                RunSummary summary = groupSummaries.containsKey(id)
                        ? groupSummaries.get(id)
                        : summary(props, registry, id, catalogue.containsKey(id));
                // drawn window by window as read: a 5,000-s run keeps millions of points
                ScatterRaster scatter = HtmlReport.scatterRaster(summary);
                RunRecords.forEach(props, registry, Topics.LATENCY_SCATTER, id, timeout, (LatencyScatter w) -> {
                    scatter.add(w);
                    return true;
                });
                runs.add(new HtmlReport.RunData(
                        catalogue.get(id),
                        summary,
                        RunRecords.read(props, registry, Topics.METRICS_1S, id, timeout),
                        RunRecords.read(props, registry, Topics.WAF, id, timeout),
                        scatter.finish(),
                        latest(RunRecords.read(props, registry, Topics.WRITE_VERIFICATION, id, timeout))));
            }
        }
        String title = runs.size() == 1
                ? "ssdpulse report: run " + runs.get(0).summary().getRunId()
                : "ssdpulse report: " + runs.size() + " runs"
                        + (groups.isEmpty() ? "" : " of run group " + String.join(", ", groups))
                        + (labels.isEmpty() ? "" : " labelled " + labels);
        Path parent = htmlFile.toAbsolutePath().getParent();
        if (parent != null) {
            Files.createDirectories(parent);
        }
        Files.writeString(htmlFile, HtmlReport.render(title, runs));
        spec.commandLine()
                .getErr()
                .println("wrote " + htmlFile + " (" + runs.size() + (runs.size() == 1 ? " run, " : " runs, ")
                        + ReportFormat.grouped(Files.size(htmlFile) / 1e6, 1) + " MB)");
        spec.commandLine().getErr().flush();
        return 0;
    }

    /** The last of a run's records (the latest verification of a target verified again), null without one. */
    private static <T> T latest(List<T> records) {
        return records.isEmpty() ? null : records.get(records.size() - 1);
    }

    /**
     * The run's scatter: every kept point (all I/Os at or above the threshold, the sample of the rest), drawn window
     * by window as read.
     *
     * @return null when the run has no scatter stored
     */
    private Path scatterChart(Map<String, Object> props, HttpSchemaRegistryClient registry, RunSummary summary)
            throws IOException {
        PngCharts.ScatterAxes axes = PngCharts.scatterAxes(summary);
        ScatterRaster raster = axes.raster();
        RunRecords.forEach(
                props, registry, Topics.LATENCY_SCATTER, summary.getRunId().toString(), timeout, (LatencyScatter w) -> {
                    raster.add(w);
                    return true;
                });
        ScatterRaster.Picture picture = raster.finish();
        if (picture.thresholdNs() < 0) {
            return null;
        }
        String title = String.format(
                Locale.ROOT,
                "run %s: latency scatter, %,d of %,d I/Os (all %,d >= %s)",
                summary.getRunId(),
                picture.pointsDrawn(),
                picture.ioCount(),
                picture.atOrAboveThreshold(),
                Outliers.label(picture.thresholdNs()));
        return write(
                "scatter.png", p -> PngCharts.scatterChart(p, title, axes, raster, picture, phaseMarkers(summary)));
    }

    private List<Path> charts(RunSummary summary, List<WindowMetrics> windows, List<WriteAmplification> wa)
            throws IOException {
        List<PngCharts.Marker> phases = phaseMarkers(summary);
        Map<IoOp, List<WindowMetrics>> byOp = new EnumMap<>(IoOp.class);
        for (WindowMetrics w : windows) {
            byOp.computeIfAbsent(w.getOp(), k -> new ArrayList<>()).add(w);
        }
        List<PngCharts.Series> iops = new ArrayList<>();
        List<PngCharts.Series> mbps = new ArrayList<>();
        List<PngCharts.Series> latency = new ArrayList<>();
        for (var e : byOp.entrySet()) {
            List<WindowMetrics> ws = e.getValue();
            double[] t =
                    ws.stream().mapToDouble(w -> w.getWindowStartNs() / 1e9).toArray();
            String opColor = Palette.op(e.getKey().name());
            iops.add(new PngCharts.Series(
                    e.getKey().name(),
                    t,
                    ws.stream().mapToDouble(WindowMetrics::getIops).toArray(),
                    opColor));
            mbps.add(new PngCharts.Series(
                    e.getKey().name(),
                    t,
                    ws.stream().mapToDouble(WindowMetrics::getMbPerSec).toArray(),
                    opColor));
            latency.add(new PngCharts.Series(
                    e.getKey() + " max",
                    t,
                    ws.stream()
                            .mapToDouble(w -> w.getLatency().getMaxNs() / 1e6)
                            .toArray(),
                    Palette.LATENCY_MAX));
            latency.add(new PngCharts.Series(
                    e.getKey() + " p99",
                    t,
                    ws.stream()
                            .mapToDouble(w -> w.getLatency().getPercentiles().getP99Ns() / 1e6)
                            .toArray(),
                    Palette.LATENCY_P99));
            latency.add(new PngCharts.Series(
                    e.getKey() + " p50",
                    t,
                    ws.stream()
                            .mapToDouble(w -> w.getLatency().getPercentiles().getP50Ns() / 1e6)
                            .toArray(),
                    Palette.LATENCY_P50));
        }
        List<Path> written = new ArrayList<>();
        String title = "run " + summary.getRunId();
        written.add(write(
                "iops.png",
                p -> PngCharts.lineChart(
                        p, title + ": IOPS per 1-s window", "run time (s)", "IOPS", iops, phases, false)));
        written.add(write(
                "mbps.png",
                p -> PngCharts.lineChart(p, title + ": MB/s per window", "run time (s)", "MB/s", mbps, phases, false)));
        written.add(write(
                "latency.png",
                p -> PngCharts.lineChart(
                        p,
                        title + ": latency trend (per-window max, p99, p50)",
                        "run time (s)",
                        "latency (ms, log)",
                        latency,
                        phases,
                        true)));
        if (!summary.getOps().isEmpty()) {
            Outliers.Distribution bins = Outliers.distribution(summary.getOps(), ">=");
            written.add(write(
                    "bins.png",
                    p -> PngCharts.barChart(
                            p,
                            title + ": latency distribution, all ops (red: >= 10 ms)",
                            "I/Os (log)",
                            bins.labels(),
                            bins.counts(),
                            bins.outlierBins())));
        }
        if (!wa.isEmpty()) {
            double[] t = wa.stream().mapToDouble(w -> w.getToTimeNs() / 1e9).toArray();
            List<PngCharts.Series> series = List.of(
                    // WA is null where the interval had no host writes: plotted as a gap (NaN), not as WA 0
                    new PngCharts.Series(
                            "WA per interval",
                            t,
                            wa.stream().mapToDouble(w -> orNaN(w.getWaWindow())).toArray(),
                            Palette.WA_INTERVAL),
                    new PngCharts.Series(
                            "WA cumulative",
                            t,
                            wa.stream()
                                    .mapToDouble(w -> orNaN(w.getWaCumulative()))
                                    .toArray(),
                            Palette.WA_CUMULATIVE));
            written.add(write(
                    "wa.png",
                    p -> PngCharts.lineChart(
                            p,
                            title + ": write amplification (NAND / host bytes)",
                            "run time (s)",
                            "WA",
                            series,
                            phases,
                            false)));
        }
        return written;
    }

    private static List<PngCharts.Marker> phaseMarkers(RunSummary summary) {
        return summary.getPhases().stream()
                .map(p -> new PngCharts.Marker(p.getStartNs() / 1e9, p.getName()))
                .toList();
    }

    private interface ChartWriter {
        void write(Path file) throws IOException;
    }

    private Path write(String name, ChartWriter writer) throws IOException {
        Path file = pngDir.resolve(name);
        writer.write(file);
        return file;
    }

    private static double orNaN(Double value) {
        return value == null ? Double.NaN : value;
    }
}
