package dev.ssdpulse.streams.http.metrics;

import dev.ssdpulse.schemas.avro.GroupMember;
import dev.ssdpulse.schemas.avro.LatencyStats;
import dev.ssdpulse.schemas.avro.RunGroup;
import dev.ssdpulse.schemas.avro.SteadyStateVerdict;
import dev.ssdpulse.schemas.avro.WindowMetrics;
import dev.ssdpulse.schemas.avro.WriteAmplification;
import dev.ssdpulse.schemas.iobatch.IoOpCode;
import dev.ssdpulse.streams.views.RunViews;
import io.prometheus.metrics.model.registry.MultiCollector;
import io.prometheus.metrics.model.snapshots.GaugeSnapshot;
import io.prometheus.metrics.model.snapshots.GaugeSnapshot.GaugeDataPointSnapshot;
import io.prometheus.metrics.model.snapshots.Labels;
import io.prometheus.metrics.model.snapshots.MetricSnapshot;
import io.prometheus.metrics.model.snapshots.MetricSnapshots;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * Per-run gauges read from the views on every scrape (nothing is cached, so a scrape always shows the
 * latest closed window). "Current" values are those of the last closed window of each op, which lags the
 * run by the window size plus the time until every worker's I/Os of it are in (the grace, where the producer
 * does not say). A run group has the same gauges under its key ({@code run_id="group:NAME"}), merged over its
 * members, and each member's share of the group's I/Os.
 */
public final class RunMetricsCollector implements MultiCollector {
    static final List<String> STATUSES = List.of("RUNNING", "COMPLETED", "ABORTED", "FAILED", "INCOMPLETE", "PARTIAL");

    private final RunViews views;

    public RunMetricsCollector(RunViews views) {
        this.views = views;
    }

