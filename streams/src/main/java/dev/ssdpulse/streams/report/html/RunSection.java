package dev.ssdpulse.streams.report.html;

import static dev.ssdpulse.streams.report.Table.escapeHtml;

import dev.ssdpulse.schemas.avro.IoOp;
import dev.ssdpulse.schemas.avro.RunGroup;
import dev.ssdpulse.schemas.avro.RunSummary;
import dev.ssdpulse.schemas.avro.SteadyStateVerdict;
import dev.ssdpulse.schemas.avro.WindowMetrics;
import dev.ssdpulse.schemas.avro.WriteAmplification;
import dev.ssdpulse.streams.report.Column;
import dev.ssdpulse.streams.report.Outliers;
import dev.ssdpulse.streams.report.ReportFormat;
import dev.ssdpulse.streams.report.ReportTables;
import dev.ssdpulse.streams.report.SummaryJson;
import dev.ssdpulse.streams.report.Table;
import dev.ssdpulse.streams.report.WaText;
import dev.ssdpulse.streams.report.chart.Palette;
import dev.ssdpulse.streams.report.chart.ScatterRaster;
import dev.ssdpulse.streams.report.html.HtmlReport.RunData;
import dev.ssdpulse.streams.waf.PhaseWa;
import dev.ssdpulse.streams.waf.WaBounds;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.function.Function;
import java.util.function.ToDoubleFunction;

/**
 * One run's section of the report: its test setup, IOPS and MB/s over time with its phases and steady-state
 * windows, the latency scatter (a picture, with the slowest I/Os listed), the latency trend, the latency
 * distribution with the summary's outlier counts and percentiles for the run and each phase, the steady-state
 * verdicts, WA over time (the cumulative WA's range shaded where the drive's counters move in steps) with the
 * counters in their unit, the phases, the load times of REPLAY phases, and the power-loss verification. Times are run time (s since the run's
 * start).
 */
final class RunSection {
    /** The summary's outlier counts and percentiles, a line per op for the run and for each phase. */
    static final Table<ReportTables.SummaryRow> OUTLIERS = ReportTables.SUMMARY.select(columns(
            "scope", "phase_index", "phase_name", ReportTables.OUTLIERS.header().toArray(String[]::new)));

    static final Table<ReportTables.SummaryRow> LATENCY = ReportTables.SUMMARY.select(columns(
            "scope", "phase_index", "phase_name", ReportTables.LATENCY.header().toArray(String[]::new)));

    /** A kept I/O of the scatter, as listed: exact time and latency. */
    static final Table<ScatterRaster.Point> SLOWEST = new Table<>(List.of(
            Column.of("time_s", ScatterRaster.Point::timeS, 3),
            Column.of("latency_ms", ScatterRaster.Point::latencyMs, 3),
            Column.of("op", p -> p.op().name())));

    private RunSection() {}

    private static String[] columns(String a, String b, String c, String[] rest) {
        List<String> all = new ArrayList<>(List.of(a, b, c));
        all.addAll(List.of(rest));
        return all.toArray(String[]::new);
    }

    static void html(StringBuilder b, RunData run) {
        html(b, run, Set.of());
    }

