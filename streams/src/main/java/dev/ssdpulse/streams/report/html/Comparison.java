package dev.ssdpulse.streams.report.html;

import dev.ssdpulse.schemas.avro.IoOp;
import dev.ssdpulse.schemas.avro.OpSummary;
import dev.ssdpulse.schemas.avro.PhaseSpec;
import dev.ssdpulse.schemas.avro.RunStarted;
import dev.ssdpulse.schemas.avro.SteadyStateVerdict;
import dev.ssdpulse.schemas.avro.WindowMetrics;
import dev.ssdpulse.streams.analysis.PhaseWriteAmplification;
import dev.ssdpulse.streams.report.Column;
import dev.ssdpulse.streams.report.LatencyStatistic;
import dev.ssdpulse.streams.report.ReportFormat;
import dev.ssdpulse.streams.report.ReportTables;
import dev.ssdpulse.streams.report.ReportTables.SummaryRow;
import dev.ssdpulse.streams.report.SummaryJson;
import dev.ssdpulse.streams.report.Table;
import dev.ssdpulse.streams.report.WaText;
import dev.ssdpulse.streams.report.chart.Palette;
import dev.ssdpulse.streams.report.html.HtmlReport.RunData;
import dev.ssdpulse.streams.waf.WaBounds;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.function.Function;
import java.util.function.ToDoubleFunction;

/**
 * The comparison that opens a report of several runs, as the reviews publish theirs: each run's headline figures
 * side by side (one column per run and op; the WA with the range its counters allow), the load times of REPLAY
 * phases where there are ({@link LoadTimes}), the runs' IOPS, MB/s, p99 latency and WA over time on shared charts (a
 * line per run, time from each run's measured phase start; WA as it built up since that start, its range shaded),
 * and each run's average against its minimum. What is compared is each run's {@link Scope}: its first TEST phase.
 * Every figure is the summary's or a window's as stored; the minimum is that of the whole windows of the phase.
 */
final class Comparison {
    private Comparison() {}

    /**
     * One column of the side-by-side table: a run and op, with the phase's lowest whole-window IOPS and MB/s of that
     * op.
     */
    record Headline(RunData run, Scope scope, SummaryRow row, double minIops, double minMbPerSec) {
        PhaseSpec spec() {
            return scope.spec(run.started());
        }

        /** The run's verdicts about the scope and this op (or all ops), each as "METHOD op: verdict". */
        String steadyState() {
            List<String> parts = new ArrayList<>();
            for (SteadyStateVerdict v : scope.summary().getSteadyState()) {
                if (v.getPhaseIndex() == scope.phaseIndex()
                        && (v.getAllOps() || v.getOp() == row.op().getOp())) {
                    parts.add(v.getMethod() + " " + SummaryJson.opName(v) + ": " + SummaryJson.verdictText(v));
                }
            }
            return parts.isEmpty() ? "no verdict" : String.join("; ", parts);
        }
    }

    static final Table<Headline> HEADLINE = headlineTable();

    private static Table<Headline> headlineTable() {
        List<Column<Headline>> c = new ArrayList<>();
        c.add(Column.of("run", h -> h.run().runId()));
        c.add(Column.of("status", h -> h.run().summary().getStatus().name()));
        c.add(Column.of("drive", h -> started(h, s -> s.getDevice().getModel().toString())));
        c.add(Column.of(
                "capacity",
                h -> started(h, s -> ReportFormat.capacityText(s.getDevice().getCapacityBytes()))));
        c.add(Column.of(
                "workload", h -> started(h, s -> s.getWorkload().getName().toString())));
        c.add(Column.of("io_engine", h -> started(h, s -> text(s.getHost().getIoEngine()))));
        c.add(Column.of("io_scheduler", h -> started(h, s -> text(s.getHost().getIoScheduler()))));
        c.add(Column.of("scope", h -> h.scope().text()));
        c.add(Column.of("queue_depth", h -> h.spec() == null ? null : h.spec().getQueueDepth()));
        c.add(Column.of("workers", h -> h.spec() == null ? null : h.spec().getWorkers()));
        // the summary's own cells (CSV: `report --format csv`), and its latency statistics in ms
        for (Column<SummaryRow> s : ReportTables.SUMMARY
                .select("op", "io_count", "iops", "mb_per_s")
                .columns()) {
            c.add(Column.of(s.name(), h -> s.value().apply(h.row()), s.textDecimals()));
        }
        c.add(Column.of("min_window_iops", Headline::minIops, 0));
        c.add(Column.of("min_window_mb_per_s", Headline::minMbPerSec, 2));
        for (LatencyStatistic statistic :
                List.of(LatencyStatistic.MEAN, LatencyStatistic.P99, LatencyStatistic.P99_99, LatencyStatistic.MAX)) {
            c.add(Column.of(
                    statistic.columnName("ms"),
                    h -> {
                        Double ns = statistic.valueNsOrNull(h.row().op().getLatency());
                        return ns == null ? null : ns / 1e6;
                    },
                    3));
        }
        for (Column<SummaryRow> s : ReportTables.OUTLIERS.columns()) {
            if (!s.name().equals("op")) {
                c.add(Column.of(s.name(), h -> s.value().apply(h.row()), s.textDecimals()));
            }
        }
        // the summary's WA with the range its counters allow, or "not yet resolvable (low-high)"
        c.add(Column.of("wa", h -> WaText.text(h.row().wa())));
        c.add(Column.of("steady_state", Headline::steadyState));
        return new Table<>(c);
    }

