package dev.ssdpulse.streams.views;

import dev.ssdpulse.schemas.avro.LatencyScatter;
import dev.ssdpulse.schemas.avro.ResultSetStarted;
import dev.ssdpulse.schemas.avro.RunGroup;
import dev.ssdpulse.schemas.avro.RunStarted;
import dev.ssdpulse.schemas.avro.RunSummary;
import dev.ssdpulse.schemas.avro.SteadyStateVerdict;
import dev.ssdpulse.schemas.avro.WindowMetrics;
import dev.ssdpulse.schemas.avro.WriteAmplification;
import dev.ssdpulse.schemas.avro.WriteVerification;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;

/**
 * What the HTTP layer reads: the analytics views of this instance plus the owner of a run. An interface so
 * parsing, routing and rendering can be tested against a small in-memory implementation; production uses
 * {@link AnalyticsViews}. Methods may throw {@link org.apache.kafka.streams.errors.InvalidStateStoreException}
 * while stores are not queryable (the server answers 503).
 */
public interface RunViews {
    Map<String, RunStarted> runs();

    Optional<RunStarted> run(String runId);

    Optional<String> status(String runId);

    Map<String, String> statuses();

    Optional<RunSummary> summary(String runId);

    /** Closed windows of one op (0..3) with fromNs <= windowStartNs <= toNs, in time order. */
    List<WindowMetrics> series(String runId, int op, long fromNs, long toNs);

    /** The latest closed window of one op, if any. */
    Optional<WindowMetrics> lastWindow(String runId, int op);

    /**
     * The newest window of one op that is still open, as its I/Os so far make it (provisional: it changes until it
     * closes, then the closed one in {@link #series} replaces it); no latency histogram.
     */
    default Optional<WindowMetrics> openWindow(String runId, int op) {
        return Optional.empty();
    }

    /**
     * Calls {@code listener} (on an analytics thread: it must only hand the work on) whenever the run's views change
     * on this instance, until the returned handle is closed.
     */
    default AutoCloseable onChange(String runId, Runnable listener) {
        return () -> {};
    }

    /** A run group (key {@code group:NAME}) with its members, on the instance owning the group's key. */
    default Optional<RunGroup> group(String groupId) {
        return Optional.empty();
    }

    /** The run groups whose keys this instance owns, by group id. */
    default Map<String, RunGroup> groups() {
        return Map.of();
    }

    /** Latency scatters of the windows with fromNs <= windowStartNs <= toNs, in time order. */
    List<LatencyScatter> scatter(String runId, long fromNs, long toNs);

    List<SteadyStateVerdict> verdicts(String runId);

    List<WriteAmplification> waSeries(String runId);

    Map<String, Long> deadLetterCounts();

    /**
     * "host:port" (Kafka Streams application.server) of the instance owning the run's views; empty when
     * routing metadata is unavailable (application.server not set, or rebalancing).
     */
    Optional<String> ownerOf(String runId);

    /**
     * "host:port" of every instance of the application (application.server), this one included; empty when
     * routing metadata is unavailable. The run list and dead-letter counts are gathered from all of them.
     */
    default Set<String> instances() {
        return Set.of();
    }

    /** The stored result sets (re-analyses) of a run, by name; the run's own results are not among them. */
    default List<ResultSetStarted> resultSets(String runId) {
        return List.of();
    }

    /**
     * Views of the run read from this instance's standby replica of it, when it keeps one; {@code selfHostPort}
     * is this instance's application.server.
     */
    default Optional<RunViews> standbyReplicaOf(String runId, String selfHostPort) {
        return Optional.empty();
    }

    /** The run's latest power-loss verification ({@code ssdpulse verify}), if it has one. */
    default Optional<WriteVerification> verification(String runId) {
        return Optional.empty();
    }

    /**
     * True when another instance of the application owns the run's (or group's) key: this one has partitions of its
     * own and not that key's. Known without application.server, from the tasks assigned here.
     */
    default boolean ownedElsewhere(String runId) {
        return false;
    }

    /** True when this instance knows the run (its RunStarted or a status). */
    default boolean knows(String runId) {
        return run(runId).isPresent() || status(runId).isPresent();
    }
}
