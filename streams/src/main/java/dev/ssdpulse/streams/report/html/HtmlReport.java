package dev.ssdpulse.streams.report.html;

import static dev.ssdpulse.streams.report.Table.escapeHtml;

import dev.ssdpulse.schemas.avro.HostDescription;
import dev.ssdpulse.schemas.avro.IoOp;
import dev.ssdpulse.schemas.avro.LatencyScatter;
import dev.ssdpulse.schemas.avro.OpSummary;
import dev.ssdpulse.schemas.avro.PhaseKind;
import dev.ssdpulse.schemas.avro.PhaseSpec;
import dev.ssdpulse.schemas.avro.PhaseSummary;
import dev.ssdpulse.schemas.avro.RunStarted;
import dev.ssdpulse.schemas.avro.RunSummary;
import dev.ssdpulse.schemas.avro.SteadyStateVerdict;
import dev.ssdpulse.schemas.avro.WindowMetrics;
import dev.ssdpulse.schemas.avro.WriteAmplification;
import dev.ssdpulse.streams.report.Column;
import dev.ssdpulse.streams.report.Outliers;
import dev.ssdpulse.streams.report.ReportTables;
import dev.ssdpulse.streams.report.ReportTables.SummaryRow;
import dev.ssdpulse.streams.report.SummaryJson;
import dev.ssdpulse.streams.report.Table;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.EnumMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Objects;
import java.util.TreeMap;
import java.util.function.Function;

/**
 * One self-contained HTML file (inline CSS and SVG, no script, nothing fetched) reproducing the seed articles'
 * figures from stored results. Per run: IOPS and MB/s over time, the latency scatter (where stored), the latency
 * trend, the latency distribution with its outlier counts and percentiles, the steady-state window table and WA
 * over time. For a set of runs, the comparisons the articles publish: WA and steady MB/s against free flash
 * (seed 000), schedulers across repeated runs with the mean and each run as % of it (seed 002), and queue depths
 * side by side (seed 003). Every table is a column set of the reporting model ({@link Table}), so its numbers
 * are the summary's, as in CSV and JSON.
 */
public final class HtmlReport {
    /**
     * The steady MB/s of a run is the mean over this much of the end of its test phase (seed 000: the last minutes).
     */
    static final long STEADY_TAIL_NS = 300_000_000_000L;

    private static final long GB = 1_000_000_000L;

    private HtmlReport() {}

    /**
     * What the report shows of one run.
     *
     * @param started  the run's RunStarted (null if it was not found: device, workload and set views then lack it)
     * @param summary  the run's summary
     * @param windows  its per-window metrics
     * @param wa       its WA intervals
     * @param scatter  its latency scatter per op (empty: none stored)
     */
    public record RunData(
            RunStarted started,
            RunSummary summary,
            List<WindowMetrics> windows,
            List<WriteAmplification> wa,
            List<Scatter> scatter) {
        public RunData {
            Objects.requireNonNull(summary, "summary");
            windows = List.copyOf(windows);
            wa = List.copyOf(wa);
            scatter = List.copyOf(scatter);
        }

        String runId() {
            return summary.getRunId().toString();
        }
    }

    /**
     * The scatter points of one op: I/O completion time (s since the run's start) and latency (ms); {@code shown}
     * of {@code total} I/Os (all ops), every I/O at or above {@code thresholdNs} among them.
     */
    public record Scatter(String op, double[] timeS, double[] latencyMs, long shown, long total, long thresholdNs) {}