    /** @param inReport the run ids with a section in this report: a group's members among them are linked */
    static void html(StringBuilder b, RunData run, Set<String> inReport) {
        RunSummary s = run.summary();
        String id = run.runId();
        RunGroup group = s.getGroup();
        b.append("<section class=\"run card\" id=\"run-")
                .append(escapeHtml(id))
                .append("\">\n<h2>")
                .append(
                        group == null
                                ? "Run " + escapeHtml(id)
                                : "Run group " + escapeHtml(group.getGroup().toString()))
                .append("</h2>\n<p class=\"facts\">")
                .append(s.getStatus().name());
        if (s.getReason() != null) {
            b.append(" (").append(escapeHtml(s.getReason().toString())).append(')');
        }
        b.append(", ")
                .append(ReportFormat.grouped(s.getDurationNs() / 1e9, 1))
                .append(" s, ")
                .append(ReportFormat.grouped(s.getIoCount()))
                .append(" I/Os");
        if (run.started() != null) {
            b.append("; ").append(SetupBlock.oneLine(run.started()));
        }
        if (run.started() != null && run.started().getGroup() != null) {
            b.append("; member ")
                    .append(escapeHtml(
                            run.started().getMember() == null
                                    ? "?"
                                    : run.started().getMember().toString()))
                    .append(" of run group ")
                    .append(escapeHtml(run.started().getGroup().toString()));
        }
        b.append("</p>\n");
        if (group != null) {
            GroupMembers.html(b, group, inReport);
        }
        b.append(SetupBlock.html(run.started()));
        List<SvgChart.Marker> phases = s.getPhases().stream()
                .map(p -> new SvgChart.Marker(p.getStartNs() / 1e9, p.getName().toString()))
                .toList();
        List<SvgChart.Band> steady = steadyBands(s);
        b.append("<h3>IOPS and MB/s over time</h3>\n");
        b.append(SvgChart.lines(
                "IOPS per window",
                "run time (s)",
                "IOPS",
                perOp(run, WindowMetrics::getIops, "", null, false),
                phases,
                steady,
                false));
        b.append(SvgChart.lines(
                "MB/s per window",
                "run time (s)",
                "MB/s",
                perOp(run, WindowMetrics::getMbPerSec, "", null, false),
                phases,
                steady,
                false));
        scatter(b, run, phases);
        b.append("<h3>Latency trend</h3>\n");
        List<SvgChart.Series> trend = new ArrayList<>();
        trend.addAll(perOp(run, w -> w.getLatency().getMaxNs() / 1e6, " max", Palette.LATENCY_MAX, true));
        trend.addAll(
                perOp(run, w -> w.getLatency().getPercentiles().getP99Ns() / 1e6, " p99", Palette.LATENCY_P99, true));
        trend.addAll(
                perOp(run, w -> w.getLatency().getPercentiles().getP50Ns() / 1e6, " p50", Palette.LATENCY_P50, true));
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
        List<ReportTables.SummaryRow> rows = ReportTables.summaryRows(s);
        b.append("<div class=\"table-wrap\">")
                .append(OUTLIERS.html(rows))
                .append("</div>\n<div class=\"table-wrap\">")
                .append(LATENCY.html(rows))
                .append("</div>\n");
        b.append("<h3>Steady state</h3>\n");
        b.append(
                s.getSteadyState().isEmpty()
                        ? "<p class=\"note\">No steady-state verdict.</p>\n"
                        : "<div class=\"table-wrap\">" + ReportTables.VERDICTS.html(s.getSteadyState()) + "</div>\n");
        writeAmplification(b, run, phases);
        b.append("<h3>Phases</h3>\n<div class=\"table-wrap\">")
                .append(ReportTables.PHASES.html(s.getPhases()))
                .append("</div>\n");
        LoadTimes.run(b, run);
        Verifications.run(b, run);
        b.append("</section>\n");
    }

    /**
     * WA over time, per SMART interval and cumulative, the cumulative with the range its counters' steps allow, and
     * the run's WA in words with the counters it is the ratio of, in their unit.
     */
    private static void writeAmplification(StringBuilder b, RunData run, List<SvgChart.Marker> phases) {
        b.append("<h3>Write amplification</h3>\n<div class=\"wa\">\n");
        if (run.wa().isEmpty()) {
            b.append("<p class=\"note\">No SMART samples: WA unavailable.</p>\n</div>\n");
            return;
        }
        WriteAmplification last = run.summary().getWriteAmplification() != null
                ? run.summary().getWriteAmplification()
                : run.wa().get(run.wa().size() - 1);
        PhaseWa cumulative = WaText.cumulative(last);
        b.append("<p class=\"facts\">Since the first SMART sample: WA ")
                .append(escapeHtml(cumulative == null ? "n/a" : WaText.text(cumulative)))
                .append("; ")
                .append(escapeHtml(WaText.counters(last)))
                .append("; ")
                .append(escapeHtml(WaText.steps(last)))
                .append("; source ")
                .append(last.getSource().name())
                .append(".</p>\n");
        if (last.getHostResolution() > 0 || last.getNandResolution() > 0) {
            b.append("<p class=\"note\">The drive's counters move in steps: the shaded band is the lowest to the"
                    + " highest cumulative WA they allow (to the chart's top while there is no upper bound yet). A"
                    + " WA is written as not yet resolvable until its range lies within "
                    + Math.round(WaBounds.RESOLVED_RELATIVE_WIDTH * 100)
                    + " % of it.</p>\n");
        }
        double[] t = run.wa().stream().mapToDouble(w -> w.getToTimeNs() / 1e9).toArray();
        // an interval without host writes has no WA: a gap, not 0
        b.append(SvgChart.lines(
                "WA (" + WaText.ratioOf(last.getUnit()) + ")",
                "run time (s)",
                "WA",
                List.of(
                        new SvgChart.Series(
                                "per interval", t, wa(run, WriteAmplification::getWaWindow), Palette.WA_INTERVAL),
                        new SvgChart.Series(
                                        "cumulative",
                                        t,
                                        wa(run, WriteAmplification::getWaCumulative),
                                        Palette.WA_CUMULATIVE)
                                .withBounds(
                                        wa(run, w -> w.getWaCumulative() == null ? null : w.getWaCumulativeLow()),
                                        wa(
                                                run,
                                                w -> w.getWaCumulative() == null || w.getWaCumulativeLow() == null
                                                        ? null
                                                        : w.getWaCumulativeHigh() == null
                                                                ? Double.POSITIVE_INFINITY
                                                                : w.getWaCumulativeHigh()))),
                phases,
                List.of(),
                false));
        b.append("</div>\n");
    }

