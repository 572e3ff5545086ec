package dev.ssdpulse.streams.report;

import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.ssdpulse.schemas.avro.RunSummary;
import dev.ssdpulse.schemas.avro.SteadyStateVerdict;
import java.util.Locale;

/**
 * The run summary as JSON with stable field names (README "Summary JSON"). The one implementation behind
 * the CLI's {@code --format json} and GET /api/runs/{id}/summary. Its ops, phases and verdicts are rows of the
 * column sets of the summary CSV and the HTML report, the run and its WA JSON-only ones ({@link ReportTables}).
 */
public final class SummaryJson {
    private SummaryJson() {}

    /**
     * @param device   device text (null: field left out)
     * @param workload workload name (null: field left out)
     */
    public static ObjectNode of(RunSummary s, String device, String workload) {
        return ReportTables.SUMMARY_JSON.json(new ReportTables.SummaryDoc(s, device, workload));
    }

    /**
     * The verdict in words: the standard's or fio's verdict, and for fio's criteria whether the steady state held
     * on ("reached at 60 s, lost at 178 s, steady again at 233 s").
     */
    public static String verdictText(SteadyStateVerdict v) {
        StringBuilder b = new StringBuilder(v.getReached() ? "REACHED" : "not reached");
        if (v.getReachedAtNs() != null) {
            b.append(String.format(Locale.ROOT, " at %.0f s", v.getReachedAtNs() / 1e9));
        }
        if (v.getLostAtNs() != null) {
            b.append(String.format(Locale.ROOT, ", LOST at %.0f s", v.getLostAtNs() / 1e9));
            if (Boolean.TRUE.equals(v.getSteadyNow())) {
                b.append(String.format(Locale.ROOT, ", steady again at %.0f s", v.getDecidedAtNs() / 1e9));
            }
        }
        if (!v.getFinalVerdict()) {
            b.append(" (provisional)");
        }
        return b.toString();
    }

    /** The verdict's direction: an op name, or ALL for fio's judgement over all directions together. */
    public static String opName(SteadyStateVerdict v) {
        return v.getAllOps() ? "ALL" : v.getOp().name();
    }
}
