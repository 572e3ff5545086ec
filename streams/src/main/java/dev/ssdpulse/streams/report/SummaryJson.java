package dev.ssdpulse.streams.report;

import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.ssdpulse.schemas.avro.LatencyStats;
import dev.ssdpulse.schemas.avro.OpSummary;
import dev.ssdpulse.schemas.avro.PhaseSummary;
import dev.ssdpulse.schemas.avro.RunSummary;
import dev.ssdpulse.schemas.avro.SteadyStateVerdict;
import dev.ssdpulse.schemas.avro.WriteAmplification;
import java.util.List;
import java.util.Locale;

/**
 * The run summary as JSON with stable field names (README "Summary JSON"). The one implementation behind
 * the CLI's {@code --format json} and GET /api/runs/{id}/summary.
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
        ops(root.putArray("ops"), s.getOps());
        ArrayNode phases = root.putArray("phases");
        for (PhaseSummary phase : s.getPhases()) {
            ObjectNode p = phases.addObject();
            p.put("index", phase.getPhaseIndex());
            p.put("name", phase.getName().toString());
            p.put("kind", phase.getKind().name());
            p.put("startNs", phase.getStartNs());
            p.put("endNs", phase.getEndNs());
            p.put("writeAmplification", phase.getWriteAmplification());
            ops(p.putArray("ops"), phase.getOps());
        }
        ArrayNode steady = root.putArray("steadyState");
        for (SteadyStateVerdict v : s.getSteadyState()) {
            ObjectNode n = steady.addObject();
            n.put("phaseIndex", v.getPhaseIndex());
            n.put("op", opName(v));
            n.put("allOps", v.getAllOps());
            n.put("method", v.getMethod().name());
            n.put("reached", v.getReached());
            n.put("final", v.getFinalVerdict());
            n.put("steadyNow", v.getSteadyNow());
            n.put("reachedAtNs", v.getReachedAtNs());
            n.put("lostAtNs", v.getLostAtNs());
            n.put("windowStartNs", v.getWindowStartNs());
            n.put("windowEndNs", v.getWindowEndNs());
            n.put("mean", v.getMean());
            n.put("criteria", v.getCriteria().toString());
            n.put("explanation", v.getExplanation().toString());
        }
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

    private static void ops(ArrayNode array, List<OpSummary> ops) {
        for (OpSummary op : ops) {
            ObjectNode o = array.addObject();
            LatencyStats l = op.getLatency();
            o.put("op", op.getOp().name());
            o.put("ioCount", op.getIoCount());
            o.put("bytes", op.getBytes());
            o.put("iops", op.getIops());
            o.put("mbPerSec", op.getMbPerSec());
            o.put("errorCount", op.getErrorCount());
            ObjectNode lat = o.putObject("latencyNs");
            for (LatencyStatistic statistic : LatencyStatistic.SUMMARY) {
                if (statistic == LatencyStatistic.MEAN) {
                    lat.put(statistic.jsonKey(), statistic.valueNs(l));
                } else {
                    lat.put(statistic.jsonKey(), (long) statistic.valueNs(l));
                }
            }
            ArrayNode bins = o.putArray("latencyBins");
            List<Long> bounds = l.getBinUpperBoundsNs();
            for (int i = 0; i < l.getBinCounts().size(); i++) {
                ObjectNode b = bins.addObject();
                b.put("fromNs", i == 0 ? 0 : bounds.get(i - 1));
                if (i < bounds.size()) {
                    b.put("toNs", bounds.get(i));
                } else {
                    b.putNull("toNs");
                }
                b.put("count", l.getBinCounts().get(i));
            }
            ObjectNode above = o.putObject("countAtOrAbove");
            for (long threshold : Outliers.THRESHOLDS_NS) {
                above.put(Outliers.label(threshold), Outliers.countAtOrAbove(l, threshold));
            }
        }
    }
}
