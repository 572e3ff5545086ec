package dev.ssdpulse.streams.http;

import dev.ssdpulse.schemas.avro.LatencyStats;
import dev.ssdpulse.schemas.avro.OpSummary;
import dev.ssdpulse.schemas.avro.PhaseSummary;
import dev.ssdpulse.schemas.avro.RunSummary;
import dev.ssdpulse.schemas.avro.WindowMetrics;
import dev.ssdpulse.streams.window.IoOps;
import java.util.List;

/** CSV (RFC 4180, header row, '.' decimals) of a series and of a summary; latencies in ms. */
public final class CsvExport {
    private CsvExport() {
    }

    public static String series(SeriesQuery q, String runId, RunViews views) {
        StringBuilder out = new StringBuilder();
        boolean header = false;
        for (int op : q.ops()) {
            for (WindowMetrics w : views.series(runId, op, q.fromNs(), q.toNs())) {
                LatencyStats l = w.getLatency();
                if (!header) {
                    out.append("op,t_s,window_s,phase,io_count,bytes,iops,mb_per_sec,errors,lat_mean_ms,lat_min_ms,"
                            + "lat_max_ms,lat_p50_ms,lat_p90_ms,lat_p99_ms,lat_p999_ms");
                    List<Long> bounds = l.getBinUpperBoundsNs();
                    for (int i = 0; i < l.getBinCounts().size(); i++) {
                        out.append(",bin_").append(i < bounds.size()
                                ? "le_" + SummaryJson.latencyLabel(bounds.get(i))
                                : "gt_" + SummaryJson.latencyLabel(bounds.get(bounds.size() - 1)));
                    }
                    out.append("\r\n");
                    header = true;
                }
                out.append(IoOps.name(op)).append(',').append(num(w.getWindowStartNs() / 1e9)).append(',')
                        .append(num(w.getWindowSizeNs() / 1e9)).append(',').append(w.getPhaseIndex()).append(',')
                        .append(w.getIoCount()).append(',').append(w.getBytes()).append(',').append(num(w.getIops()))
                        .append(',').append(num(w.getMbPerSec())).append(',').append(w.getErrorCount()).append(',')
                        .append(num(l.getCount() == 0 ? 0 : l.getSumNs() / (double) l.getCount() / 1e6)).append(',')
                        .append(num(l.getMinNs() / 1e6)).append(',').append(num(l.getMaxNs() / 1e6)).append(',')
                        .append(num(l.getPercentiles().getP50Ns() / 1e6)).append(',')
                        .append(num(l.getPercentiles().getP90Ns() / 1e6)).append(',')
                        .append(num(l.getPercentiles().getP99Ns() / 1e6)).append(',')
                        .append(num(l.getPercentiles().getP999Ns() / 1e6));
                for (Long c : l.getBinCounts()) {
                    out.append(',').append(c);
                }
                out.append("\r\n");
            }
        }
        if (!header) {
            out.append("op,t_s,window_s,phase,io_count,bytes,iops,mb_per_sec,errors\r\n");
        }
        return out.toString();
    }

    /** One row per (scope, op): scope "run" or "phase <index> <name>". */
    public static String summary(RunSummary s) {
        StringBuilder out = new StringBuilder("run_id,status,scope,op,io_count,bytes,iops,mb_per_sec,errors,"
                + "lat_mean_ms,lat_p50_ms,lat_p99_ms,lat_p999_ms,lat_p9999_ms,lat_max_ms");
        for (long t : SummaryJson.OUTLIER_THRESHOLDS_NS) {
            out.append(",count_ge_").append(SummaryJson.latencyLabel(t));
        }
        out.append(",wa_cumulative\r\n");
        String wa = s.getWriteAmplification() == null || s.getWriteAmplification().getWaCumulative() == null ? ""
                : num(s.getWriteAmplification().getWaCumulative());
        rows(out, s, "run", s.getOps(), wa);
        for (PhaseSummary p : s.getPhases()) {
            rows(out, s, "phase " + p.getPhaseIndex() + " " + p.getName(), p.getOps(), "");
        }
        return out.toString();
    }

    private static void rows(StringBuilder out, RunSummary s, String scope, List<OpSummary> ops, String wa) {
        for (OpSummary op : ops) {
            LatencyStats l = op.getLatency();
            out.append(quote(s.getRunId().toString())).append(',').append(s.getStatus()).append(',')
                    .append(quote(scope)).append(',').append(op.getOp()).append(',').append(op.getIoCount())
                    .append(',').append(op.getBytes()).append(',').append(num(op.getIops())).append(',')
                    .append(num(op.getMbPerSec())).append(',').append(op.getErrorCount()).append(',')
                    .append(num(l.getCount() == 0 ? 0 : l.getSumNs() / (double) l.getCount() / 1e6)).append(',')
                    .append(num(l.getPercentiles().getP50Ns() / 1e6)).append(',')
                    .append(num(l.getPercentiles().getP99Ns() / 1e6)).append(',')
                    .append(num(l.getPercentiles().getP999Ns() / 1e6)).append(',')
                    .append(num(l.getPercentiles().getP9999Ns() / 1e6)).append(',')
                    .append(num(l.getMaxNs() / 1e6));
            for (long t : SummaryJson.OUTLIER_THRESHOLDS_NS) {
                out.append(',').append(SummaryJson.countAtOrAbove(l, t));
            }
            out.append(',').append(wa).append("\r\n");
        }
    }

    static String quote(String v) {
        if (v.indexOf(',') < 0 && v.indexOf('"') < 0 && v.indexOf('\n') < 0 && v.indexOf('\r') < 0) {
            return v;
        }
        return '"' + v.replace("\"", "\"\"") + '"';
    }

    /** At most 6 decimals, no exponent, no trailing zeros (String.format was 5x slower on 10,000-row series). */
    static String num(double v) {
        if (!Double.isFinite(v)) {
            return "";
        }
        if (v == Math.rint(v) && Math.abs(v) < 1e15) {
            return Long.toString((long) v);
        }
        String s = java.math.BigDecimal.valueOf(v).setScale(6, java.math.RoundingMode.HALF_UP).stripTrailingZeros()
                .toPlainString();
        return s.equals("-0") ? "0" : s;
    }
}