    /**
     * A run's stored scatter windows as points per op for the report: every kept I/O at or above the threshold, and
     * of the uniform sample below it at most {@code maxSampledPoints} in all (every k-th of each window's, the same
     * k for the whole run), so that a 5,000-s run's scatter stays a few MB of SVG; the outliers are never thinned.
     */
    public static List<Scatter> scatter(List<LatencyScatter> windows, int maxSampledPoints) {
        long sampled = 0;
        long total = 0;
        for (LatencyScatter w : windows) {
            for (long latencyNs : w.getLatenciesNs()) {
                sampled += latencyNs < w.getThresholdNs() ? 1 : 0;
            }
            total += w.getIoCount();
        }
        long every = Math.max(1, (sampled + maxSampledPoints - 1) / Math.max(1, maxSampledPoints));
        Map<Integer, List<double[]>> byOp = new TreeMap<>();
        long shown = 0;
        long thresholdNs = windows.isEmpty() ? 0 : windows.get(0).getThresholdNs();
        for (LatencyScatter w : windows) {
            int below = 0;
            for (int i = 0; i < w.getLatenciesNs().size(); i++) {
                long latencyNs = w.getLatenciesNs().get(i);
                if (latencyNs < w.getThresholdNs() && below++ % every != 0) {
                    continue;
                }
                byOp.computeIfAbsent(w.getOps().get(i), k -> new ArrayList<>()).add(new double[] {
                    (w.getWindowStartNs() + w.getCompletionOffsetsNs().get(i)) / 1e9, latencyNs / 1e6
                });
                shown++;
            }
        }
        List<Scatter> out = new ArrayList<>();
        for (var e : byOp.entrySet()) {
            List<double[]> points = e.getValue();
            out.add(new Scatter(
                    IoOp.values()[e.getKey()].name(),
                    points.stream().mapToDouble(p -> p[0]).toArray(),
                    points.stream().mapToDouble(p -> p[1]).toArray(),
                    shown,
                    total,
                    thresholdNs));
        }
        return out;
    }

    public static String render(String title, List<RunData> runs) {
        StringBuilder b = new StringBuilder(1 << 16);
        b.append("<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n<title>")
                .append(escapeHtml(title))
                .append("</title>\n<style>\n")
                .append(CSS)
                .append("</style>\n</head>\n<body>\n");
        b.append("<h1>").append(escapeHtml(title)).append("</h1>\n");
        b.append("<p class=\"note\">ssdpulse report of ")
                .append(runs.size())
                .append(runs.size() == 1 ? " run" : " runs")
                .append(". Times in seconds since each run's start; MB = 10^6 bytes; latencies in µs unless marked;"
                        + " outlier counts and bins are exact, percentiles within 0.1 %.</p>\n");
        if (runs.size() > 1) {
            b.append("<h2 id=\"runs\">Runs</h2>\n").append(RUNS.html(runs));
            freeFlash(b, runs);
            schedulers(b, runs);
            queueDepths(b, runs);
        }
        for (RunData run : runs) {
            run(b, run);
        }
        return b.append("</body>\n</html>\n").toString();
    }

    private static final Table<RunData> RUNS = new Table<>(List.of(
            Column.of("run_id", RunData::runId),
            Column.of("status", r -> r.summary().getStatus().name()),
            Column.of(
                    "device",
                    r -> r.started() == null
                            ? null
                            : r.started().getDevice().getModel().toString()),
            Column.of(
                    "workload",
                    r -> r.started() == null
                            ? null
                            : r.started().getWorkload().getName().toString()),
            Column.of("duration_s", r -> r.summary().getDurationNs() / 1e9, 1),
            Column.of("io_count", r -> r.summary().getIoCount())));

