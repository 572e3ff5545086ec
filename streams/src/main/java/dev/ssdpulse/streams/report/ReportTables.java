package dev.ssdpulse.streams.report;

import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import dev.ssdpulse.schemas.avro.LatencyStats;
import dev.ssdpulse.schemas.avro.OpSummary;
import dev.ssdpulse.schemas.avro.PhaseSummary;
import dev.ssdpulse.schemas.avro.ReplayPhaseResult;
import dev.ssdpulse.schemas.avro.RunSummary;
import dev.ssdpulse.schemas.avro.SteadyStateVerdict;
import dev.ssdpulse.schemas.avro.WindowMetrics;
import dev.ssdpulse.schemas.avro.WriteAmplification;
import dev.ssdpulse.streams.waf.PhaseWa;
import java.math.BigDecimal;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.function.Function;

/**
 * The column sets of ssdpulse's tabular outputs, one per kind of row, shared by the HTTP API (summary and series,
 * JSON and CSV, and the event stream), {@code report} (text, CSV, JSON), the HTML report and the offline output.
 * In CSV and text latencies are in microseconds, times in seconds, rates in IOPS and MB/s (10^6 bytes), the unit
 * in the name; the JSON keys are the API's (API.md, README "Summary JSON"), the unit in the key or its document.
 */
public final class ReportTables {
    private static final JsonNodeFactory F = JsonNodeFactory.instance;

    private ReportTables() {}

    /**
     * One (scope, op) row of a summary: scope "run" (phase columns empty) or "phase"; its WA with the range the
     * counters' steps allow (null: none).
     */
    public record SummaryRow(
            RunSummary summary, String scope, Integer phaseIndex, String phaseName, OpSummary op, PhaseWa wa) {}

    /** Run rows first, then each phase's; the WA column holds the run's cumulative or the phase's WA. */
    public static List<SummaryRow> summaryRows(RunSummary s) {
        List<SummaryRow> rows = new ArrayList<>(summaryRows(s, null));
        s.getPhases().forEach(p -> rows.addAll(summaryRows(s, p)));
        return rows;
    }

    /** The rows of one phase, or (phase null) of the run. */
    public static List<SummaryRow> summaryRows(RunSummary s, PhaseSummary p) {
        if (p == null) {
            PhaseWa runWa = WaText.cumulative(s.getWriteAmplification());
            return s.getOps().stream()
                    .map(op -> new SummaryRow(s, "run", null, null, op, runWa))
                    .toList();
        }
        return p.getOps().stream()
                .map(op -> new SummaryRow(
                        s, "phase", p.getPhaseIndex(), p.getName().toString(), op, WaText.of(p)))
                .toList();
    }

    public static final Table<SummaryRow> SUMMARY = summaryTable();
    /** The summary's percentile columns people read (text summary, HTML report). */
    public static final Table<SummaryRow> LATENCY = SUMMARY.select(
            "op",
            "io_count",
            "iops",
            "mb_per_s",
            "latency_mean_us",
            "latency_p50_us",
            "latency_p99_us",
            "latency_p99_9_us",
            "latency_p99_99_us",
            "latency_p99_9999_us",
            "latency_max_us");
    /** The summary's outlier counts (I/Os at or above each of {@link Outliers#THRESHOLDS_NS}). */
    public static final Table<SummaryRow> OUTLIERS = SUMMARY.select(outlierColumns());
    /** An op of the summary JSON (README "Summary JSON"): latency in ns, with the bins and outlier counts. */
    public static final Table<SummaryRow> OP_JSON = SUMMARY.selectJson(
            "op", "ioCount", "bytes", "iops", "mbPerSec", "errorCount", "latencyNs", "latencyBins", "countAtOrAbove");
    /** A window as a point of the API's series (API.md): time in s, latency in ms, the bin counts as an array. */
    public static final Table<WindowMetrics> POINT = windows(null)
            .selectJson(
                    "t", "windowS", "phase", "ioCount", "bytes", "iops", "mbPerSec", "errorCount", "latencyMs", "bins");

