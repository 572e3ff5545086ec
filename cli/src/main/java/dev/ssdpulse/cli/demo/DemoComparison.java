package dev.ssdpulse.cli.demo;

import dev.ssdpulse.schemas.avro.OpSummary;
import dev.ssdpulse.schemas.avro.RunStatus;
import dev.ssdpulse.schemas.avro.RunSummary;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * The demo's closing table: each showcase run's write figures and how it ended. A run the demo cut short
 * ({@code --exit-after}, Ctrl-C) says ABORTED in its row, with why and how much of it ran below the table: its
 * figures are those of a shorter run, not comparable with the others'.
 */
final class DemoComparison {
    private DemoComparison() {}

    /** @param summaries the runs' summaries, by run id; a run without one is listed as such */
    static String format(List<String> runIds, Map<String, RunSummary> summaries) {
        StringBuilder out = new StringBuilder();
        out.append(String.format(
                Locale.ROOT, "%-28s %-10s %10s %10s %10s %8s%n", "run", "status", "WRITE IOPS", "MB/s", "p99", "WA"));
        StringBuilder notes = new StringBuilder();
        for (String runId : runIds) {
            RunSummary s = summaries.get(runId);
            if (s == null) {
                out.append(String.format(Locale.ROOT, "%-28s (no summary yet)%n", runId));
                continue;
            }
            String status = s.getStatus().name();
            OpSummary op = s.getOps().isEmpty() ? null : s.getOps().get(0);
            Double wa = s.getWriteAmplification() == null
                    ? null
                    : s.getWriteAmplification().getWaCumulative();
            out.append(String.format(
                    Locale.ROOT,
                    "%-28s %-10s %10s %10s %10s %8s%n",
                    runId,
                    status,
                    op == null ? "-" : String.format(Locale.ROOT, "%,.0f", op.getIops()),
                    op == null ? "-" : String.format(Locale.ROOT, "%.1f", op.getMbPerSec()),
                    op == null
                            ? "-"
                            : String.format(
                                    Locale.ROOT,
                                    "%.2fms",
                                    op.getLatency().getPercentiles().getP99Ns() / 1e6),
                    wa == null ? "n/a" : String.format(Locale.ROOT, "%.2f", wa)));
            if (s.getStatus() != RunStatus.COMPLETED) {
                notes.append(String.format(
                        Locale.ROOT,
                        "%s %s at %.0f s of run time%s: its figures cover only that part%n",
                        runId,
                        status,
                        s.getDurationNs() / 1e9,
                        s.getReason() == null ? "" : " (" + s.getReason() + ")"));
            }
        }
        return out.append(notes).toString();
    }
}