    private static void run(StringBuilder b, RunData run) {
        RunSummary s = run.summary();
        String id = run.runId();
        b.append("<section class=\"run\" id=\"run-")
                .append(escapeHtml(id))
                .append("\">\n<h2>Run ")
                .append(escapeHtml(id))
                .append("</h2>\n<p>")
                .append(s.getStatus().name());
        if (s.getReason() != null) {
            b.append(" (").append(escapeHtml(s.getReason().toString())).append(')');
        }
        b.append(String.format(Locale.ROOT, ", %.1f s, %d I/Os", s.getDurationNs() / 1e9, s.getIoCount()));
        if (run.started() != null) {
            b.append("; device ")
                    .append(escapeHtml(run.started().getDevice().getModel().toString()))
                    .append("; workload ")
                    .append(escapeHtml(run.started().getWorkload().getName().toString()));
        }
        b.append("</p>\n");
        List<SvgChart.Marker> phases = s.getPhases().stream()
                .map(p -> new SvgChart.Marker(p.getStartNs() / 1e9, p.getName().toString()))
                .toList();
        Map<IoOp, List<WindowMetrics>> byOp = new EnumMap<>(IoOp.class);
        for (WindowMetrics w : run.windows()) {
            // the run's last window is cut short by its end: drawn, its few I/Os would look like a collapse
            if (w.getWindowStartNs() + w.getWindowSizeNs() <= s.getDurationNs()) {
                byOp.computeIfAbsent(w.getOp(), k -> new ArrayList<>()).add(w);
            }
        }
        List<SvgChart.Band> steady = steadyBands(s);
        b.append("<h3>IOPS and MB/s over time</h3>\n");
        b.append(SvgChart.lines(
                "IOPS per window",
                "run time (s)",
                "IOPS",
                perOp(byOp, w -> (double) w.getIops()),
                phases,
                steady,
                false));
        b.append(SvgChart.lines(
                "MB/s per window",
                "run time (s)",
                "MB/s",
                perOp(byOp, w -> (double) w.getMbPerSec()),
                phases,
                steady,
                false));
        b.append("<h3>Latency scatter</h3>\n");
        if (run.scatter().isEmpty()) {
            b.append("<p class=\"note\">No latency scatter is stored for this run.</p>\n");
        } else {
            List<SvgChart.Series> points = new ArrayList<>();
            StringBuilder note = new StringBuilder();
            for (Scatter sc : run.scatter()) {
                points.add(new SvgChart.Series(sc.op(), sc.timeS(), sc.latencyMs(), SvgChart.opColor(sc.op())));
            }
            Scatter any = run.scatter().get(0);
            note.append(String.format(
                    Locale.ROOT,
                    "%d of %d I/Os shown: every one at or above %s, and a uniform" + " sample of the others.",
                    any.shown(),
                    any.total(),
                    Outliers.label(any.thresholdNs())));
            b.append(SvgChart.points(
                    "Latency of each I/O shown", "run time (s)", "latency (ms, log)", points, phases, true));
            b.append("<p class=\"note\">")
                    .append(escapeHtml(note.toString().trim()))
                    .append("</p>\n");
        }
        b.append("<h3>Latency trend</h3>\n");
        List<SvgChart.Series> trend = new ArrayList<>();
        for (var e : byOp.entrySet()) {
            trend.addAll(series(
                    e.getKey() + " max", e.getValue(), w -> w.getLatency().getMaxNs() / 1e6));
            trend.addAll(series(
                    e.getKey() + " p99",
                    e.getValue(),
                    w -> w.getLatency().getPercentiles().getP99Ns() / 1e6));
            trend.addAll(series(
                    e.getKey() + " p50",
                    e.getValue(),
                    w -> w.getLatency().getPercentiles().getP50Ns() / 1e6));
        }
        b.append(SvgChart.lines(
                "Per-window max, p99 and p50 latency",
                "run time (s)",
                "latency (ms, log)",
                trend,
                phases,
                List.of(),
                true));
        b.append("<h3>Latency distribution and outliers</h3>\n");
        distribution(b, s);
        List<SummaryRow> runRows = ReportTables.summaryRows(s).stream()
                .filter(r -> r.phaseIndex() == null)
                .toList();
        b.append(ReportTables.OUTLIERS.html(runRows)).append(ReportTables.LATENCY.html(runRows));
        b.append("<h3>Steady state</h3>\n");
        b.append(
                s.getSteadyState().isEmpty()
                        ? "<p class=\"note\">No steady-state verdict.</p>\n"
                        : ReportTables.VERDICTS.html(s.getSteadyState()));
        b.append("<h3>Write amplification</h3>\n");
        if (run.wa().isEmpty()) {
            b.append("<p class=\"note\">No SMART samples: WA unavailable.</p>\n");
        } else {
            double[] t =
                    run.wa().stream().mapToDouble(w -> w.getToTimeNs() / 1e9).toArray();
            // an interval without host writes has no WA: a gap, not 0
            b.append(SvgChart.lines(
                    "WA (NAND / host bytes written)",
                    "run time (s)",
                    "WA",
                    List.of(
                            new SvgChart.Series(
                                    "per interval",
                                    t,
                                    run.wa().stream()
                                            .mapToDouble(w -> orNaN(w.getWaWindow()))
                                            .toArray(),
                                    null),
                            new SvgChart.Series(
                                    "cumulative",
                                    t,
                                    run.wa().stream()
                                            .mapToDouble(w -> orNaN(w.getWaCumulative()))
                                            .toArray(),
                                    null)),
                    phases,
                    List.of(),
                    false));
        }
        b.append(ReportTables.PHASES.html(s.getPhases()));
        b.append("</section>\n");
    }