    /** A REPLAY phase's issue result in the summary JSON (README "Summary JSON"): times in ns. */
    private static final Table<ReplayPhaseResult> REPLAY = new Table<>(List.of(
            Column.jsonOnly("trace", ReplayPhaseResult::getTrace),
            Column.jsonOnly("timing", r -> r.getRecordedTiming() ? "recorded" : "fast"),
            Column.jsonOnly("timeScale", ReplayPhaseResult::getTimeScale),
            Column.jsonOnly("traceIoCount", ReplayPhaseResult::getTraceIoCount),
            Column.jsonOnly("issuedIoCount", ReplayPhaseResult::getIssuedIoCount),
            Column.jsonOnly("lateIssueCount", ReplayPhaseResult::getLateIssueCount),
            Column.jsonOnly("lateThresholdNs", ReplayPhaseResult::getLateThresholdNs),
            Column.jsonOnly("issueLagNs/p50", ReplayPhaseResult::getIssueLagP50Ns),
            Column.jsonOnly("issueLagNs/p99", ReplayPhaseResult::getIssueLagP99Ns),
            Column.jsonOnly("issueLagNs/max", ReplayPhaseResult::getIssueLagMaxNs)));

    /** How a REPLAY phase was timed, as people read it: "recorded timing x1", "recorded timing x2.5", "fast timing". */
    public static String replayTiming(ReplayPhaseResult r) {
        return r.getRecordedTiming()
                ? "recorded timing x"
                        + BigDecimal.valueOf(r.getTimeScale())
                                .stripTrailingZeros()
                                .toPlainString()
                : "fast timing";
    }

    /** A run's phases: the HTML report's table, and the summary JSON's phases (their ops added). */
    public static final Table<PhaseSummary> PHASES = new Table<>(List.of(
            Column.of("phase", "index", PhaseSummary::getPhaseIndex),
            Column.of("name", p -> p.getName().toString()),
            Column.of("kind", p -> p.getKind().name()),
            Column.<PhaseSummary>of("start_s", p -> p.getStartNs() / 1e9, 1).json("startNs", PhaseSummary::getStartNs),
            Column.<PhaseSummary>of("end_s", p -> p.getEndNs() / 1e9, 1).json("endNs", PhaseSummary::getEndNs),
            // the HTML table's cell with the range the counters allow; the JSON's the number, its range beside it
            Column.<PhaseSummary>of("wa", p -> WaText.text(WaText.of(p)))
                    .json("writeAmplification", PhaseSummary::getWriteAmplification),
            Column.jsonOnly("writeAmplificationLow", PhaseSummary::getWriteAmplificationLow),
            Column.jsonOnly("writeAmplificationHigh", PhaseSummary::getWriteAmplificationHigh),
            Column.jsonOnly("writeAmplificationResolved", PhaseSummary::getWriteAmplificationResolved),
            Column.<PhaseSummary>of("load_time_s", p -> p.getLoadTimeNs() == null ? null : p.getLoadTimeNs() / 1e9, 3)
                    .json("loadTimeNs", PhaseSummary::getLoadTimeNs),
            Column.<PhaseSummary>of(
                            "late_issues",
                            p -> p.getReplay() == null || !p.getReplay().getRecordedTiming()
                                    ? null
                                    : p.getReplay().getLateIssueCount())
                    .withoutJson(),
            Column.jsonOnly("replay", p -> p.getReplay() == null ? null : REPLAY.json(p.getReplay()))));

    /**
     * A run's steady-state verdicts: the HTML report's table, and the summary JSON's (booleans and times in ns
     * there; a NaN mean as Jackson writes a NaN double, "NaN", as it always was).
     */
    public static final Table<SteadyStateVerdict> VERDICTS = new Table<>(List.of(
            Column.of("phase", "phaseIndex", SteadyStateVerdict::getPhaseIndex),
            Column.of("op", SummaryJson::opName),
            Column.jsonOnly("allOps", SteadyStateVerdict::getAllOps),
            Column.of("method", v -> v.getMethod().name()),
            Column.jsonOnly("reached", SteadyStateVerdict::getReached),
            Column.jsonOnly("final", SteadyStateVerdict::getFinalVerdict),
            Column.jsonOnly("steadyNow", SteadyStateVerdict::getSteadyNow),
            Column.jsonOnly("reachedAtNs", SteadyStateVerdict::getReachedAtNs),
            Column.jsonOnly("lostAtNs", SteadyStateVerdict::getLostAtNs),
            Column.<SteadyStateVerdict>of("verdict", SummaryJson::verdictText).withoutJson(),
            Column.<SteadyStateVerdict>of("window_start_s", v -> v.getWindowStartNs() / 1e9, 0)
                    .json("windowStartNs", SteadyStateVerdict::getWindowStartNs),
            Column.<SteadyStateVerdict>of("window_end_s", v -> v.getWindowEndNs() / 1e9, 0)
                    .json("windowEndNs", SteadyStateVerdict::getWindowEndNs),
            Column.<SteadyStateVerdict>of("mean", SteadyStateVerdict::getMean, 1)
                    .json("mean", v -> F.numberNode(v.getMean())),
            Column.of("criteria", v -> v.getCriteria().toString()),
            Column.of("explanation", v -> v.getExplanation().toString())));

