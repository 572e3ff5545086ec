package dev.ssdpulse.schemas.topics;

import dev.ssdpulse.schemas.avro.GroupEvent;
import dev.ssdpulse.schemas.avro.IoStreamRecord;
import dev.ssdpulse.schemas.avro.LatencyScatter;
import dev.ssdpulse.schemas.avro.ResultSetRecord;
import dev.ssdpulse.schemas.avro.RunDeleted;
import dev.ssdpulse.schemas.avro.RunLatency;
import dev.ssdpulse.schemas.avro.RunStarted;
import dev.ssdpulse.schemas.avro.RunSummary;
import dev.ssdpulse.schemas.avro.SmartSample;
import dev.ssdpulse.schemas.avro.SteadyStateVerdict;
import dev.ssdpulse.schemas.avro.WindowMetrics;
import dev.ssdpulse.schemas.avro.WriteAmplification;
import dev.ssdpulse.schemas.avro.WriteVerification;
import java.util.List;
import java.util.Optional;

/**
 * The topic catalogue: every topic ssdpulse reads or writes. Names are a contract
 * ({@code ssdpulse.<dataset>.v<major>}).
 *
 * <p>All keyed topics are keyed by run id and share one partition count, so one run's records land on the
 * same partition number everywhere and Streams joins/aggregations need no repartition. Raw inputs (runs,
 * io, smart, write-verification) keep data forever: the pipeline is event-sourced and every view can be recomputed
 * from them.
 * Derived outputs can always be recomputed by a replay, so they expire after 30 days, except run
 * summaries, which are small and serve as the record of past runs.
 */
public final class Topics {
    /** Partitions of every keyed topic (they must match for co-partitioned joins). */
    public static final int DEFAULT_PARTITIONS = 6;
    /** Retention of derived output topics: 30 days. */
    public static final long DERIVED_RETENTION_MS = 30L * 24 * 3600 * 1000;

    private static final String RUN_ID_KEY = "run id (UTF-8 string)";

    public static final TopicSpec<RunStarted> RUNS = new TopicSpec<>(
            "ssdpulse.runs.v1",
            RUN_ID_KEY,
            RunStarted.class,
            DEFAULT_PARTITIONS,
            CleanupPolicy.COMPACT,
            TopicSpec.RETAIN_FOREVER,
            "Catalogue of runs: one RunStarted per run (compacted).");

    public static final TopicSpec<IoStreamRecord> IO = new TopicSpec<>(
            "ssdpulse.io.v1",
            RUN_ID_KEY,
            IoStreamRecord.class,
            DEFAULT_PARTITIONS,
            CleanupPolicy.DELETE,
            TopicSpec.RETAIN_FOREVER,
            "Ordered event stream of each run: I/O batches, phase changes, heartbeats, run finished.");

    public static final TopicSpec<SmartSample> SMART = new TopicSpec<>(
            "ssdpulse.smart.v1",
            RUN_ID_KEY,
            SmartSample.class,
            DEFAULT_PARTITIONS,
            CleanupPolicy.DELETE,
            TopicSpec.RETAIN_FOREVER,
            "SMART-style counter samples of each run.");

    /**
     * Targets checked against their run's log after a power cut ({@code ssdpulse verify}): an observation of the
     * device, not derivable from the other topics, so kept forever like them.
     */
    public static final TopicSpec<WriteVerification> WRITE_VERIFICATION = new TopicSpec<>(
            "ssdpulse.write-verification.v1",
            RUN_ID_KEY,
            WriteVerification.class,
            DEFAULT_PARTITIONS,
            CleanupPolicy.DELETE,
            TopicSpec.RETAIN_FOREVER,
            "Power-loss verifications: each unit a run wrote checked on the target after the cut.");

    public static final TopicSpec<WindowMetrics> METRICS_1S = new TopicSpec<>(
            "ssdpulse.metrics-1s.v1",
            RUN_ID_KEY,
            WindowMetrics.class,
            DEFAULT_PARTITIONS,
            CleanupPolicy.DELETE,
            DERIVED_RETENTION_MS,
            "Per-window, per-op IOPS, MB/s and latency (1 s windows by default).");

    public static final TopicSpec<RunLatency> LATENCY = new TopicSpec<>(
            "ssdpulse.latency.v1",
            RUN_ID_KEY,
            RunLatency.class,
            DEFAULT_PARTITIONS,
            CleanupPolicy.DELETE,
            DERIVED_RETENTION_MS,
            "Cumulative latency histograms and bin counts per run, phase and op.");

    /**
     * The per-I/O latency scatter of each run: per window, every I/O at or above a latency threshold and a fixed-size
     * uniform sample of the rest (a 5,000-s QD32 run's 12 M I/Os become ~1 M points).
     */
    public static final TopicSpec<LatencyScatter> LATENCY_SCATTER = new TopicSpec<>(
            "ssdpulse.latency-scatter.v1",
            RUN_ID_KEY,
            LatencyScatter.class,
            DEFAULT_PARTITIONS,
            CleanupPolicy.DELETE,
            DERIVED_RETENTION_MS,
            "Per-window latency scatter: every I/O at or above the threshold plus a uniform sample of the rest.");