    @Override
    public MetricSnapshots collect() {
        Map<String, GaugeSnapshot.Builder> gauges = new LinkedHashMap<>();
        gauge(gauges, "ssdpulse_run_iops", "I/Os per second of the last closed window");
        gauge(gauges, "ssdpulse_run_mb_per_second", "MB (10^6 bytes) per second of the last closed window");
        gauge(gauges, "ssdpulse_run_latency_p50_seconds", "median latency of the last closed window");
        gauge(gauges, "ssdpulse_run_latency_p99_seconds", "99th percentile latency of the last closed window");
        gauge(gauges, "ssdpulse_run_latency_p999_seconds", "99.9th percentile latency of the last closed window");
        gauge(gauges, "ssdpulse_run_latency_max_seconds", "maximum latency of the last closed window");
        gauge(gauges, "ssdpulse_run_window_start_seconds", "run time at which the last closed window starts");
        gauge(gauges, "ssdpulse_run_write_amplification", "cumulative write amplification (NAND / host bytes)");
        gauge(
                gauges,
                "ssdpulse_run_steady_state",
                "1 when the run's latest phase is in steady state now (a fio criterion that still holds, or a "
                        + "reached SNIA verdict)");
        gauge(gauges, "ssdpulse_run_status", "1 for the run's current status (RUNNING, COMPLETED, ...), 0 otherwise");
        gauge(gauges, "ssdpulse_dead_letter_records", "records sent to the dead-letter topic, by source topic");
        gauge(gauges, "ssdpulse_group_member_io_share", "a run group member's share of the group's I/Os (0..1)");

        for (Map.Entry<String, String> run : views.statuses().entrySet()) {
            String runId = run.getKey();
            for (String status : STATUSES) {
                point(
                        gauges,
                        "ssdpulse_run_status",
                        status.equals(run.getValue()) ? 1 : 0,
                        "run_id",
                        runId,
                        "status",
                        status);
            }
            for (int op = 0; op < IoOpCode.COUNT; op++) {
                Optional<WindowMetrics> last = views.lastWindow(runId, op);
                if (last.isEmpty()) {
                    continue;
                }
                WindowMetrics w = last.get();
                LatencyStats l = w.getLatency();
                String opName = IoOpCode.name(op);
                point(gauges, "ssdpulse_run_iops", w.getIops(), "run_id", runId, "op", opName);
                point(gauges, "ssdpulse_run_mb_per_second", w.getMbPerSec(), "run_id", runId, "op", opName);
                point(
                        gauges,
                        "ssdpulse_run_latency_p50_seconds",
                        l.getPercentiles().getP50Ns() / 1e9,
                        "run_id",
                        runId,
                        "op",
                        opName);
                point(
                        gauges,
                        "ssdpulse_run_latency_p99_seconds",
                        l.getPercentiles().getP99Ns() / 1e9,
                        "run_id",
                        runId,
                        "op",
                        opName);
                point(
                        gauges,
                        "ssdpulse_run_latency_p999_seconds",
                        l.getPercentiles().getP999Ns() / 1e9,
                        "run_id",
                        runId,
                        "op",
                        opName);
                point(gauges, "ssdpulse_run_latency_max_seconds", l.getMaxNs() / 1e9, "run_id", runId, "op", opName);
                point(
                        gauges,
                        "ssdpulse_run_window_start_seconds",
                        w.getWindowStartNs() / 1e9,
                        "run_id",
                        runId,
                        "op",
                        opName);
            }
            List<WriteAmplification> wa = views.waSeries(runId);
            if (!wa.isEmpty() && wa.get(wa.size() - 1).getWaCumulative() != null) {
                point(
                        gauges,
                        "ssdpulse_run_write_amplification",
                        wa.get(wa.size() - 1).getWaCumulative(),
                        "run_id",
                        runId);
            }
            steadyState(views.verdicts(runId))
                    .ifPresent(reached -> point(gauges, "ssdpulse_run_steady_state", reached ? 1 : 0, "run_id", runId));
        }
        for (RunGroup group : views.groups().values()) {
            for (GroupMember m : group.getMembers()) {
                point(
                        gauges,
                        "ssdpulse_group_member_io_share",
                        m.getIoShare(),
                        "group",
                        group.getGroup(),
                        "member",
                        m.getMember(),
                        "host",
                        m.getHost() == null ? "" : m.getHost(),
                        "run_id",
                        m.getRunId());
            }
        }
        for (Map.Entry<String, Long> dl : views.deadLetterCounts().entrySet()) {
            point(gauges, "ssdpulse_dead_letter_records", dl.getValue(), "source", dl.getKey());
        }
        List<MetricSnapshot> out = new ArrayList<>();
        gauges.values().forEach(b -> out.add(b.build()));
        return new MetricSnapshots(out);
    }

    /**
     * Steady now if any verdict of the latest phase with verdicts says so: fio's criteria by whether they still hold
     * (a steady state can be lost), SNIA's by its verdict; empty without verdicts.
     */
    static Optional<Boolean> steadyState(List<SteadyStateVerdict> verdicts) {
        int latestPhase = verdicts.stream()
                .mapToInt(SteadyStateVerdict::getPhaseIndex)
                .max()
                .orElse(-1);
        if (latestPhase < 0) {
            return Optional.empty();
        }
        return Optional.of(verdicts.stream()
                .anyMatch(v -> v.getPhaseIndex() == latestPhase
                        && (v.getSteadyNow() != null ? v.getSteadyNow() : v.getReached())));
    }

    private static void gauge(Map<String, GaugeSnapshot.Builder> gauges, String name, String help) {
        gauges.put(name, GaugeSnapshot.builder().name(name).help(help));
    }

    private static void point(Map<String, GaugeSnapshot.Builder> gauges, String name, double value, String... labels) {
        gauges.get(name)
                .dataPoint(GaugeDataPointSnapshot.builder()
                        .value(value)
                        .labels(Labels.of(labels))
                        .build());
    }
}