    private static List<SvgChart.Band> steadyBands(RunSummary s) {
        List<SvgChart.Band> bands = new ArrayList<>();
        for (SteadyStateVerdict v : s.getSteadyState()) {
            if (v.getReached() && v.getWindowEndNs() > v.getWindowStartNs()) {
                bands.add(new SvgChart.Band(
                        v.getWindowStartNs() / 1e9,
                        v.getWindowEndNs() / 1e9,
                        "steady state (" + v.getMethod() + ", " + SummaryJson.opName(v) + ")"));
            }
        }
        return bands;
    }

    private static void distribution(StringBuilder b, RunSummary s) {
        if (s.getOps().isEmpty()) {
            b.append("<p class=\"note\">No I/O.</p>\n");
            return;
        }
        Outliers.Distribution bins = Outliers.distribution(s.getOps(), "≥");
        b.append(SvgChart.bars(
                "I/Os per latency bin, all ops (red: ≥ " + Outliers.label(Outliers.THRESHOLDS_NS[0]) + ")",
                "I/Os (log)",
                bins.labels(),
                bins.counts(),
                bins.outlierBins()));
    }

    // ---- set views ----

    private record FreeFlashRow(RunData run, Double freeFlashGb, Double wa, Double steadyMbPerSec) {}

    private static final Table<FreeFlashRow> FREE_FLASH = new Table<>(List.of(
            Column.of("run_id", r -> r.run().runId()),
            Column.of("free_flash_gb", r -> r.freeFlashGb() == null ? "secure-erased" : r.freeFlashGb(), 1),
            Column.of("test_wa", FreeFlashRow::wa, 2),
            Column.of("steady_mb_per_s", FreeFlashRow::steadyMbPerSec, 1)));