    private static Object started(Headline h, Function<RunStarted, Object> fact) {
        return h.run().started() == null ? null : fact.apply(h.run().started());
    }

    private static String text(CharSequence s) {
        return s == null ? null : s.toString();
    }

    /** A column per run and op of each run's scope. */
    static List<Headline> headlines(List<RunData> runs) {
        List<Headline> out = new ArrayList<>();
        for (RunData run : runs) {
            Scope scope = Scope.of(run.summary());
            Map<IoOp, RunWindows.Line> iops = perOp(run, scope, WindowMetrics::getIops);
            Map<IoOp, RunWindows.Line> mbps = perOp(run, scope, WindowMetrics::getMbPerSec);
            for (SummaryRow row : scope.rows()) {
                IoOp op = row.op().getOp();
                out.add(new Headline(
                        run,
                        scope,
                        row,
                        iops.containsKey(op) ? iops.get(op).min() : Double.NaN,
                        mbps.containsKey(op) ? mbps.get(op).min() : Double.NaN));
            }
        }
        return out;
    }

    private static Map<IoOp, RunWindows.Line> perOp(RunData run, Scope scope, ToDoubleFunction<WindowMetrics> value) {
        return RunWindows.perOp(run.windows(), scope.startNs(), scope.endNs(), scope.startNs(), value);
    }

    private static RunWindows.Line totals(RunData run, Scope scope, ToDoubleFunction<WindowMetrics> value) {
        return RunWindows.totals(run.windows(), scope.startNs(), scope.endNs(), scope.startNs(), value);
    }

    static void html(StringBuilder b, List<RunData> runs) {
        b.append("<section id=\"comparison\" class=\"card\">\n<h2>Comparison</h2>\n<p class=\"note\">Each run's first"
                        + " TEST phase (the whole run when it has none): the summary's figures of each op, the lowest"
                        + " whole-window IOPS and MB/s of the phase (windows of ")
                .append(windowText(runs))
                .append("), latencies in ms, outlier counts exact, WA the phase's NAND / host writes with the range the"
                        + " drive's counter steps allow (\"not yet resolvable\" while it is wider than "
                        + Math.round(WaBounds.RESOLVED_RELATIVE_WIDTH * 100)
                        + " %). Charts: time since the phase's start; a line per run, a WA's range shaded.</p>\n");
        b.append("<div class=\"table-wrap\">")
                .append(HEADLINE.htmlSideBySide(headlines(runs)))
                .append("</div>\n");
        LoadTimes.comparison(b, runs);
        List<SvgChart.Series> iops = new ArrayList<>();
        List<SvgChart.Series> mbps = new ArrayList<>();
        List<SvgChart.Series> p99 = new ArrayList<>();
        List<SvgChart.Series> wa = new ArrayList<>();
        Set<String> waUnits = new TreeSet<>();
        List<String> labels = new ArrayList<>();
        double[][] iopsBars = new double[2][runs.size()];
        double[][] mbpsBars = new double[2][runs.size()];
        for (int i = 0; i < runs.size(); i++) {
            RunData run = runs.get(i);
            Scope scope = Scope.of(run.summary());
            String color = Palette.run(i);
            String label = run.label();
            labels.add(run.runId()
                    + (run.started() == null
                            ? ""
                            : "\n" + run.started().getDevice().getModel()));
            RunWindows.Line runIops = totals(run, scope, WindowMetrics::getIops);
            RunWindows.Line runMbps = totals(run, scope, WindowMetrics::getMbPerSec);
            iops.add(new SvgChart.Series(label, runIops.timeS(), runIops.values(), color));
            mbps.add(new SvgChart.Series(label, runMbps.timeS(), runMbps.values(), color));
            Map<IoOp, RunWindows.Line> runP99 =
                    perOp(run, scope, w -> w.getLatency().getPercentiles().getP99Ns() / 1e6);
            boolean first = true;
            for (var e : runP99.entrySet()) {
                p99.add(new SvgChart.Series(
                        runP99.size() == 1 ? label : label + " " + e.getKey(),
                        e.getValue().timeS(),
                        e.getValue().values(),
                        color,
                        !first));
                first = false;
            }
            List<PhaseWriteAmplification.SoFar> soFar = waSoFar(run, scope);
            if (!soFar.isEmpty()) {
                wa.add(new SvgChart.Series(
                                label,
                                soFar.stream()
                                        .mapToDouble(w -> (w.toTimeNs() - scope.startNs()) / 1e9)
                                        .toArray(),
                                soFar.stream()
                                        .mapToDouble(w -> w.wa() == null ? Double.NaN : w.wa())
                                        .toArray(),
                                color)
                        .withBounds(
                                soFar.stream().mapToDouble(Comparison::low).toArray(),
                                soFar.stream().mapToDouble(Comparison::high).toArray()));
                waUnits.add(run.waUnit());
            }
            iopsBars[0][i] = sum(scope.rows(), OpSummary::getIops);
            iopsBars[1][i] = runIops.min();
            mbpsBars[0][i] = sum(scope.rows(), OpSummary::getMbPerSec);
            mbpsBars[1][i] = runMbps.min();
        }
        String x = "time since the test phase's start (s)";
        b.append("<h3>Over time</h3>\n");
        b.append(SvgChart.lines("MB/s per window, all ops", x, "MB/s", mbps, List.of(), List.of(), false));
        b.append(SvgChart.lines("IOPS per window, all ops", x, "IOPS", iops, List.of(), List.of(), false));
        b.append(SvgChart.lines("p99 latency per window", x, "latency (ms, log)", p99, List.of(), List.of(), true));
        if (wa.isEmpty()) {
            b.append("<p class=\"note\">No run has SMART samples: no WA over time.</p>\n");
        } else {
            b.append(SvgChart.lines(
                    "WA since the test phase's start ("
                            + (waUnits.size() == 1
                                    ? WaText.ratioOf(waUnits.iterator().next())
                                    : "NAND / host writes, each run in its counters' unit")
                            + ")",
                    x,
                    "WA",
                    wa,
                    List.of(),
                    List.of(),
                    false));
        }
        b.append("<h3>Average and minimum</h3>\n<p class=\"note\">Average: the phase's I/Os (bytes) over its length,"
                + " all ops. Minimum: its slowest whole window — what the drive gave at its worst, where a burst"
                + " score shows its best.</p>\n<div class=\"pair\">\n");
        List<String> groups = List.of("average", "minimum window");
        List<String> colors = List.of(Palette.run(0), Palette.run(1));
        b.append(SvgChart.groupedBars("Average and minimum MB/s", "MB/s", labels, groups, colors, mbpsBars, 1));
        b.append(SvgChart.groupedBars("Average and minimum IOPS", "IOPS", labels, groups, colors, iopsBars, 0));
        b.append("</div>\n</section>\n");
    }

