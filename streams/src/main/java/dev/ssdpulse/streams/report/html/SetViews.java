package dev.ssdpulse.streams.report.html;

import dev.ssdpulse.schemas.avro.HostDescription;
import dev.ssdpulse.schemas.avro.OpSummary;
import dev.ssdpulse.schemas.avro.PhaseKind;
import dev.ssdpulse.schemas.avro.PhaseSpec;
import dev.ssdpulse.schemas.avro.PhaseSummary;
import dev.ssdpulse.schemas.avro.RunStarted;
import dev.ssdpulse.schemas.avro.WindowMetrics;
import dev.ssdpulse.streams.report.Column;
import dev.ssdpulse.streams.report.ReportFormat;
import dev.ssdpulse.streams.report.ReportTables;
import dev.ssdpulse.streams.report.ReportTables.SummaryRow;
import dev.ssdpulse.streams.report.Table;
import dev.ssdpulse.streams.report.WaText;
import dev.ssdpulse.streams.report.chart.Palette;
import dev.ssdpulse.streams.report.html.HtmlReport.RunData;
import dev.ssdpulse.streams.waf.PhaseWa;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * The comparisons the seed articles publish for a set of runs, each drawn only when the runs are of its kind: WA
 * and steady MB/s against free flash (a fill leaving part of the drive unwritten), schedulers across repeated runs
 * with the mean and each run as % of it, and queue depths side by side.
 */
final class SetViews {
    /** The steady MB/s of a run is the mean over this much of the end of its test phase (the last minutes). */
    static final long STEADY_TAIL_NS = 300_000_000_000L;

    private static final long GB = 1_000_000_000L;

    private SetViews() {}

    static void html(StringBuilder b, List<RunData> runs) {
        freeFlash(b, runs);
        schedulers(b, runs);
        queueDepths(b, runs);
    }

    private record FreeFlashRow(RunData run, Double freeFlashGb, PhaseWa wa, Double steadyMbPerSec) {}

    private static final Table<FreeFlashRow> FREE_FLASH = new Table<>(List.of(
            Column.of("run_id", r -> r.run().runId()),
            Column.of("free_flash_gb", r -> r.freeFlashGb() == null ? "secure-erased" : r.freeFlashGb(), 1),
            Column.of("test_wa", r -> WaText.text(r.wa())),
            Column.of("steady_mb_per_s", FreeFlashRow::steadyMbPerSec, 1)));