    private static double[] wa(RunData run, Function<WriteAmplification, Double> value) {
        return run.wa().stream()
                .mapToDouble(w -> value.apply(w) == null ? Double.NaN : value.apply(w))
                .toArray();
    }

    private static void scatter(StringBuilder b, RunData run, List<SvgChart.Marker> phases) {
        b.append("<h3>Latency scatter</h3>\n");
        ScatterRaster.Picture p = run.scatter();
        if (p == null || p.pointsDrawn() == 0) {
            b.append("<p class=\"note\">No latency scatter is stored for this run.</p>\n");
            return;
        }
        b.append(SvgChart.raster("Latency of each I/O drawn", p, phases));
        String threshold = Outliers.label(p.thresholdNs());
        b.append("<p class=\"note\">")
                .append(ReportFormat.grouped(p.pointsDrawn()))
                .append(" of ")
                .append(ReportFormat.grouped(p.ioCount()))
                .append(" I/Os drawn: ")
                .append(
                        p.keptAtOrAboveThreshold() == p.atOrAboveThreshold()
                                ? "every one of the " + ReportFormat.grouped(p.atOrAboveThreshold()) + " at or above "
                                        + threshold
                                : ReportFormat.grouped(p.keptAtOrAboveThreshold()) + " of the "
                                        + ReportFormat.grouped(p.atOrAboveThreshold()) + " at or above " + threshold
                                        + " (a window with more than the sampler's cap keeps a uniform sample of"
                                        + " them)")
                .append(" (squares), and a uniform sample of the others (dots); darker where more I/Os fall on a"
                        + " pixel (log scale). A position is as exact as its pixel; the slowest I/Os, exact:</p>\n")
                .append("<div class=\"table-wrap\">")
                .append(SLOWEST.html(p.slowest()))
                .append("</div>\n");
    }

    /**
     * A line per op of the run's whole windows (the window cut short by the run's end left out: its few I/Os would
     * look like a collapse). {@code color} null: the op's colour; {@code dashOthers}: ops after the first dashed,
     * where the colour says the statistic.
     */
    private static List<SvgChart.Series> perOp(
            RunData run, ToDoubleFunction<WindowMetrics> value, String suffix, String color, boolean dashOthers) {
        Map<IoOp, RunWindows.Line> lines =
                RunWindows.perOp(run.windows(), 0, run.summary().getDurationNs(), 0, value);
        List<SvgChart.Series> out = new ArrayList<>();
        boolean first = true;
        for (var e : lines.entrySet()) {
            out.add(new SvgChart.Series(
                    e.getKey().name() + suffix,
                    e.getValue().timeS(),
                    e.getValue().values(),
                    color == null ? Palette.op(e.getKey().name()) : color,
                    dashOthers && !first));
            first = false;
        }
        return out;
    }

    static List<SvgChart.Band> steadyBands(RunSummary s) {
        List<SvgChart.Band> bands = new ArrayList<>();
        for (SteadyStateVerdict v : s.getSteadyState()) {
            if (v.getReached() && v.getWindowEndNs() > v.getWindowStartNs()) {
                bands.add(new SvgChart.Band(
                        v.getWindowStartNs() / 1e9,
                        v.getWindowEndNs() / 1e9,
                        "steady (" + v.getMethod() + ", " + SummaryJson.opName(v) + ")"
                                + (v.getLostAtNs() == null
                                        ? ""
                                        : ", lost at " + ReportFormat.grouped(v.getLostAtNs() / 1e9, 0) + " s")));
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
}
