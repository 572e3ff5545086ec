package dev.ssdpulse.cli.report;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.SerializationFeature;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.ssdpulse.schemas.avro.LatencyStats;
import dev.ssdpulse.schemas.avro.OpSummary;
import dev.ssdpulse.schemas.avro.PhaseSummary;
import dev.ssdpulse.schemas.avro.RunSummary;
import dev.ssdpulse.schemas.avro.SteadyStateVerdict;
import dev.ssdpulse.schemas.avro.WriteAmplification;

import java.io.PrintWriter;
import java.util.List;
import java.util.Map;

/**
 * Renders a {@link RunSummary} for people (text) and scripts (JSON with stable field names, documented in
 * README: "Summary JSON"). Both the offline simulation and {@code report} print through here.
 */
public final class SummaryRenderer {
    /** Thresholds the seeds count I/Os above (seed 003: 10/30/50/100/200 ms). */
    public static final long[] OUTLIER_THRESHOLDS_NS = {10_000_000L, 30_000_000L, 50_000_000L, 100_000_000L,
            200_000_000L};

    private static final ObjectMapper JSON = new ObjectMapper().enable(SerializationFeature.INDENT_OUTPUT);

    private SummaryRenderer() {
    }

    /** Extra facts a producer knows that the summary record does not carry. */
    public record Context(String device, String workload, Map<Integer, Double> writeAmplificationByPhase) {
    }

    public static void text(RunSummary s, Context context, PrintWriter out) {
        out.printf("run %s: %s%s, %.1f s%n", s.getRunId(), s.getStatus(),
                s.getReason() == null ? "" : " (" + s.getReason() + ")", s.getDurationNs() / 1e9);
        if (context != null) {
            out.printf("  device   : %s%n  workload : %s%n", context.device(), context.workload());
        }
        out.printf("  I/Os     : %,d counted, %,d expected, %,d late, %,d duplicate batches%n", s.getIoCount(),
                s.getIoCountExpected(), s.getLateIoCount(), s.getDuplicateBatchCount());
        WriteAmplification wa = s.getWriteAmplification();
        if (wa != null) {
            out.printf("  WA       : %s (NAND %s / host %s since the first SMART sample; source %s)%n",
                    fmt(wa.getWaCumulative()), bytes(wa.getNandBytesWrittenCumulative()),
                    bytes(wa.getHostBytesWrittenCumulative()), wa.getSource());
        } else {
            out.println("  WA       : unavailable (no usable SMART samples)");
        }
        out.println();
        opTable("whole run", s.getOps(), out);
        for (PhaseSummary phase : s.getPhases()) {
            Double phaseWa = context == null ? null : context.writeAmplificationByPhase().get(phase.getPhaseIndex());
            opTable(String.format("phase %d '%s' (%s), %.1f..%.1f s%s", phase.getPhaseIndex(), phase.getName(),
                    phase.getKind(), phase.getStartNs() / 1e9, phase.getEndNs() / 1e9,
                    phaseWa == null ? "" : ", WA " + fmt(phaseWa)), phase.getOps(), out);
        }
        if (!s.getSteadyState().isEmpty()) {
            out.println("steady state:");
            for (SteadyStateVerdict v : s.getSteadyState()) {
                out.printf("  phase %d %s %s: %s%s — %s%n", v.getPhaseIndex(), v.getOp(), v.getMethod(),
                        v.getReached() ? "REACHED" : "not reached", v.getFinalVerdict() ? "" : " (provisional)",
                        v.getExplanation());
            }
        }
        out.flush();
    }

    private static void opTable(String title, List<OpSummary> ops, PrintWriter out) {
        out.println(title + ":");
        if (ops.isEmpty()) {
            out.println("  (no I/O)");
            return;
        }
        out.printf("  %-5s %12s %10s %9s %10s %10s %10s %10s %10s %10s %10s%n", "op", "I/Os", "IOPS", "MB/s",
                "mean", "p50", "p99", "p99.9", "p99.99", "p99.9999", "max");
        for (OpSummary op : ops) {
            LatencyStats l = op.getLatency();
            var p = l.getPercentiles();
            out.printf("  %-5s %,12d %,10.0f %9.1f %10s %10s %10s %10s %10s %10s %10s%n", op.getOp(), op.getIoCount(),
                    op.getIops(), op.getMbPerSec(), latency(l.getCount() == 0 ? 0 : l.getSumNs() / l.getCount()),
                    latency(p.getP50Ns()), latency(p.getP99Ns()), latency(p.getP999Ns()), latency(p.getP9999Ns()),
                    latency(p.getP999999Ns()), latency(l.getMaxNs()));
        }
        for (OpSummary op : ops) {
            LatencyStats l = op.getLatency();
            StringBuilder above = new StringBuilder();
            for (long threshold : OUTLIER_THRESHOLDS_NS) {
                above.append(String.format("  >%s: %,d", latency(threshold), countAtOrAbove(l, threshold)));
            }
            out.printf("  %-5s outliers%s%n", op.getOp(), above);
        }
        out.println();
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

    public static String json(RunSummary s, Context context) {
        ObjectNode root = JSON.createObjectNode();
        root.put("runId", s.getRunId());
        root.put("status", s.getStatus().name());
        root.put("reason", s.getReason());
        root.put("durationNs", s.getDurationNs());
        if (context != null) {
            root.put("device", context.device());
            root.put("workload", context.workload());
        }
        root.put("ioCount", s.getIoCount());
        root.put("ioCountExpected", s.getIoCountExpected());
        root.put("lateIoCount", s.getLateIoCount());
        root.put("duplicateBatchCount", s.getDuplicateBatchCount());
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
        opsJson(root.putArray("ops"), s.getOps());
        ArrayNode phases = root.putArray("phases");
        for (PhaseSummary phase : s.getPhases()) {
            ObjectNode p = phases.addObject();
            p.put("index", phase.getPhaseIndex());
            p.put("name", phase.getName());
            p.put("kind", phase.getKind().name());
            p.put("startNs", phase.getStartNs());
            p.put("endNs", phase.getEndNs());
            Double phaseWa = context == null ? null : context.writeAmplificationByPhase().get(phase.getPhaseIndex());
            p.put("writeAmplification", phaseWa);
            opsJson(p.putArray("ops"), phase.getOps());
        }
        ArrayNode steady = root.putArray("steadyState");
        for (SteadyStateVerdict v : s.getSteadyState()) {
            ObjectNode n = steady.addObject();
            n.put("phaseIndex", v.getPhaseIndex());
            n.put("op", v.getOp().name());
            n.put("method", v.getMethod().name());
            n.put("reached", v.getReached());
            n.put("final", v.getFinalVerdict());
            n.put("windowStartNs", v.getWindowStartNs());
            n.put("windowEndNs", v.getWindowEndNs());
            n.put("mean", v.getMean());
            n.put("criteria", v.getCriteria());
            n.put("explanation", v.getExplanation());
        }
        try {
            return JSON.writeValueAsString(root);
        } catch (com.fasterxml.jackson.core.JsonProcessingException e) {
            throw new IllegalStateException("cannot render summary JSON", e);
        }
    }

    private static void opsJson(ArrayNode array, List<OpSummary> ops) {
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
                above.put(latency(threshold), countAtOrAbove(l, threshold));
            }
        }
    }

    static String latency(long ns) {
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

    private static String fmt(Double v) {
        return v == null ? "n/a" : String.format("%.2f", v);
    }

    private static String bytes(long b) {
        return String.format("%.2f GB (%.2f GiB)", b / 1e9, b / (double) (1L << 30));
    }
}