    /** Seed 000: WA and steady MB/s of the test phase against the flash left unwritten by the fill. */
    private static void freeFlash(StringBuilder b, List<RunData> runs) {
        if (runs.stream().noneMatch(r -> Scope.firstTest(r.summary()) != null && hasFill(r))) {
            return;
        }
        List<FreeFlashRow> rows = new ArrayList<>();
        for (RunData r : runs) {
            PhaseSummary test = Scope.firstTest(r.summary());
            if (r.started() == null || test == null) {
                continue;
            }
            rows.add(new FreeFlashRow(
                    r, hasFill(r) ? freeFlashGb(r.started()) : null, WaText.of(test), steadyMbPerSec(r, test)));
        }
        rows.sort(Comparator.comparing((FreeFlashRow r) -> r.freeFlashGb() == null ? -1 : r.freeFlashGb()));
        b.append("<section id=\"free-flash\" class=\"card\">\n<h2>WA and steady MB/s against free flash</h2>\n"
                + "<p class=\"note\">Free flash: the user capacity the FILL phases left unwritten (secure-erased: no"
                + " fill). Steady MB/s: the mean over the last " + STEADY_TAIL_NS / 1_000_000_000L + " s of the first"
                + " TEST phase (all of it when shorter). WA: that phase's NAND / host writes, with the range the"
                + " drive's counter steps allow.</p>\n");
        List<FreeFlashRow> filled =
                rows.stream().filter(r -> r.freeFlashGb() != null).toList();
        double[] x = filled.stream().mapToDouble(FreeFlashRow::freeFlashGb).toArray();
        b.append(SvgChart.lines(
                "WA of the test phase against free flash",
                "free flash (GB)",
                "WA",
                List.of(new SvgChart.Series(
                        "WA",
                        x,
                        filled.stream()
                                .mapToDouble(r -> r.wa() == null ? Double.NaN : r.wa().wa())
                                .toArray(),
                        Palette.WA_CUMULATIVE)),
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
        b.append("<div class=\"table-wrap\">").append(FREE_FLASH.html(rows)).append("</div>\n</section>\n");
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

    /** Mean MB/s (all ops) over the whole windows of the phase's last STEADY_TAIL_NS. */
    static Double steadyMbPerSec(RunData r, PhaseSummary phase) {
        long from = Math.max(phase.getStartNs(), phase.getEndNs() - STEADY_TAIL_NS);
        RunWindows.Line tail = RunWindows.totals(r.windows(), from, phase.getEndNs(), 0, WindowMetrics::getMbPerSec);
        if (tail.isEmpty()) {
            return null;
        }
        double sum = 0;
        for (double v : tail.values()) {
            sum += v;
        }
        return sum / tail.values().length;
    }

    private record SchedulerRow(String device, String scheduler, List<Double> mbPerSec, Double percentOfFirstDevice) {
        double mean() {
            return mbPerSec.stream().mapToDouble(Double::doubleValue).average().orElse(Double.NaN);
        }

        String runs() {
            double mean = mean();
            List<String> parts = new ArrayList<>();
            for (double v : mbPerSec) {
                parts.add(ReportFormat.grouped(v, 1) + String.format(Locale.ROOT, " (%.1f %%)", 100 * v / mean));
            }
            return String.join("; ", parts);
        }
    }

    private static final Table<SchedulerRow> SCHEDULERS = new Table<>(List.of(
            Column.of("device", SchedulerRow::device),
            Column.of("scheduler", SchedulerRow::scheduler),
            Column.of("runs", r -> r.mbPerSec().size()),
            Column.of("each_run_mb_per_s_and_pct_of_mean", SchedulerRow::runs),
            Column.of("mean_mb_per_s", SchedulerRow::mean, 1),
            Column.of("pct_of_first_device", SchedulerRow::percentOfFirstDevice, 1)));

    /** Seed 002: each device and I/O scheduler, its runs' MB/s, the mean and each run as % of it. */
    private static void schedulers(StringBuilder b, List<RunData> runs) {
        Map<List<String>, List<Double>> groups = new LinkedHashMap<>();
        for (RunData r : runs) {
            HostDescription host = r.started() == null ? null : r.started().getHost();
            PhaseSummary test = Scope.firstTest(r.summary());
            if (host == null || host.getIoScheduler() == null || test == null) {
                continue;
            }
            double mbPerSec = Comparison.sum(ReportTables.summaryRows(r.summary(), test), OpSummary::getMbPerSec);
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
        b.append("<section id=\"schedulers\" class=\"card\">\n<h2>I/O schedulers</h2>\n<p class=\"note\">MB/s of each"
                + " run's first TEST phase (all ops), grouped by device and the I/O scheduler the run recorded; each"
                + " run as % of its group's mean; a device's mean as % of the first device's with the same"
                + " scheduler.</p>\n");
        b.append("<div class=\"table-wrap\">").append(SCHEDULERS.html(rows)).append("</div>\n</section>\n");
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

    /** Seed 003: the first TEST phase of runs at different queue depths, side by side, from the phase's start. */
    private static void queueDepths(StringBuilder b, List<RunData> runs) {
        List<QueueDepthRow> rows = new ArrayList<>();
        List<SvgChart.Series> iops = new ArrayList<>();
        for (RunData r : runs) {
            Scope scope = Scope.of(r.summary());
            PhaseSpec spec = scope.spec(r.started());
            if (spec == null) {
                continue;
            }
            for (SummaryRow row : scope.rows()) {
                rows.add(new QueueDepthRow(row, spec.getQueueDepth(), spec.getWorkers()));
            }
            RunWindows.Line line = RunWindows.totals(
                    r.windows(), scope.startNs(), scope.endNs(), scope.startNs(), WindowMetrics::getIops);
            iops.add(new SvgChart.Series(
                    "QD" + spec.getQueueDepth() + " " + r.runId(), line.timeS(), line.values(), null));
        }
        if (rows.stream().map(QueueDepthRow::queueDepth).distinct().count() < 2) {
            return;
        }
        rows.sort(Comparator.comparingInt(QueueDepthRow::queueDepth));
        b.append("<section id=\"queue-depths\" class=\"card\">\n<h2>Queue depths side by side</h2>\n<p class=\"note\">"
                + "The first TEST phase of each run; IOPS of all ops per whole window against time since the phase's"
                + " start.</p>\n");
        b.append(SvgChart.lines(
                "IOPS per window by queue depth",
                "time since the test phase's start (s)",
                "IOPS",
                iops,
                List.of(),
                List.of(),
                false));
        b.append("<div class=\"table-wrap\">").append(QUEUE_DEPTHS.html(rows)).append("</div>\n</section>\n");
    }

    private static double orNaN(Double v) {
        return v == null ? Double.NaN : v;
    }
}
