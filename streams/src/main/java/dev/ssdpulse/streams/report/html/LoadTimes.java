package dev.ssdpulse.streams.report.html;

import dev.ssdpulse.schemas.avro.PhaseKind;
import dev.ssdpulse.schemas.avro.PhaseSummary;
import dev.ssdpulse.schemas.avro.ReplayPhaseResult;
import dev.ssdpulse.streams.report.Column;
import dev.ssdpulse.streams.report.ReportFormat;
import dev.ssdpulse.streams.report.ReportTables;
import dev.ssdpulse.streams.report.Table;
import dev.ssdpulse.streams.report.chart.Palette;
import dev.ssdpulse.streams.report.html.HtmlReport.RunData;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.ToLongFunction;

/**
 * The load times of REPLAY phases, as seed 003 compares drives by the time an application or a boot takes: for a set
 * of runs, a bar chart per replayed load (phase name, trace, timing and time scale: only loads replayed alike are
 * compared) with a bar per run, the shortest first, a badge where I/Os went out late against their recorded times;
 * for each run, its REPLAY phases' figures. Every figure is the summary's (the phase's load time and its replay
 * result from RunFinished), none recomputed.
 */
final class LoadTimes {
    private LoadTimes() {}

    /** A REPLAY phase of a run, with the run's position in the report (its colour). */
    record Entry(RunData run, int runIndex, PhaseSummary phase) {
        ReplayPhaseResult replay() {
            return phase.getReplay();
        }

        String device() {
            return run.started() == null
                    ? null
                    : run.started().getDevice().getModel().toString();
        }

        Double loadTimeS() {
            return phase.getLoadTimeNs() == null ? null : phase.getLoadTimeNs() / 1e9;
        }

        /** I/Os issued later than the threshold after their recorded time; null where not measured (fast timing). */
        Long lateIssues() {
            return replay() == null || !replay().getRecordedTiming() ? null : replay().getLateIssueCount();
        }

        boolean cutShort() {
            return replay() != null && replay().getIssuedIoCount() < replay().getTraceIoCount();
        }

        /** What makes loads comparable: the phase's name, trace, timing and time scale. */
        Group group() {
            ReplayPhaseResult r = replay();
            return r == null
                    ? new Group(phase.getName().toString(), null, null)
                    : new Group(phase.getName().toString(), r.getTrace().toString(), ReportTables.replayTiming(r));
        }
    }

    /**
     * A load replayed alike: trace and timing ("recorded timing x1") null when the run's summary has no replay
     * result yet.
     */
    record Group(String phaseName, String trace, String timing) {
        /** "Load time of 'app-start' (trace app-load.iolog.gz, recorded timing x1)". */
        String title() {
            return "Load time of '" + phaseName + "'"
                    + (trace == null ? "" : " (trace " + fileName(trace) + ", " + timing + ")");
        }
    }

    /** An issue lag in ms; null without a replay result or with fast timing (no lag measured). */
    private static Double lagMs(Entry e, ToLongFunction<ReplayPhaseResult> lagNs) {
        return e.replay() == null || !e.replay().getRecordedTiming() ? null : lagNs.applyAsLong(e.replay()) / 1e6;
    }

    static final Table<Entry> TABLE = new Table<>(List.of(
            Column.of("run", e -> e.run().runId()),
            Column.of("device", Entry::device),
            Column.of("phase", e -> e.phase().getPhaseIndex()),
            Column.of("phase_name", e -> e.phase().getName().toString()),
            Column.of(
                    "trace",
                    e -> e.replay() == null ? null : e.replay().getTrace().toString()),
            Column.of("timing", e -> e.replay() == null ? null : ReportTables.replayTiming(e.replay())),
            Column.of("load_time_s", Entry::loadTimeS, 3),
            Column.of(
                    "trace_io_count",
                    e -> e.replay() == null ? null : e.replay().getTraceIoCount()),
            Column.of(
                    "issued_io_count",
                    e -> e.replay() == null ? null : e.replay().getIssuedIoCount()),
            Column.of("late_issues", Entry::lateIssues),
            Column.of(
                    "late_threshold_ms",
                    e -> e.lateIssues() == null ? null : e.replay().getLateThresholdNs() / 1e6,
                    1),
            Column.of("issue_lag_p50_ms", e -> lagMs(e, ReplayPhaseResult::getIssueLagP50Ns), 3),
            Column.of("issue_lag_p99_ms", e -> lagMs(e, ReplayPhaseResult::getIssueLagP99Ns), 3),
            Column.of("issue_lag_max_ms", e -> lagMs(e, ReplayPhaseResult::getIssueLagMaxNs), 3)));

    /** The run section's table: its REPLAY phases, without the run's own columns. */
    static final Table<Entry> RUN_TABLE = TABLE.select(TABLE.header().stream()
            .filter(c -> !c.equals("run") && !c.equals("device"))
            .toArray(String[]::new));

