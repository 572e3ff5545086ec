package dev.ssdpulse.streams.report.html;

import static dev.ssdpulse.streams.report.Table.escapeHtml;

import dev.ssdpulse.schemas.avro.OpSummary;
import dev.ssdpulse.schemas.avro.RunStarted;
import dev.ssdpulse.schemas.avro.RunSummary;
import dev.ssdpulse.schemas.avro.WindowMetrics;
import dev.ssdpulse.schemas.avro.WriteAmplification;
import dev.ssdpulse.schemas.avro.WriteVerification;
import dev.ssdpulse.streams.report.Column;
import dev.ssdpulse.streams.report.Outliers;
import dev.ssdpulse.streams.report.Table;
import dev.ssdpulse.streams.report.WaText;
import dev.ssdpulse.streams.report.chart.ScatterRaster;
import java.util.List;
import java.util.Objects;
import java.util.Set;
import java.util.stream.Collectors;

/**
 * One self-contained HTML file (inline CSS, SVG and PNG, no script, nothing fetched) of a run or a set of runs, a
 * review's figures from stored results. For a set, a comparison first ({@link Comparison}: the headline figures
 * side by side, the load times of REPLAY phases drive by drive ({@link LoadTimes}), the power-loss verifications
 * ({@link Verifications}), IOPS, MB/s, p99 latency and WA
 * over time with a line per run, average against minimum), then the
 * seed articles' set views where the runs are of their kind ({@link SetViews}: free flash, schedulers, queue
 * depths), then each run ({@link RunSection}) with its test setup ({@link SetupBlock}) and its power-loss
 * verification where it has one ({@link Verifications}). Every table is a column
 * set of the reporting model ({@link Table}), so its numbers are the summary's, as in CSV and JSON; for reading
 * they are rounded and their thousands grouped. A WA is written with the range its drive's counter steps allow,
 * or as not yet resolvable, and drawn with that range shaded ({@link WaText}). Page, charts and tables take the
 * width of the window; colours are the dashboard's.
 */
public final class HtmlReport {
    /** The slowest I/Os of each run's scatter listed exactly under it. */
    static final int SLOWEST_LISTED = 10;

    private HtmlReport() {}

    /**
     * What the report shows of one run.
     *
     * @param started  the run's RunStarted (null if it was not found: device, workload, setup and set views then
     *                 lack it)
     * @param summary  the run's summary
     * @param windows  its per-window metrics
     * @param wa       its WA intervals
     * @param scatter  its latency scatter drawn ({@link #scatterRaster}); null: none stored
     * @param verification its latest power-loss verification; null: none
     */
    public record RunData(
            RunStarted started,
            RunSummary summary,
            List<WindowMetrics> windows,
            List<WriteAmplification> wa,
            ScatterRaster.Picture scatter,
            WriteVerification verification) {
        public RunData {
            Objects.requireNonNull(summary, "summary");
            windows = List.copyOf(windows);
            wa = List.copyOf(wa);
        }

        String runId() {
            return summary.getRunId().toString();
        }

        /** The same run with a power-loss verification. */
        public RunData withVerification(WriteVerification v) {
            return new RunData(started, summary, windows, wa, scatter, v);
        }

        /**
         * The unit of the run's WA counters ("B", "NAND page", a vendor's unit): the summary's WA record's, else
         * the last interval's; null without SMART samples.
         */
        String waUnit() {
            if (summary.getWriteAmplification() != null) {
                return summary.getWriteAmplification().getUnit();
            }
            return wa.isEmpty() ? null : wa.get(wa.size() - 1).getUnit();
        }

        /** The run in a legend: its id and drive; a run group by its name. */
        String label() {
            if (summary.getGroup() != null) {
                return "group " + summary.getGroup().getGroup();
            }
            return started == null
                    ? runId()
                    : runId() + " (" + started.getDevice().getModel() + ")";
        }

        /** The run group the run is a member of, or that it is; null for a run on its own. */
        String group() {
            if (summary.getGroup() != null) {
                return summary.getGroup().getGroup().toString();
            }
            return started == null || started.getGroup() == null
                    ? null
                    : started.getGroup().toString();
        }
    }

    /**
     * An empty scatter picture sized and scaled for a run's chart in the report: x its duration, y its summary's
     * latency range; {@link ScatterRaster#add} each stored window, then {@link ScatterRaster#finish} for
     * {@link RunData#scatter}.
     */
    public static ScatterRaster scatterRaster(RunSummary summary) {
        long minNs = Long.MAX_VALUE;
        long maxNs = 0;
        for (OpSummary op : summary.getOps()) {
            if (op.getIoCount() > 0) {
                minNs = Math.min(minNs, op.getLatency().getMinNs());
                maxNs = Math.max(maxNs, op.getLatency().getMaxNs());
            }
        }
        return SvgChart.scatterRaster(
                summary.getDurationNs() / 1e9,
                minNs == Long.MAX_VALUE ? 0 : minNs / 1e6,
                maxNs / 1e6,
                Outliers.THRESHOLDS_NS[0] / 1e6,
                SLOWEST_LISTED);
    }