    /**
     * The scope's WA as it built up, SMART interval by SMART interval, ending at the phase's WA of the table (the
     * same intervals, the same sums: {@link PhaseWriteAmplification}); for a whole run, its cumulative WA.
     */
    static List<PhaseWriteAmplification.SoFar> waSoFar(RunData run, Scope scope) {
        if (scope.phase() == null) {
            return run.wa().stream()
                    .map(w -> new PhaseWriteAmplification.SoFar(
                            w.getToTimeNs(),
                            w.getWaCumulative(),
                            new WaBounds(w.getWaCumulativeLow(), w.getWaCumulativeHigh(), w.getWaCumulativeResolved())))
                    .toList();
        }
        Map<Integer, Long> starts = new TreeMap<>();
        scope.summary().getPhases().forEach(p -> starts.put(p.getPhaseIndex(), p.getStartNs()));
        return PhaseWriteAmplification.running(starts, run.wa()).getOrDefault(scope.phaseIndex(), List.of());
    }

    /** The lowest WA a point's counters allow; NaN: no range known (exact counters draw none either). */
    private static double low(PhaseWriteAmplification.SoFar w) {
        return w.wa() == null || w.bounds().low() == null
                ? Double.NaN
                : w.bounds().low();
    }

    /** The highest; infinite while the host side is within one step of 0 (no upper bound yet). */
    private static double high(PhaseWriteAmplification.SoFar w) {
        if (w.wa() == null || w.bounds().low() == null) {
            return Double.NaN;
        }
        return w.bounds().high() == null ? Double.POSITIVE_INFINITY : w.bounds().high();
    }

    /** "1 s" (the windows' length; the lengths of several when they differ). */
    private static String windowText(List<RunData> runs) {
        List<String> lengths = runs.stream()
                .flatMap(r -> r.windows().stream().limit(1))
                .map(w -> ReportFormat.grouped(w.getWindowSizeNs() / 1e9, 3).replaceAll("\\.?0+$", "") + " s")
                .distinct()
                .toList();
        return lengths.isEmpty() ? "none stored" : String.join(", ", lengths);
    }

    /** The sum of a scope's ops (IOPS or MB/s): the phase's rate over all directions. */
    static double sum(List<SummaryRow> rows, ToDoubleFunction<OpSummary> value) {
        return rows.stream().mapToDouble(r -> value.applyAsDouble(r.op())).sum();
    }
}