    /** Seed 000: WA and steady MB/s of the test phase against the flash left unwritten by the fill. */
    private static void freeFlash(StringBuilder b, List<RunData> runs) {
        if (runs.stream().noneMatch(r -> r.started() != null && firstTest(r) != null && hasFill(r))) {
            return;
        }
        List<FreeFlashRow> rows = new ArrayList<>();
        for (RunData r : runs) {
            PhaseSummary test = firstTest(r);
            if (r.started() == null || test == null) {
                continue;
            }
            rows.add(new FreeFlashRow(
                    r,
                    hasFill(r) ? freeFlashGb(r.started()) : null,
                    test.getWriteAmplification(),
                    steadyMbPerSec(r, test)));
        }
        rows.sort(Comparator.comparing((FreeFlashRow r) -> r.freeFlashGb() == null ? -1 : r.freeFlashGb()));
        b.append("<h2 id=\"free-flash\">WA and steady MB/s against free flash</h2>\n<p class=\"note\">Free flash: the"
                + " user capacity the FILL phases left unwritten (secure-erased: no fill). Steady MB/s: the mean over"
                + " the last " + STEADY_TAIL_NS / 1_000_000_000L + " s of the first TEST phase (all of it when"
                + " shorter). WA: that phase's NAND / host bytes.</p>\n");
        List<FreeFlashRow> filled =
                rows.stream().filter(r -> r.freeFlashGb() != null).toList();
        double[] x = filled.stream().mapToDouble(FreeFlashRow::freeFlashGb).toArray();
        b.append(SvgChart.lines(
                "WA of the test phase against free flash",
                "free flash (GB)",
                "WA",
                List.of(new SvgChart.Series(
                        "WA", x, filled.stream().mapToDouble(r -> orNaN(r.wa())).toArray(), null)),
                List.of(),
                List.of(),
                false));
        b.append(SvgChart.lines(
                "Steady MB/s against free flash",
                "free flash (GB)",
                "MB/s",
                List.of(new SvgChart.Series(
                        "steady MB/s",
                        x,
                        filled.stream()
                                .mapToDouble(r -> orNaN(r.steadyMbPerSec()))
                                .toArray(),
                        null)),
                List.of(),
                List.of(),
                false));
        b.append(FREE_FLASH.html(rows));
    }

    private static boolean hasFill(RunData r) {
        return r.started() != null
                && r.started().getWorkload().getPhases().stream().anyMatch(p -> p.getKind() == PhaseKind.FILL);
    }

    /** Capacity minus the furthest byte any FILL phase before the first TEST phase wrote, GB. */
    static double freeFlashGb(RunStarted started) {
        long capacity = started.getDevice().getCapacityBytes();
        long filledEnd = 0;
        for (PhaseSpec p : started.getWorkload().getPhases()) {
            if (p.getKind() == PhaseKind.TEST) {
                break;
            }
            if (p.getKind() == PhaseKind.FILL) {
                filledEnd = Math.max(filledEnd, Math.min(capacity, p.getSpanOffsetBytes() + p.getSpanSizeBytes()));
            }
        }
        return (capacity - filledEnd) / (double) GB;
    }

    private static PhaseSummary firstTest(RunData r) {
        return r.summary().getPhases().stream()
                .filter(p -> p.getKind() == PhaseKind.TEST)
                .findFirst()
                .orElse(null);
    }

    /** Mean MB/s (all ops) over the windows of the phase's last STEADY_TAIL_NS. */
    static Double steadyMbPerSec(RunData r, PhaseSummary phase) {
        long from = Math.max(phase.getStartNs(), phase.getEndNs() - STEADY_TAIL_NS);
        Map<Long, Double> perWindow = new LinkedHashMap<>();
        for (WindowMetrics w : r.windows()) {
            if (w.getPhaseIndex() == phase.getPhaseIndex()
                    && w.getWindowStartNs() >= from
                    && w.getWindowStartNs() + w.getWindowSizeNs() <= phase.getEndNs()) {
                perWindow.merge(w.getWindowStartNs(), (double) w.getMbPerSec(), Double::sum);
            }
        }
        return perWindow.isEmpty()
                ? null
                : perWindow.values().stream()
                        .mapToDouble(Double::doubleValue)
                        .average()
                        .orElseThrow();
    }

    private record SchedulerRow(String device, String scheduler, List<Double> mbPerSec, Double percentOfFirstDevice) {
        double mean() {
            return mbPerSec.stream().mapToDouble(Double::doubleValue).average().orElse(Double.NaN);
        }

        String runs() {
            double mean = mean();
            List<String> parts = new ArrayList<>();
            for (double v : mbPerSec) {
                parts.add(String.format(Locale.ROOT, "%.1f (%.1f %%)", v, 100 * v / mean));
            }
            return String.join("; ", parts);
        }
    }