    /** The summary document: device and workload text when known (null: the field is left out). */
    public record SummaryDoc(RunSummary summary, String device, String workload) {}

    /**
     * The summary's WA: cumulative over the run, the range its counters' steps allow (high null: no upper bound
     * yet) and whether it is resolved (the range within 5 %; shown as "not yet resolvable" until then). The byte
     * totals are in unit ("B" but for drives that count NAND pages or a vendor unit).
     */
    private static final Table<WriteAmplification> SUMMARY_WA = new Table<>(List.of(
            Column.jsonOnly("cumulative", WriteAmplification::getWaCumulative),
            Column.jsonOnly("low", WriteAmplification::getWaCumulativeLow),
            Column.jsonOnly("high", WriteAmplification::getWaCumulativeHigh),
            Column.jsonOnly("resolved", WriteAmplification::getWaCumulativeResolved),
            Column.jsonOnly("unit", WriteAmplification::getUnit),
            Column.jsonOnly("hostBytesWritten", WriteAmplification::getHostBytesWrittenCumulative),
            Column.jsonOnly("nandBytesWritten", WriteAmplification::getNandBytesWrittenCumulative),
            Column.jsonOnly("source", w -> w.getSource().name())));

    /** The run summary as JSON (README "Summary JSON"): the run, its WA, its ops, phases and verdicts. */
    public static final Table<SummaryDoc> SUMMARY_JSON = new Table<>(List.of(
            Column.jsonOnly("runId", d -> d.summary().getRunId().toString()),
            Column.jsonOnly("status", d -> d.summary().getStatus().name()),
            Column.jsonOnly("reason", d -> d.summary().getReason()),
            Column.jsonOnly("durationNs", d -> d.summary().getDurationNs()),
            Column.jsonOnly("device", d -> Optional.ofNullable(d.device())),
            Column.jsonOnly("workload", d -> Optional.ofNullable(d.workload())),
            Column.jsonOnly("ioCount", d -> d.summary().getIoCount()),
            Column.jsonOnly("ioCountExpected", d -> d.summary().getIoCountExpected()),
            Column.jsonOnly("lateIoCount", d -> d.summary().getLateIoCount()),
            Column.jsonOnly("duplicateBatchCount", d -> d.summary().getDuplicateBatchCount()),
            Column.jsonOnly("ioNotPublished", d -> d.summary().getIoNotPublished()),
            // before the first SMART sample the object says only that there is no WA yet
            Column.jsonOnly(
                    "writeAmplification",
                    d -> d.summary().getWriteAmplification() == null
                            ? F.objectNode().putNull("cumulative")
                            : SUMMARY_WA.json(d.summary().getWriteAmplification())),
            Column.jsonOnly("ops", d -> OP_JSON.json(summaryRows(d.summary(), null))),
            Column.jsonOnly(
                    "phases",
                    d -> d.summary().getPhases().stream()
                            .map(p -> PHASES.json(p).set("ops", OP_JSON.json(summaryRows(d.summary(), p))))
                            .toList()),
            Column.jsonOnly("steadyState", d -> VERDICTS.json(d.summary().getSteadyState()))));

    /** A latency bin of the summary JSON: {@code toNs} null for the last, open one. */
    private record Bin(long fromNs, Long toNs, long count) {}

    private static final Table<Bin> BINS = new Table<>(
            List.of(Column.of("fromNs", Bin::fromNs), Column.of("toNs", Bin::toNs), Column.of("count", Bin::count)));

    private static List<Bin> bins(LatencyStats l) {
        List<Long> bounds = l.getBinUpperBoundsNs();
        List<Bin> bins = new ArrayList<>();
        for (int i = 0; i < l.getBinCounts().size(); i++) {
            bins.add(new Bin(
                    i == 0 ? 0 : bounds.get(i - 1),
                    i < bounds.size() ? bounds.get(i) : null,
                    l.getBinCounts().get(i)));
        }
        return bins;
    }

    private static String[] outlierColumns() {
        List<String> names = new ArrayList<>(List.of("op"));
        for (long threshold : Outliers.THRESHOLDS_NS) {
            names.add("count_ge_" + Outliers.label(threshold));
        }
        return names.toArray(String[]::new);
    }

