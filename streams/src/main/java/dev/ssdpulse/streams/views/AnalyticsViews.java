package dev.ssdpulse.streams.views;

import dev.ssdpulse.schemas.avro.RunStarted;
import dev.ssdpulse.schemas.avro.RunSummary;
import dev.ssdpulse.schemas.avro.SteadyStateVerdict;
import dev.ssdpulse.schemas.avro.WindowMetrics;
import dev.ssdpulse.schemas.avro.WriteAmplification;
import dev.ssdpulse.streams.topology.Names;
import dev.ssdpulse.streams.topology.StoreKeys;
import dev.ssdpulse.schemas.iobatch.IoOpCode;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.apache.kafka.common.serialization.Serdes;
import org.apache.kafka.streams.KafkaStreams;
import org.apache.kafka.streams.KeyQueryMetadata;
import org.apache.kafka.streams.StoreQueryParameters;
import org.apache.kafka.streams.state.KeyValueIterator;
import org.apache.kafka.streams.state.QueryableStoreTypes;
import org.apache.kafka.streams.state.ReadOnlyKeyValueStore;

/**
 * Read-only queries over the analytics stores of THIS instance (Interactive Queries). With several instances
 * a run's views live on the instance owning its partition: ask {@link #ownerOf(String)} (or
 * {@link #runsOwner(String)} for the runs catalogue) and route there. The runs store holds the runs of the
 * runs-topic partitions this instance owns, so {@link #runs()} is complete only with one instance.
 * Methods throw {@link org.apache.kafka.streams.errors.InvalidStateStoreException} while the stores are not
 * queryable (rebalancing, restoring); callers retry.
 */
public final class AnalyticsViews {
    private final KafkaStreams streams;
    private final boolean standbyReplicas;

    public AnalyticsViews(KafkaStreams streams) {
        this(streams, false);
    }

    private AnalyticsViews(KafkaStreams streams, boolean standbyReplicas) {
        this.streams = streams;
        this.standbyReplicas = standbyReplicas;
    }

    /**
     * The same views read from this instance's standby replicas as well (Kafka Streams' stale stores): possibly
     * behind the owner by what it processed since its last commit, for answering while the owner cannot.
     */
    public AnalyticsViews withStandbyReplicas() {
        return new AnalyticsViews(streams, true);
    }

    /** Whether this instance keeps a standby replica of the run's views. */
    public boolean hostsStandbyOf(String runId, org.apache.kafka.streams.state.HostInfo self) {
        KeyQueryMetadata md = ownerOf(runId);
        return md != null && !md.equals(KeyQueryMetadata.NOT_AVAILABLE) && md.standbyHosts().contains(self);
    }

    /** Every RunStarted in the local runs store, by run id. */
    public Map<String, RunStarted> runs() {
        Map<String, RunStarted> out = new LinkedHashMap<>();
        try (KeyValueIterator<String, RunStarted> it = this.<RunStarted>store(Names.RUNS_STORE).all()) {
            it.forEachRemaining(kv -> out.put(kv.key, kv.value));
        }
        return out;
    }

    public Optional<RunStarted> run(String runId) {
        return Optional.ofNullable(this.<RunStarted>store(Names.RUNS_STORE).get(runId));
    }

    /** RUNNING, COMPLETED, ABORTED, FAILED or INCOMPLETE; empty for a run this instance never saw. */
    public Optional<String> status(String runId) {
        return Optional.ofNullable(this.<String>store(Names.RUN_STATUS_STORE).get(runId));
    }

    /** Every run status known to this instance (runs only: result sets are listed per run). */
    public Map<String, String> statuses() {
        Map<String, String> out = new LinkedHashMap<>();
        try (KeyValueIterator<String, String> it = this.<String>store(Names.RUN_STATUS_STORE).all()) {
            it.forEachRemaining(kv -> {
                if (!dev.ssdpulse.streams.resultsets.ResultSetNames.isAlias(kv.key)) {
                    out.put(kv.key, kv.value);
                }
            });
        }
        return out;
    }

    /** The latest summary (emitted at run end or heartbeat timeout, updated by later SMART samples). */
    public Optional<RunSummary> summary(String runId) {
        return Optional.ofNullable(this.<RunSummary>store(Names.RUN_SUMMARY_STORE).get(runId));
    }

    /** Closed windows of one op with fromNs <= windowStartNs <= toNs, in time order. */
    public List<WindowMetrics> series(String runId, int op, long fromNs, long toNs) {
        IoOpCode.check(op);
        List<WindowMetrics> out = new ArrayList<>();
        try (KeyValueIterator<String, WindowMetrics> it = this.<WindowMetrics>store(Names.WINDOW_SERIES_STORE)
                .range(StoreKeys.window(runId, op, fromNs), StoreKeys.window(runId, op, toNs))) {
            it.forEachRemaining(kv -> out.add(kv.value));
        }
        return out;
    }

