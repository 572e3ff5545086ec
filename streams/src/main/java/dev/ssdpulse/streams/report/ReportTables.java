package dev.ssdpulse.streams.report;

import dev.ssdpulse.schemas.avro.LatencyStats;
import dev.ssdpulse.schemas.avro.OpSummary;
import dev.ssdpulse.schemas.avro.PhaseSummary;
import dev.ssdpulse.schemas.avro.RunSummary;
import dev.ssdpulse.schemas.avro.WindowMetrics;
import java.util.ArrayList;
import java.util.List;
import java.util.function.Function;

/**
 * The column sets of ssdpulse's tabular outputs, one per kind of row, shared by the HTTP API
 * ({@code summary.csv}, {@code series.csv}), {@code report --format csv} and the offline {@code --series-csv}.
 * Latencies in microseconds, times in seconds, rates in IOPS and MB/s (10^6 bytes); the unit is in the name.
 */
public final class ReportTables {
    private ReportTables() {
    }

    /** One (scope, op) row of a summary: scope "run" (phase columns empty) or "phase". */
    public record SummaryRow(RunSummary summary, String scope, Integer phaseIndex, String phaseName, OpSummary op,
                             Double writeAmplification) {
    }

    /** Run rows first, then each phase's; the WA column holds the run's cumulative or the phase's WA. */
    public static List<SummaryRow> summaryRows(RunSummary s) {
        List<SummaryRow> rows = new ArrayList<>();
        Double runWa = s.getWriteAmplification() == null ? null : s.getWriteAmplification().getWaCumulative();
        for (OpSummary op : s.getOps()) {
            rows.add(new SummaryRow(s, "run", null, null, op, runWa));
        }
        for (PhaseSummary p : s.getPhases()) {
            for (OpSummary op : p.getOps()) {
                rows.add(new SummaryRow(s, "phase", p.getPhaseIndex(), p.getName().toString(), op,
                        p.getWriteAmplification()));
            }
        }
        return rows;
    }

    public static final Table<SummaryRow> SUMMARY = summaryTable();
    /** The summary's percentile columns people read (text summary, HTML report). */
    public static final Table<SummaryRow> LATENCY = SUMMARY.select("op", "io_count", "iops", "mb_per_s",
            "latency_mean_us", "latency_p50_us", "latency_p99_us", "latency_p99_9_us", "latency_p99_99_us",
            "latency_p99_9999_us", "latency_max_us");
    /** The summary's outlier counts (I/Os at or above each of {@link Outliers#THRESHOLDS_NS}). */
    public static final Table<SummaryRow> OUTLIERS = SUMMARY.select(outlierColumns());

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
        c.add(Column.of("io_count", r -> r.op().getIoCount()));
        c.add(Column.of("bytes", r -> r.op().getBytes()));
        c.add(Column.of("iops", r -> r.op().getIops(), 0));
        c.add(Column.of("mb_per_s", r -> r.op().getMbPerSec(), 1));
        c.add(Column.of("errors", r -> r.op().getErrorCount()));
        addLatency(c, r -> r.op().getLatency(), true);
        for (long t : Outliers.THRESHOLDS_NS) {
            c.add(Column.of("count_ge_" + Outliers.label(t), r -> Outliers.countAtOrAbove(r.op().getLatency(), t)));
        }
        c.add(Column.of("wa", SummaryRow::writeAmplification, 2));
        return new Table<>(c);
    }

    /**
     * Per-window rows (the per-second series); with the latency bins of {@code binsFrom} (a window of the same
     * run: every window of a run has the same bins) as columns {@code bin_le_<edge>} and a last {@code bin_gt_<edge>}.
     */
    public static Table<WindowMetrics> windows(WindowMetrics binsFrom) {
        List<Column<WindowMetrics>> c = new ArrayList<>();
        c.add(Column.of("window_start_s", w -> w.getWindowStartNs() / 1e9));
        c.add(Column.of("op", w -> w.getOp().name()));
        c.add(Column.of("phase", WindowMetrics::getPhaseIndex));
        c.add(Column.of("io_count", WindowMetrics::getIoCount));
        c.add(Column.of("window_s", w -> w.getWindowSizeNs() / 1e9));
        c.add(Column.of("bytes", WindowMetrics::getBytes));
        c.add(Column.of("iops", WindowMetrics::getIops, 0));
        c.add(Column.of("mb_per_s", WindowMetrics::getMbPerSec, 1));
        c.add(Column.of("errors", WindowMetrics::getErrorCount));
        addLatency(c, WindowMetrics::getLatency, false);
        if (binsFrom != null) {
            List<Long> bounds = binsFrom.getLatency().getBinUpperBoundsNs();
            int bins = binsFrom.getLatency().getBinCounts().size();
            for (int i = 0; i < bins; i++) {
                int bin = i;
                String name = i < bounds.size() ? "bin_le_" + Outliers.label(bounds.get(i))
                        : "bin_gt_" + Outliers.label(bounds.get(bounds.size() - 1));
                c.add(Column.of(name, w -> bin < w.getLatency().getBinCounts().size()
                        ? w.getLatency().getBinCounts().get(bin) : null));
            }
        }
        return new Table<>(c);
    }

    private static <R> void addLatency(List<Column<R>> c, Function<R, LatencyStats> latency, boolean deepTail) {
        for (LatencyStatistic statistic : deepTail ? LatencyStatistic.SUMMARY : LatencyStatistic.WINDOW) {
            if (deepTail && statistic == LatencyStatistic.MIN) {
                continue; // the summary's tables leave out the minimum (its JSON has it)
            }
            c.add(Column.of(statistic.columnName("us"), r -> {
                Double ns = statistic.valueNsOrNull(latency.apply(r));
                return ns == null ? null : ns / 1e3;
            }, 1));
        }
    }
}
