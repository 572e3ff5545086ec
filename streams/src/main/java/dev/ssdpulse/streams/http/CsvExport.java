package dev.ssdpulse.streams.http;

import dev.ssdpulse.schemas.avro.RunSummary;
import dev.ssdpulse.schemas.avro.WindowMetrics;
import dev.ssdpulse.streams.report.ReportTables;
import dev.ssdpulse.streams.views.RunViews;
import java.util.ArrayList;
import java.util.List;

/** The API's CSV bodies, in the column sets of {@link ReportTables}. */
public final class CsvExport {
    private CsvExport() {}

    /** The windows of the query's ops and time range, op by op. */
    public static String series(SeriesQuery q, String runId, RunViews views) {
        List<WindowMetrics> windows = new ArrayList<>();
        for (int op : q.ops()) {
            windows.addAll(views.series(runId, op, q.fromNs(), q.toNs()));
        }
        return ReportTables.windows(windows.isEmpty() ? null : windows.get(0)).csv(windows);
    }

    /** One row per (scope, op): the whole run, then each phase. */
    public static String summary(RunSummary s) {
        return ReportTables.SUMMARY.csv(ReportTables.summaryRows(s));
    }
}