    /** Latency scatters of the windows with fromNs <= windowStartNs <= toNs, in time order. */
    public List<dev.ssdpulse.schemas.avro.LatencyScatter> scatter(String runId, long fromNs, long toNs) {
        List<dev.ssdpulse.schemas.avro.LatencyScatter> out = new ArrayList<>();
        try (KeyValueIterator<String, dev.ssdpulse.schemas.avro.LatencyScatter> it =
                     this.<dev.ssdpulse.schemas.avro.LatencyScatter>store(Names.LATENCY_SCATTER_STORE)
                             .range(StoreKeys.scatter(runId, fromNs), StoreKeys.scatter(runId, toNs))) {
            it.forEachRemaining(kv -> out.add(kv.value));
        }
        return out;
    }

    /** Latest steady-state verdict per (phase, op, criterion), by phase then op then criterion. */
    public List<SteadyStateVerdict> verdicts(String runId) {
        List<SteadyStateVerdict> out = new ArrayList<>();
        try (KeyValueIterator<String, SteadyStateVerdict> it = this.<SteadyStateVerdict>store(Names.STEADY_STATE_STORE)
                .range(StoreKeys.runPrefix(runId), StoreKeys.runEnd(runId))) {
            it.forEachRemaining(kv -> out.add(kv.value));
        }
        return out;
    }

    /** WA intervals of a run in time order. */
    public List<WriteAmplification> waSeries(String runId) {
        List<WriteAmplification> out = new ArrayList<>();
        try (KeyValueIterator<String, WriteAmplification> it = this.<WriteAmplification>store(Names.WAF_SERIES_STORE)
                .range(StoreKeys.runPrefix(runId), StoreKeys.runEnd(runId))) {
            it.forEachRemaining(kv -> out.add(kv.value));
        }
        return out;
    }

    /** Stored result sets of a run (their ResultSetStarted), by name. */
    public List<dev.ssdpulse.schemas.avro.ResultSetStarted> resultSets(String runId) {
        List<dev.ssdpulse.schemas.avro.ResultSetStarted> out = new ArrayList<>();
        try (KeyValueIterator<String, dev.ssdpulse.schemas.avro.ResultSetStarted> it =
                     this.<dev.ssdpulse.schemas.avro.ResultSetStarted>store(Names.RESULT_SET_INFO_STORE).range(
                             dev.ssdpulse.streams.resultsets.ResultSetNames.aliasesFrom(runId),
                             dev.ssdpulse.streams.resultsets.ResultSetNames.aliasesTo(runId))) {
            it.forEachRemaining(kv -> out.add(kv.value));
        }
        return out;
    }

    /** Records sent to the dead-letter topic by this instance, by source topic. */
    public Map<String, Long> deadLetterCounts() {
        Map<String, Long> out = new LinkedHashMap<>();
        for (String store : List.of(Names.IO_DEAD_LETTER_COUNT_STORE, Names.SMART_DEAD_LETTER_COUNT_STORE,
                Names.RUNS_DEAD_LETTER_COUNT_STORE, Names.RESULT_SETS_DEAD_LETTER_COUNT_STORE,
                Names.DELETIONS_DEAD_LETTER_COUNT_STORE)) {
            try (KeyValueIterator<String, Long> it = this.<Long>store(store).all()) {
                it.forEachRemaining(kv -> out.merge(kv.key, kv.value, Long::sum));
            }
        }
        return out;
    }

    /** Host (application.server) owning a run's per-run views (summary, series, verdicts, WA, status). */
    public KeyQueryMetadata ownerOf(String runId) {
        return streams.queryMetadataForKey(Names.RUN_STATE_STORE, runId, Serdes.String().serializer());
    }

    /** Host owning a run's entry in the runs store (the runs topic may be partitioned differently). */
    public KeyQueryMetadata runsOwner(String runId) {
        return streams.queryMetadataForKey(Names.RUNS_STORE, runId, Serdes.String().serializer());
    }

    /** A store of this instance by name (active tasks only, or standbys too: {@link #withStandbyReplicas()}). */
    public <V> ReadOnlyKeyValueStore<String, V> store(String name) {
        StoreQueryParameters<ReadOnlyKeyValueStore<String, V>> q = StoreQueryParameters.fromNameAndType(name,
                QueryableStoreTypes.<String, V>keyValueStore());
        return streams.store(standbyReplicas ? q.enableStaleStores() : q);
    }
}