    private static final Table<SchedulerRow> SCHEDULERS = new Table<>(List.of(
            Column.of("device", SchedulerRow::device),
            Column.of("scheduler", SchedulerRow::scheduler),
            Column.of("runs", r -> r.mbPerSec().size()),
            Column.of("mb_per_s_each_and_pct_of_mean", SchedulerRow::runs),
            Column.of("mean_mb_per_s", SchedulerRow::mean, 1),
            Column.of("pct_of_first_device", SchedulerRow::percentOfFirstDevice, 1)));

    /** Seed 002: each device and I/O scheduler, its runs' MB/s, the mean and each run as % of it. */
    private static void schedulers(StringBuilder b, List<RunData> runs) {
        Map<List<String>, List<Double>> groups = new LinkedHashMap<>();
        for (RunData r : runs) {
            HostDescription host = r.started() == null ? null : r.started().getHost();
            PhaseSummary test = firstTest(r);
            if (host == null || host.getIoScheduler() == null || test == null) {
                continue;
            }
            double mbPerSec =
                    test.getOps().stream().mapToDouble(OpSummary::getMbPerSec).sum();
            groups.computeIfAbsent(
                            List.of(
                                    r.started().getDevice().getModel().toString(),
                                    host.getIoScheduler().toString()),
                            k -> new ArrayList<>())
                    .add(mbPerSec);
        }
        if (groups.isEmpty()) {
            return;
        }
        String firstDevice = groups.keySet().iterator().next().get(0);
        List<SchedulerRow> rows = new ArrayList<>();
        for (var e : groups.entrySet()) {
            SchedulerRow row = new SchedulerRow(e.getKey().get(0), e.getKey().get(1), e.getValue(), null);
            List<Double> reference = groups.get(List.of(firstDevice, row.scheduler()));
            Double pct = reference == null || row.device().equals(firstDevice)
                    ? null
                    : 100 * row.mean() / new SchedulerRow(firstDevice, row.scheduler(), reference, null).mean();
            rows.add(new SchedulerRow(row.device(), row.scheduler(), row.mbPerSec(), pct));
        }
        b.append("<h2 id=\"schedulers\">I/O schedulers</h2>\n<p class=\"note\">MB/s of each run's first TEST phase"
                + " (all ops), grouped by device and the I/O scheduler the run recorded; each run as % of its group's"
                + " mean; a device's mean as % of the first device's with the same scheduler.</p>\n");
        b.append(SCHEDULERS.html(rows));
    }

    private record QueueDepthRow(SummaryRow row, int queueDepth, int workers) {}

    private static final Table<QueueDepthRow> QUEUE_DEPTHS = queueDepthTable();

    private static Table<QueueDepthRow> queueDepthTable() {
        List<Column<QueueDepthRow>> c = new ArrayList<>();
        c.add(Column.of("run_id", r -> r.row().summary().getRunId().toString()));
        c.add(Column.of("queue_depth", QueueDepthRow::queueDepth));
        c.add(Column.of("workers", QueueDepthRow::workers));
        for (Column<SummaryRow> column : ReportTables.SUMMARY
                .select(
                        "op",
                        "iops",
                        "mb_per_s",
                        "latency_mean_us",
                        "latency_p99_us",
                        "latency_p99_99_us",
                        "latency_max_us",
                        "count_ge_10ms",
                        "count_ge_100ms")
                .columns()) {
            c.add(Column.of(column.name(), r -> column.value().apply(r.row()), column.textDecimals()));
        }
        return new Table<>(c);
    }

