package dev.ssdpulse.cli.run;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.SerializationFeature;
import dev.ssdpulse.schemas.avro.PhaseSummary;
import dev.ssdpulse.schemas.avro.ReplayPhaseResult;
import dev.ssdpulse.schemas.avro.RunSummary;
import dev.ssdpulse.schemas.avro.SteadyStateVerdict;
import dev.ssdpulse.schemas.avro.WriteAmplification;
import dev.ssdpulse.streams.report.ReportTables;
import dev.ssdpulse.streams.report.ReportTables.SummaryRow;
import dev.ssdpulse.streams.report.SummaryJson;
import dev.ssdpulse.streams.report.WaText;
import dev.ssdpulse.streams.waf.PhaseWa;
import java.io.PrintWriter;
import java.util.List;
import java.util.Locale;
import java.util.Objects;

/**
 * Renders a {@link RunSummary} for people (text) and scripts (JSON with stable field names, documented in
 * docs/data-model.md, "Run summary JSON"). The offline simulation, {@code report} and {@code replay} print through
 * here. The text's tables are columns of {@link ReportTables#SUMMARY}, the column set of {@code report --format csv}
 * and
 * the API's {@code summary.csv}: the same cells, rounded for reading. Locale-independent.
 */
public final class SummaryRenderer {
    private static final ObjectMapper JSON = new ObjectMapper().enable(SerializationFeature.INDENT_OUTPUT);

    private SummaryRenderer() {}

    /** Extra facts a producer knows that the summary record does not carry. */
    public record Context(String device, String workload) {}

    public static void text(RunSummary s, Context context, PrintWriter out) {
        out.print(String.format(
                Locale.ROOT,
                "run %s: %s%s, %.1f s%n",
                s.getRunId(),
                s.getStatus(),
                s.getReason() == null ? "" : " (" + s.getReason() + ")",
                s.getDurationNs() / 1e9));
        if (context != null) {
            out.print(String.format(
                    Locale.ROOT, "  device   : %s%n  workload : %s%n", context.device(), context.workload()));
        }
        out.print(String.format(
                Locale.ROOT,
                "  I/Os     : %d counted, %d expected, %d late, %d duplicate batches," + " %d not published%n",
                s.getIoCount(),
                s.getIoCountExpected(),
                s.getLateIoCount(),
                s.getDuplicateBatchCount(),
                s.getIoNotPublished()));
        WriteAmplification wa = s.getWriteAmplification();
        if (wa != null) {
            out.println("  WA       : " + waLine(wa));
        } else {
            out.println("  WA       : unavailable (no usable SMART samples)");
        }
        out.println();
        List<SummaryRow> rows = ReportTables.summaryRows(s);
        opTables("whole run", rows.stream().filter(r -> r.phaseIndex() == null).toList(), out);
        for (PhaseSummary phase : s.getPhases()) {
            String phaseWa = WaText.text(WaText.of(phase));
            opTables(
                    String.format(
                            Locale.ROOT,
                            "phase %d '%s' (%s), %.1f..%.1f s%s%s",
                            phase.getPhaseIndex(),
                            phase.getName(),
                            phase.getKind(),
                            phase.getStartNs() / 1e9,
                            phase.getEndNs() / 1e9,
                            phaseWa == null ? "" : ", WA " + phaseWa,
                            loadTime(phase)),
                    rows.stream()
                            .filter(r -> Objects.equals(r.phaseIndex(), phase.getPhaseIndex()))
                            .toList(),
                    out);
        }
        if (!s.getSteadyState().isEmpty()) {
            out.println("steady state:");
            for (SteadyStateVerdict v : s.getSteadyState()) {
                out.println("  phase " + v.getPhaseIndex() + " " + SummaryJson.opName(v) + " " + v.getMethod() + ": "
                        + SummaryJson.verdictText(v) + " — " + v.getExplanation());
            }
        }
        out.flush();
    }

    /**
     * The run's cumulative WA with its range and the counters it is the ratio of, in their unit: "1.45 (1.43 to
     * 1.47, resolved; NAND 12.35 GB (11.50 GiB) / host 8.51 GB (7.93 GiB) since the first SMART sample, host
     * counter step 32 MiB, NAND 1 GiB; source SMARTCTL)", "not yet resolvable (1.20 to 1.90; ...)", the counters
     * "in NAND pages" where the drive counts pages.
     */
    static String waLine(WriteAmplification wa) {
        PhaseWa cumulative = WaText.cumulative(wa);
        String range = WaText.range(cumulative, " to ");
        StringBuilder b = new StringBuilder();
        if (cumulative == null) {
            b.append("n/a (");
        } else if (WaText.unresolved(cumulative)) {
            b.append("not yet resolvable (").append(range == null ? "" : range + "; ");
        } else {
            b.append(fmt(cumulative.wa())).append(" (").append(range == null ? "" : range + ", resolved; ");
        }
        return b.append(WaText.counters(wa))
                .append(" since the first SMART sample, ")
                .append(WaText.steps(wa))
                .append("; source ")
                .append(wa.getSource())
                .append(')')
                .toString();
    }

    /**
     * A REPLAY phase's result as people read it: ", load time 12.345 s (trace x.iolog, 5,000 I/Os, recorded timing
     * x1: 3 issued late, issue lag p50 12 us, p99 250 us)".
     */
    static String loadTime(PhaseSummary phase) {
        if (phase.getLoadTimeNs() == null) {
            return "";
        }
        StringBuilder b =
                new StringBuilder(String.format(Locale.ROOT, ", load time %.3f s", phase.getLoadTimeNs() / 1e9));
        ReplayPhaseResult r = phase.getReplay();
        if (r != null) {
            b.append(String.format(
                    Locale.ROOT,
                    " (trace %s, %,d of %,d I/Os issued, ",
                    r.getTrace(),
                    r.getIssuedIoCount(),
                    r.getTraceIoCount()));
            if (r.getRecordedTiming()) {
                b.append(String.format(
                        Locale.ROOT,
                        "%s: %,d issued more than %.0f ms late, issue lag p50 %.0f us, p99 %.0f us)",
                        ReportTables.replayTiming(r),
                        r.getLateIssueCount(),
                        r.getLateThresholdNs() / 1e6,
                        r.getIssueLagP50Ns() / 1e3,
                        r.getIssueLagP99Ns() / 1e3));
            } else {
                b.append(ReportTables.replayTiming(r)).append(')');
            }
        }
        return b.toString();
    }

    private static void opTables(String title, List<SummaryRow> rows, PrintWriter out) {
        out.println(title + ":");
        if (rows.isEmpty()) {
            out.println("  (no I/O)");
            return;
        }
        ReportTables.LATENCY.text(out, rows, "  ");
        ReportTables.OUTLIERS.text(out, rows, "  ");
        out.println();
    }

    /** The stable summary JSON; one implementation shared with the HTTP API ({@link SummaryJson}). */
    public static String json(RunSummary s, Context context) {
        try {
            return JSON.writeValueAsString(SummaryJson.of(
                    s, context == null ? null : context.device(), context == null ? null : context.workload()));
        } catch (JsonProcessingException e) {
            throw new IllegalStateException("cannot render summary JSON", e);
        }
    }

    private static String fmt(Double v) {
        return v == null ? "n/a" : String.format(Locale.ROOT, "%.2f", v);
    }
}
