package dev.ssdpulse.streams.report;

import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.ssdpulse.schemas.avro.PhaseSummary;
import dev.ssdpulse.schemas.avro.RunSummary;
import dev.ssdpulse.schemas.avro.SteadyStateVerdict;
import dev.ssdpulse.schemas.avro.WriteAmplification;
import java.util.Locale;

/**
 * The run summary as JSON with stable field names (README "Summary JSON"). The one implementation behind
 * the CLI's {@code --format json} and GET /api/runs/{id}/summary. Its ops, phases and verdicts are rows of the
 * column sets of the summary CSV and the HTML report ({@link ReportTables}); the run and its WA are one object.
 */
public final class SummaryJson {
    private static final JsonNodeFactory F = JsonNodeFactory.instance;

    private SummaryJson() {
    }

    /**
     * @param device   device text (null: field left out)
     * @param workload workload name (null: field left out)
     */
    public static ObjectNode of(RunSummary s, String device, String workload) {
        ObjectNode root = F.objectNode();
        root.put("runId", s.getRunId().toString());
        root.put("status", s.getStatus().name());
        root.put("reason", s.getReason() == null ? null : s.getReason().toString());
        root.put("durationNs", s.getDurationNs());
        if (device != null) {
            root.put("device", device);
        }
        if (workload != null) {
            root.put("workload", workload);
        }
        root.put("ioCount", s.getIoCount());
        root.put("ioCountExpected", s.getIoCountExpected());
        root.put("lateIoCount", s.getLateIoCount());
        root.put("duplicateBatchCount", s.getDuplicateBatchCount());
        root.put("ioNotPublished", s.getIoNotPublished());
        WriteAmplification wa = s.getWriteAmplification();
        ObjectNode waNode = root.putObject("writeAmplification");
        if (wa != null) {
            waNode.put("cumulative", wa.getWaCumulative());
            waNode.put("hostBytesWritten", wa.getHostBytesWrittenCumulative());
            waNode.put("nandBytesWritten", wa.getNandBytesWrittenCumulative());
            waNode.put("source", wa.getSource().name());
        } else {
            waNode.putNull("cumulative");
        }
        root.set("ops", ReportTables.OP_JSON.json(ReportTables.summaryRows(s, null)));
        ArrayNode phases = root.putArray("phases");
        for (PhaseSummary phase : s.getPhases()) {
            phases.add(ReportTables.PHASES.json(phase)
                    .set("ops", ReportTables.OP_JSON.json(ReportTables.summaryRows(s, phase))));
        }
        root.set("steadyState", ReportTables.VERDICTS.json(s.getSteadyState()));
        return root;
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