    private static Table<SummaryRow> summaryTable() {
        List<Column<SummaryRow>> c = new ArrayList<>();
        c.add(Column.of("run_id", r -> r.summary().getRunId().toString()));
        c.add(Column.of("status", r -> r.summary().getStatus().name()));
        c.add(Column.of("scope", SummaryRow::scope));
        c.add(Column.of("phase_index", SummaryRow::phaseIndex));
        c.add(Column.of("phase_name", SummaryRow::phaseName));
        c.add(Column.of("op", r -> r.op().getOp().name()));
        c.add(Column.of("io_count", "ioCount", r -> r.op().getIoCount()));
        c.add(Column.of("bytes", r -> r.op().getBytes()));
        c.add(Column.of("iops", r -> r.op().getIops(), 0));
        c.add(Column.of("mb_per_s", "mbPerSec", r -> r.op().getMbPerSec(), 1));
        c.add(Column.of("errors", "errorCount", r -> r.op().getErrorCount()));
        addLatency(c, r -> r.op().getLatency(), true);
        c.add(Column.jsonOnly("latencyBins", r -> BINS.json(bins(r.op().getLatency()))));
        for (long t : Outliers.THRESHOLDS_NS) {
            c.add(Column.of(
                    "count_ge_" + Outliers.label(t),
                    "countAtOrAbove/" + Outliers.label(t),
                    r -> Outliers.countAtOrAbove(r.op().getLatency(), t)));
        }
        c.add(Column.of("wa", r -> r.wa() == null ? null : r.wa().wa(), 2));
        return new Table<>(c);
    }

    /**
     * Per-window rows (the per-second series); with the latency bins of {@code binsFrom} (a window of the same
     * run: every window of a run has the same bins) as columns {@code bin_le_<edge>} and a last {@code bin_gt_<edge>}.
     */
    public static Table<WindowMetrics> windows(WindowMetrics binsFrom) {
        List<Column<WindowMetrics>> c = new ArrayList<>();
        c.add(Column.of("window_start_s", "t", w -> w.getWindowStartNs() / 1e9));
        c.add(Column.of("op", w -> w.getOp().name()));
        c.add(Column.of("phase", WindowMetrics::getPhaseIndex));
        c.add(Column.of("io_count", "ioCount", WindowMetrics::getIoCount));
        c.add(Column.of("window_s", "windowS", w -> w.getWindowSizeNs() / 1e9));
        c.add(Column.of("bytes", WindowMetrics::getBytes));
        c.add(Column.of("iops", WindowMetrics::getIops, 0));
        c.add(Column.of("mb_per_s", "mbPerSec", WindowMetrics::getMbPerSec, 1));
        c.add(Column.of("errors", "errorCount", WindowMetrics::getErrorCount));
        addLatency(c, WindowMetrics::getLatency, false);
        c.add(Column.jsonOnly("bins", w -> w.getLatency().getBinCounts()));
        if (binsFrom != null) {
            List<Long> bounds = binsFrom.getLatency().getBinUpperBoundsNs();
            int bins = binsFrom.getLatency().getBinCounts().size();
            for (int i = 0; i < bins; i++) {
                int bin = i;
                String name = i < bounds.size()
                        ? "bin_le_" + Outliers.label(bounds.get(i))
                        : "bin_gt_" + Outliers.label(bounds.get(bounds.size() - 1));
                c.add(Column.of(
                        name,
                        w -> bin < w.getLatency().getBinCounts().size()
                                ? w.getLatency().getBinCounts().get(bin)
                                : null));
            }
        }
        return new Table<>(c);
    }

    /**
     * The latency columns: µs in CSV and text (the mean of no I/Os empty). In JSON a summary's are in ns (integers
     * but the mean), a window's in ms, with the dashboard's key "p999" for the 99.9th percentile; the mean of no
     * I/Os is 0 there.
     */
    private static <R> void addLatency(List<Column<R>> c, Function<R, LatencyStats> latency, boolean summary) {
        for (LatencyStatistic statistic : summary ? LatencyStatistic.SUMMARY : LatencyStatistic.WINDOW) {
            Column<R> column = Column.of(
                    statistic.columnName("us"),
                    r -> {
                        Double ns = statistic.valueNsOrNull(latency.apply(r));
                        return ns == null ? null : ns / 1e3;
                    },
                    1);
            if (summary) {
                column = column.json("latencyNs/" + statistic.jsonKey(), r -> {
                    double ns = statistic.valueNs(latency.apply(r));
                    return statistic == LatencyStatistic.MEAN ? (Object) ns : (Object) (long) ns;
                });
            } else {
                String key = statistic == LatencyStatistic.P99_9 ? "p999" : statistic.jsonKey();
                column = column.json("latencyMs/" + key, r -> statistic.valueNs(latency.apply(r)) / 1e6);
            }
            // the summary's tables leave out the minimum (its JSON has it)
            c.add(summary && statistic == LatencyStatistic.MIN ? column.jsonOnly() : column);
        }
    }
}