    /** Seed 003: the first TEST phase of runs at different queue depths, side by side. */
    private static void queueDepths(StringBuilder b, List<RunData> runs) {
        List<QueueDepthRow> rows = new ArrayList<>();
        List<SvgChart.Series> iops = new ArrayList<>();
        for (RunData r : runs) {
            PhaseSummary test = firstTest(r);
            PhaseSpec spec = r.started() == null || test == null
                    ? null
                    : r.started().getWorkload().getPhases().stream()
                            .filter(p -> p.getIndex() == test.getPhaseIndex())
                            .findFirst()
                            .orElse(null);
            if (spec == null) {
                continue;
            }
            for (SummaryRow row : ReportTables.summaryRows(r.summary())) {
                if (Objects.equals(row.phaseIndex(), test.getPhaseIndex())) {
                    rows.add(new QueueDepthRow(row, spec.getQueueDepth(), spec.getWorkers()));
                }
            }
            Map<Long, Double> perWindow = new LinkedHashMap<>();
            for (WindowMetrics w : r.windows()) {
                if (w.getPhaseIndex() == test.getPhaseIndex()
                        && w.getWindowStartNs() + w.getWindowSizeNs() <= test.getEndNs()) {
                    perWindow.merge(w.getWindowStartNs(), (double) w.getIops(), Double::sum);
                }
            }
            iops.add(new SvgChart.Series(
                    "QD" + spec.getQueueDepth() + " " + r.runId(),
                    perWindow.keySet().stream()
                            .mapToDouble(t -> (t - test.getStartNs()) / 1e9)
                            .toArray(),
                    perWindow.values().stream().mapToDouble(Double::doubleValue).toArray(),
                    null));
        }
        if (rows.stream().map(QueueDepthRow::queueDepth).distinct().count() < 2) {
            return;
        }
        rows.sort(Comparator.comparingInt(QueueDepthRow::queueDepth));
        b.append("<h2 id=\"queue-depths\">Queue depths side by side</h2>\n<p class=\"note\">The first TEST phase of"
                + " each run; IOPS of all ops per window against time since the phase's start.</p>\n");
        b.append(SvgChart.lines(
                "IOPS per window by queue depth", "test time (s)", "IOPS", iops, List.of(), List.of(), false));
        b.append(QUEUE_DEPTHS.html(rows));
    }

    private static List<SvgChart.Series> perOp(
            Map<IoOp, List<WindowMetrics>> byOp, Function<WindowMetrics, Double> value) {
        List<SvgChart.Series> out = new ArrayList<>();
        for (var e : byOp.entrySet()) {
            out.addAll(series(e.getKey().name(), e.getValue(), value));
        }
        return out;
    }

    private static List<SvgChart.Series> series(
            String name, List<WindowMetrics> windows, Function<WindowMetrics, Double> value) {
        double[] t =
                windows.stream().mapToDouble(w -> w.getWindowStartNs() / 1e9).toArray();
        double[] v = windows.stream().mapToDouble(w -> value.apply(w)).toArray();
        String op = name.split(" ")[0];
        return List.of(new SvgChart.Series(name, t, v, name.equals(op) ? SvgChart.opColor(op) : null));
    }

    private static double orNaN(Double v) {
        return v == null ? Double.NaN : v;
    }

    private static final String CSS = """
            body { font: 14px/1.4 system-ui, sans-serif; margin: 24px; color: #222; max-width: 1000px; }
            h1 { font-size: 22px; } h2 { font-size: 18px; margin-top: 32px; border-bottom: 1px solid #ccc; }
            h3 { font-size: 15px; margin-top: 20px; }
            table { border-collapse: collapse; margin: 8px 0 16px; font-size: 12px; }
            th, td { border: 1px solid #ddd; padding: 2px 6px; text-align: left; vertical-align: top; }
            td.num { text-align: right; font-variant-numeric: tabular-nums; }
            th { background: #f4f4f4; }
            .note { color: #555; font-size: 12px; }
            svg.chart { display: block; margin: 6px 0; background: #fff; }
            svg .title { font-size: 13px; font-weight: 600; } svg .tick, svg .legend, svg .marker { font-size: 10px; }
            svg .axis { font-size: 11px; fill: #444; } svg .empty { fill: #999; }
            """;
}