    /** The REPLAY phases with a load time, run by run in the report's order. */
    static List<Entry> entries(List<RunData> runs) {
        List<Entry> out = new ArrayList<>();
        for (int i = 0; i < runs.size(); i++) {
            for (PhaseSummary p : runs.get(i).summary().getPhases()) {
                if (p.getKind() == PhaseKind.REPLAY && p.getLoadTimeNs() != null) {
                    out.add(new Entry(runs.get(i), i, p));
                }
            }
        }
        return out;
    }

    /** The comparison's load times: nothing when no run has a REPLAY phase. */
    static void comparison(StringBuilder b, List<RunData> runs) {
        List<Entry> entries = entries(runs);
        if (entries.isEmpty()) {
            return;
        }
        Map<Group, List<Entry>> groups = new LinkedHashMap<>();
        entries.forEach(
                e -> groups.computeIfAbsent(e.group(), g -> new ArrayList<>()).add(e));
        b.append("<h3>Load times</h3>\n<p class=\"note\">Each REPLAY phase's load time: its trace's first I/O"
                + " submitted to its last completed, what a user waits for; shorter is better. Loads are compared"
                + " where the phase name, trace, timing and time scale are the same. A red badge: I/Os issued later"
                + " than the threshold after their recorded time (the queue-depth cap was full or the host fell"
                + " behind), or a replay cut short.</p>\n");
        for (var group : groups.entrySet()) {
            b.append(SvgChart.horizontalBars(
                    group.getKey().title(), "load time (s), shorter is better", bars(group.getValue())));
        }
        b.append("<div class=\"table-wrap\">").append(TABLE.html(entries)).append("</div>\n");
    }

    /** A run's REPLAY phases: their load time and how their I/Os were issued. */
    static void run(StringBuilder b, RunData run) {
        List<Entry> entries = entries(List.of(run));
        if (entries.isEmpty()) {
            return;
        }
        b.append("<h3>Load times</h3>\n<p class=\"note\">Each REPLAY phase's load time (first I/O submitted to last"
                + " completed) and how its I/Os were issued against the trace's recorded times: late (more than the"
                + " threshold after their time) and the issue lag's percentiles (recorded timing only).</p>\n");
        b.append("<div class=\"table-wrap\">").append(RUN_TABLE.html(entries)).append("</div>\n");
    }

    /** A bar per run, the shortest load first; a drive named twice gets its run id beside it. */
    static List<SvgChart.HorizontalBar> bars(List<Entry> group) {
        List<Entry> sorted = new ArrayList<>(group);
        sorted.sort(Comparator.comparingDouble(Entry::loadTimeS));
        Map<String, Long> names = new LinkedHashMap<>();
        sorted.forEach(e -> names.merge(String.valueOf(e.device()), 1L, Long::sum));
        List<SvgChart.HorizontalBar> bars = new ArrayList<>();
        for (Entry e : sorted) {
            String device = e.device();
            String label = device == null
                    ? e.run().runId()
                    : names.get(device) > 1 ? device + " (" + e.run().runId() + ")" : device;
            String seconds = ReportFormat.grouped(e.loadTimeS(), 3) + " s";
            List<String> badges = new ArrayList<>();
            if (e.lateIssues() != null && e.lateIssues() > 0) {
                badges.add(ReportFormat.grouped(e.lateIssues()) + " late");
            }
            if (e.cutShort()) {
                badges.add("cut short");
            }
            StringBuilder tooltip = new StringBuilder(e.run().label() + ": " + seconds);
            ReplayPhaseResult r = e.replay();
            if (r != null) {
                tooltip.append("; ")
                        .append(ReportFormat.grouped(r.getIssuedIoCount()))
                        .append(" of ")
                        .append(ReportFormat.grouped(r.getTraceIoCount()))
                        .append(" I/Os issued");
                if (e.lateIssues() != null) {
                    tooltip.append(", ")
                            .append(ReportFormat.grouped(e.lateIssues()))
                            .append(" more than ")
                            .append(ReportFormat.grouped(r.getLateThresholdNs() / 1e6, 1))
                            .append(" ms late");
                }
            }
            bars.add(new SvgChart.HorizontalBar(
                    e.run().runId(),
                    label,
                    e.loadTimeS(),
                    seconds,
                    Palette.run(e.runIndex()),
                    badges.isEmpty() ? null : String.join(", ", badges),
                    tooltip.toString()));
        }
        return bars;
    }

    /** The trace's file name: "app-load.iolog.gz" of "classpath:workloads/traces/app-load.iolog.gz". */
    static String fileName(String trace) {
        return trace.substring(Math.max(trace.lastIndexOf('/'), trace.lastIndexOf(':')) + 1);
    }
}