    private static final Table<RunData> RUNS = new Table<>(List.of(
            Column.of("run_id", RunData::runId),
            Column.of("status", r -> r.summary().getStatus().name()),
            Column.of(
                    "drive",
                    r -> r.started() == null
                            ? null
                            : r.started().getDevice().getModel().toString()),
            Column.of(
                    "workload",
                    r -> r.started() == null
                            ? null
                            : r.started().getWorkload().getName().toString()),
            Column.of("group", RunData::group),
            Column.of(
                    "member",
                    r -> r.started() == null || r.started().getMember() == null
                            ? null
                            : r.started().getMember().toString()),
            Column.of(
                    "host",
                    r -> r.started() == null
                                    || r.started().getHost() == null
                                    || r.started().getHost().getHostname() == null
                            ? null
                            : r.started().getHost().getHostname().toString()),
            Column.of("duration_s", r -> r.summary().getDurationNs() / 1e9, 1),
            Column.of("io_count", r -> r.summary().getIoCount())));

    public static String render(String title, List<RunData> runs) {
        StringBuilder b = new StringBuilder(1 << 16);
        b.append("<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n"
                        + "<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">\n<title>")
                .append(escapeHtml(title))
                .append("</title>\n<style>\n")
                .append(CSS)
                .append("</style>\n</head>\n<body>\n<header><h1>")
                .append(escapeHtml(title))
                .append("</h1><span class=\"subtitle\">ssdpulse report of ")
                .append(runs.size())
                .append(runs.size() == 1 ? " run" : " runs")
                .append("</span></header>\n<main>\n");
        b.append("<p class=\"note\">Times in seconds (since each run's start; in the comparison, since its test"
                + " phase's start). MB = 10^6 bytes, GB = 10^9 bytes, GiB = 2^30 bytes. Latencies in ms in the"
                + " comparison, in µs in the runs' tables. Outlier counts and latency bins are exact, percentiles"
                + " within 0.1 %.</p>\n");
        if (runs.size() > 1) {
            b.append("<section id=\"runs\" class=\"card\">\n<h2>Runs</h2>\n<div class=\"table-wrap\">")
                    .append(RUNS.html(runs))
                    .append("</div>\n<p class=\"note\">");
            for (RunData run : runs) {
                b.append("<a href=\"#run-")
                        .append(escapeHtml(run.runId()))
                        .append("\">")
                        .append(escapeHtml(run.runId()))
                        .append("</a> ");
            }
            b.append("</p>\n</section>\n");
            Comparison.html(b, runs);
            SetViews.html(b, runs);
        }
        Set<String> inReport = runs.stream().map(RunData::runId).collect(Collectors.toSet());
        for (RunData run : runs) {
            RunSection.html(b, run, inReport);
        }
        return b.append("</main>\n</body>\n</html>\n").toString();
    }

    /** The dashboard's look (dashboard/style.css): its colours, type, cards and tables. */
    private static final String CSS = """
            :root { --bg:#f4f6f8; --card:#fff; --ink:#1a202c; --muted:#5a6778; --line:#dde3ea; --accent:#2b6cb0; }
            * { box-sizing: border-box; }
            body { margin:0; font:14px/1.45 system-ui, -apple-system, "Segoe UI", Roboto, "DejaVu Sans", sans-serif;
                   background:var(--bg); color:var(--ink); }
            header { display:flex; align-items:baseline; gap:1rem; padding:.7rem 1.4rem; background:#1f2937;
                     color:#f9fafb; }
            header h1 { margin:0; font-size:1.35rem; letter-spacing:.02em; } header .subtitle { color:#cbd5e0; }
            main { padding:1rem 1.4rem; display:flex; flex-direction:column; gap:1rem; }
            .card { background:var(--card); border:1px solid var(--line); border-radius:8px; padding:1rem 1.2rem;
                    box-shadow:0 1px 2px rgba(0,0,0,.04); min-width:0; }
            h2 { margin:.1rem 0 .5rem; font-size:1.15rem; } h3 { margin:1.1rem 0 .4rem; font-size:1rem; }
            h4 { margin:.8rem 0 .3rem; font-size:.9rem; color:#2d3748; }
            a { color:var(--accent); }
            .note, .facts { color:var(--muted); font-size:.85rem; margin:.2rem 0 .6rem; }
            .table-wrap { overflow-x:auto; }
            table { border-collapse:collapse; font-variant-numeric:tabular-nums; margin:.3rem 0 .8rem; font-size:13px; }
            th, td { padding:.3rem .55rem; border-bottom:1px solid var(--line); text-align:left; vertical-align:top; }
            th { background:#f7fafc; font-weight:600; color:#2d3748; }
            td.num, th.num { text-align:right; white-space:nowrap; }
            table.side-by-side thead th { text-align:right; }
            table.side-by-side thead th:first-child { text-align:left; }
            table.side-by-side tbody th { white-space:nowrap; }
            table.side-by-side td { min-width:9rem; max-width:30rem; }
            .pair { display:grid; grid-template-columns:repeat(auto-fit, minmax(480px, 1fr)); gap:1rem; }
            .pair > * { min-width:0; }
            svg.chart { display:block; width:100%; height:auto; margin:.5rem 0; background:#fff; }
            svg .title { font-size:15px; font-weight:600; fill:#2d3748; }
            svg .tick, svg .axis { font-size:12px; fill:#4a5568; } svg .legend { font-size:12px; fill:#2d3748; }
            svg .value { font-size:11px; fill:#2d3748; } svg .badge text { font-size:11px; fill:#fff; }
            svg .marker { font-size:11px; } svg .empty { fill:#718096; }
            @media print { body { background:#fff; } .card { box-shadow:none; break-inside:avoid-page; } }
            """;
}