    public static final TopicSpec<WriteAmplification> WAF = new TopicSpec<>(
            "ssdpulse.waf.v1",
            RUN_ID_KEY,
            WriteAmplification.class,
            DEFAULT_PARTITIONS,
            CleanupPolicy.DELETE,
            DERIVED_RETENTION_MS,
            "Write amplification per SMART interval and cumulative.");

    public static final TopicSpec<SteadyStateVerdict> STEADY_STATE = new TopicSpec<>(
            "ssdpulse.steady-state.v1",
            RUN_ID_KEY,
            SteadyStateVerdict.class,
            DEFAULT_PARTITIONS,
            CleanupPolicy.DELETE,
            DERIVED_RETENTION_MS,
            "Steady-state verdicts (SNIA PTS and fio-style).");

    public static final TopicSpec<RunSummary> RUN_SUMMARY = new TopicSpec<>(
            "ssdpulse.run-summary.v1",
            RUN_ID_KEY,
            RunSummary.class,
            DEFAULT_PARTITIONS,
            CleanupPolicy.DELETE,
            TopicSpec.RETAIN_FOREVER,
            "Final summary of each run.");

    /**
     * Records that could not be processed. The value is the original bytes unchanged; the reason, the
     * source topic, partition and offset travel in headers (see {@link DeadLetterHeaders}).
     */
    public static final TopicSpec<byte[]> DEAD_LETTER = new TopicSpec<>(
            "ssdpulse.dead-letter.v1",
            "original key bytes (run id when the source topic is keyed by run id)",
            byte[].class,
            DEFAULT_PARTITIONS,
            CleanupPolicy.DELETE,
            DERIVED_RETENTION_MS,
            "Records that failed to deserialize or process; original bytes, reason in headers.");

    /**
     * Named re-analyses of stored runs ({@code ssdpulse replay --as NAME}), materialized by the live analytics
     * beside each run's own results. Kept forever like the raw topics they derive from: a result set is what a
     * user chose to keep.
     */
    public static final TopicSpec<ResultSetRecord> RESULT_SETS = new TopicSpec<>(
            "ssdpulse.result-sets.v1",
            RUN_ID_KEY,
            ResultSetRecord.class,
            DEFAULT_PARTITIONS,
            CleanupPolicy.DELETE,
            TopicSpec.RETAIN_FOREVER,
            "Named re-analyses of stored runs (ResultSetStarted, then the outputs).");

    /**
     * Runs deleted by the user ({@code ssdpulse runs delete}); compacted, one marker per run, kept forever so that
     * a rebuild of the views from the raw topics drops the run again.
     */
    public static final TopicSpec<RunDeleted> RUN_DELETIONS = new TopicSpec<>(
            "ssdpulse.run-deletions.v1",
            RUN_ID_KEY,
            RunDeleted.class,
            DEFAULT_PARTITIONS,
            CleanupPolicy.COMPACT,
            TopicSpec.RETAIN_FOREVER,
            "Deleted runs: the analytics drop their views and ignore their raw events.");

    /**
     * The events of run-group members, forwarded by the analytics to their group's partition (key {@code group:NAME},
     * co-partitioned with the runs' topics), where the group's analysis merges them. Written and read by the
     * analytics only; recomputable from the io topic, so it expires like a derived output.
     */
    public static final TopicSpec<GroupEvent> GROUP_EVENTS = new TopicSpec<>(
            "ssdpulse.group-events.v1",
            "group id 'group:' + name (UTF-8 string)",
            GroupEvent.class,
            DEFAULT_PARTITIONS,
            CleanupPolicy.DELETE,
            DERIVED_RETENTION_MS,
            "Events of run-group members, by group, for the group's analysis (internal to the analytics).");

    private static final List<TopicSpec<?>> ALL = List.of(
            RUNS,
            IO,
            SMART,
            WRITE_VERIFICATION,
            METRICS_1S,
            LATENCY,
            LATENCY_SCATTER,
            WAF,
            STEADY_STATE,
            RUN_SUMMARY,
            DEAD_LETTER,
            RESULT_SETS,
            RUN_DELETIONS,
            GROUP_EVENTS);

    private Topics() {}

    /** Every topic, inputs first. */
    public static List<TopicSpec<?>> all() {
        return ALL;
    }

    /** The raw input topics (event-sourcing log, kept forever). */
    public static List<TopicSpec<?>> inputs() {
        return List.of(RUNS, IO, SMART, WRITE_VERIFICATION);
    }

    /** The topic with this exact name, if it is in the catalogue. */
    public static Optional<TopicSpec<?>> byName(String name) {
        for (TopicSpec<?> spec : ALL) {
            if (spec.name().equals(name)) {
                return Optional.of(spec);
            }
        }
        return Optional.empty();
    }

    /** The topic with this exact name; a clear error listing the known names otherwise. */
    public static TopicSpec<?> require(String name) {
        return byName(name)
                .orElseThrow(() -> new IllegalArgumentException("unknown topic '" + name + "'; known topics: "
                        + ALL.stream().map(TopicSpec::name).toList()));
    }
}
