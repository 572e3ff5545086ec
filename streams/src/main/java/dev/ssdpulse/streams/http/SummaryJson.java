package dev.ssdpulse.streams.http;

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

/**
 * The run summary as JSON with stable field names (README "Summary JSON"). The one implementation behind
 * the CLI's {@code --format json} and GET /api/runs/{id}/summary.
 */
public final class SummaryJson {
    /** Thresholds the seeds count I/Os above (seed 003: 10/30/50/100/200 ms). */
    public static final long[] OUTLIER_THRESHOLDS_NS = {10_000_000L, 30_000_000L, 50_000_000L, 100_000_000L,
            200_000_000L};

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
            n.put("windowStartNs", v.getWindowStartNs());
            n.put("windowEndNs", v.getWindowEndNs());
            n.put("mean", v.getMean());
            n.put("criteria", v.getCriteria().toString());
            n.put("explanation", v.getExplanation().toString());
        }
        return root;
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
            lat.put("mean", l.getCount() == 0 ? 0.0 : (double) l.getSumNs() / l.getCount());
            lat.put("min", l.getMinNs());
            lat.put("max", l.getMaxNs());
            var p = l.getPercentiles();
            lat.put("p50", p.getP50Ns());
            lat.put("p90", p.getP90Ns());
            lat.put("p99", p.getP99Ns());
            lat.put("p99.9", p.getP999Ns());
            lat.put("p99.99", p.getP9999Ns());
            lat.put("p99.999", p.getP99999Ns());
            lat.put("p99.9999", p.getP999999Ns());
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
            for (long threshold : OUTLIER_THRESHOLDS_NS) {
                above.put(latencyLabel(threshold), countAtOrAbove(l, threshold));
            }
        }
    }

    /** I/Os with latency >= thresholdNs, exact from the fixed bins; -1 if the threshold is not a bin edge. */
    public static long countAtOrAbove(LatencyStats latency, long thresholdNs) {
        List<Long> bounds = latency.getBinUpperBoundsNs();
        int edge = bounds.indexOf(thresholdNs);
        if (edge < 0) {
            return -1;
        }
        long count = 0;
        List<Long> bins = latency.getBinCounts();
        for (int i = edge + 1; i < bins.size(); i++) {
            count += bins.get(i);
        }
        return count;
    }

    /** "10ms", "1.5s", "200us": the labels of countAtOrAbove and the CLI's tables. */
    public static String latencyLabel(long ns) {
        if (ns >= 1_000_000_000L) {
            return trim(ns / 1e9) + "s";
        }
        if (ns >= 1_000_000L) {
            return trim(ns / 1e6) + "ms";
        }
        if (ns >= 1_000L) {
            return trim(ns / 1e3) + "us";
        }
        return ns + "ns";
    }

    private static String trim(double v) {
        String s = v >= 100 ? String.format("%.0f", v) : v >= 10 ? String.format("%.1f", v) : String.format("%.2f", v);
        return s.contains(".") ? s.replaceAll("0+$", "").replaceAll("\\.$", "") : s;
    }
}
