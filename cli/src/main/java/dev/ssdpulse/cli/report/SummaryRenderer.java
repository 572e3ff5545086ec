package dev.ssdpulse.cli.report;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.SerializationFeature;
import dev.ssdpulse.schemas.avro.LatencyStats;
import dev.ssdpulse.schemas.avro.OpSummary;
import dev.ssdpulse.schemas.avro.PhaseSummary;
import dev.ssdpulse.schemas.avro.RunSummary;
import dev.ssdpulse.schemas.avro.SteadyStateVerdict;
import dev.ssdpulse.schemas.avro.WriteAmplification;
import dev.ssdpulse.streams.http.SummaryJson;
import dev.ssdpulse.streams.report.Outliers;

import java.io.PrintWriter;
import java.util.List;
import java.util.Locale;

/**
 * Renders a {@link RunSummary} for people (text) and scripts (JSON with stable field names, documented in
 * README: "Summary JSON"). Both the offline simulation and {@code report} print through here.
 */
public final class SummaryRenderer {
    private static final ObjectMapper JSON = new ObjectMapper().enable(SerializationFeature.INDENT_OUTPUT);

    private SummaryRenderer() {
    }

    /** Extra facts a producer knows that the summary record does not carry. */
    public record Context(String device, String workload) {
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
            Double phaseWa = phase.getWriteAmplification();
            opTable(String.format("phase %d '%s' (%s), %.1f..%.1f s%s", phase.getPhaseIndex(), phase.getName(),
                    phase.getKind(), phase.getStartNs() / 1e9, phase.getEndNs() / 1e9,
                    phaseWa == null ? "" : ", WA " + fmt(phaseWa)), phase.getOps(), out);
        }
        if (!s.getSteadyState().isEmpty()) {
            out.println("steady state:");
            for (SteadyStateVerdict v : s.getSteadyState()) {
                out.printf("  phase %d %s %s: %s — %s%n", v.getPhaseIndex(), SummaryJson.opName(v), v.getMethod(),
                        SummaryJson.verdictText(v), v.getExplanation());
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
            for (long threshold : Outliers.THRESHOLDS_NS) {
                above.append(String.format("  >%s: %,d", latency(threshold), Outliers.countAtOrAbove(l, threshold)));
            }
            out.printf("  %-5s outliers%s%n", op.getOp(), above);
        }
        out.println();
    }

    /** The stable summary JSON; one implementation shared with the HTTP API ({@link SummaryJson}). */
    public static String json(RunSummary s, Context context) {
        try {
            return JSON.writeValueAsString(SummaryJson.of(s, context == null ? null : context.device(),
                    context == null ? null : context.workload()));
        } catch (com.fasterxml.jackson.core.JsonProcessingException e) {
            throw new IllegalStateException("cannot render summary JSON", e);
        }
    }

    static String latency(long ns) {
        return Outliers.label(ns);
    }

    private static String fmt(Double v) {
        return v == null ? "n/a" : String.format(Locale.ROOT, "%.2f", v);
    }

    private static String bytes(long b) {
        return String.format("%.2f GB (%.2f GiB)", b / 1e9, b / (double) (1L << 30));
    }
}
