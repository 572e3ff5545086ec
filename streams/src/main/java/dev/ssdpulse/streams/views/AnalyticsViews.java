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
import dev.ssdpulse.schemas.iobatch.IoOpCode;
import dev.ssdpulse.schemas.topics.Topics;
import dev.ssdpulse.streams.resultsets.ResultSetNames;
import dev.ssdpulse.streams.topology.Names;
import dev.ssdpulse.streams.topology.StoreKeys;
import dev.ssdpulse.streams.topology.ViewChanges;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.TreeSet;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.IntSupplier;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.serialization.Serdes;
import org.apache.kafka.common.utils.Utils;
import org.apache.kafka.streams.KafkaStreams;
import org.apache.kafka.streams.KeyQueryMetadata;
import org.apache.kafka.streams.StoreQueryParameters;
import org.apache.kafka.streams.StreamsMetadata;
import org.apache.kafka.streams.TaskMetadata;
import org.apache.kafka.streams.ThreadMetadata;
import org.apache.kafka.streams.state.HostInfo;
import org.apache.kafka.streams.state.KeyValueIterator;
import org.apache.kafka.streams.state.QueryableStoreTypes;
import org.apache.kafka.streams.state.ReadOnlyKeyValueStore;

/**
 * Read-only queries over the analytics stores of THIS instance (Interactive Queries): the {@link RunViews} of a
 * running analytics application. With several instances a run's views live on the instance owning its partition:
 * ask {@link #ownerOf(String)} and route there. The runs store holds the runs of the runs-topic partitions this
 * instance owns, so {@link #runs()} is complete only with one instance.
 * Methods throw {@link org.apache.kafka.streams.errors.InvalidStateStoreException} while the stores are not
 * queryable (rebalancing, restoring); callers retry.
 */
public final class AnalyticsViews implements RunViews {
    private final KafkaStreams streams;
    private final boolean standbyReplicas;
    private final ViewChanges changes;
    private final IntSupplier ioPartitions;

    public AnalyticsViews(KafkaStreams streams) {
        this(streams, ViewChanges.none());
    }

    /** @param changes where the application's processors announce view changes */
    public AnalyticsViews(KafkaStreams streams, ViewChanges changes) {
        this(streams, changes, Topics.IO::defaultPartitions);
    }

    /**
     * @param changes      where the application's processors announce view changes
     * @param ioPartitions the partition count of ssdpulse.io.v1 in the cluster, asked once it answers (0 or less:
     *                     not known yet, asked again next time)
     */
    public AnalyticsViews(KafkaStreams streams, ViewChanges changes, IntSupplier ioPartitions) {
        this(streams, false, changes, once(ioPartitions));
    }

    private AnalyticsViews(
            KafkaStreams streams, boolean standbyReplicas, ViewChanges changes, IntSupplier ioPartitions) {
        this.streams = streams;
        this.standbyReplicas = standbyReplicas;
        this.changes = changes;
        this.ioPartitions = ioPartitions;
    }

    /** The first positive answer, kept: a topic's partition count only grows with an admin's change. */
    private static IntSupplier once(IntSupplier supplier) {
        AtomicInteger known = new AtomicInteger();
        return () -> {
            int n = known.get();
            if (n <= 0) {
                n = supplier.getAsInt();
                known.set(n);
            }
            return n;
        };
    }

    /**
     * The same views read from this instance's standby replica of the run, when it keeps one (Kafka Streams' stale
     * stores): possibly behind the owner by what it processed since its last commit, for answering while the
     * owner cannot.
     */
    @Override
    public Optional<RunViews> standbyReplicaOf(String runId, String selfHostPort) {
        int colon = selfHostPort.lastIndexOf(':');
        HostInfo self =
                new HostInfo(selfHostPort.substring(0, colon), Integer.parseInt(selfHostPort.substring(colon + 1)));
        int partition = partitionOf(runId);
        TopicPartition tp = new TopicPartition(Topics.IO.name(), partition);
        boolean standbyHere = partition >= 0
                && streams.metadataForAllStreamsClients().stream()
                        .anyMatch(c -> c.hostInfo().equals(self)
                                && c.standbyTopicPartitions().contains(tp));
        return standbyHere ? Optional.of(new AnalyticsViews(streams, true, changes, ioPartitions)) : Optional.empty();
    }

    /** Every RunStarted in the local runs store, by run id. */
    @Override
    public Map<String, RunStarted> runs() {
        Map<String, RunStarted> out = new LinkedHashMap<>();
        try (KeyValueIterator<String, RunStarted> it =
                this.<RunStarted>store(Names.RUNS_STORE).all()) {
            it.forEachRemaining(kv -> out.put(kv.key, kv.value));
        }
        return out;
    }

    @Override
    public Optional<RunStarted> run(String runId) {
        return Optional.ofNullable(this.<RunStarted>store(Names.RUNS_STORE).get(runId));
    }

    /** RUNNING, COMPLETED, ABORTED, FAILED or INCOMPLETE; empty for a run this instance never saw. */
    @Override
    public Optional<String> status(String runId) {
        return Optional.ofNullable(this.<String>store(Names.RUN_STATUS_STORE).get(runId));
    }

    /** Every run status known to this instance (runs only: result sets are listed per run). */
    @Override
    public Map<String, String> statuses() {
        Map<String, String> out = new LinkedHashMap<>();
        try (KeyValueIterator<String, String> it =
                this.<String>store(Names.RUN_STATUS_STORE).all()) {
            it.forEachRemaining(kv -> {
                if (!ResultSetNames.isAlias(kv.key)) {
                    out.put(kv.key, kv.value);
                }
            });
        }
        return out;
    }

    /** The latest summary (emitted at run end or heartbeat timeout, updated by later SMART samples). */
    @Override
    public Optional<RunSummary> summary(String runId) {
        return Optional.ofNullable(
                this.<RunSummary>store(Names.RUN_SUMMARY_STORE).get(runId));
    }

    /** Closed windows of one op with fromNs <= windowStartNs <= toNs, in time order. */
    @Override
    public List<WindowMetrics> series(String runId, int op, long fromNs, long toNs) {
        IoOpCode.check(op);
        return values(
                Names.WINDOW_SERIES_STORE, StoreKeys.window(runId, op, fromNs), StoreKeys.window(runId, op, toNs));
    }

    /** The newest window of one op still open (provisional: its I/Os so far), if any. */
    @Override
    public Optional<WindowMetrics> openWindow(String runId, int op) {
        IoOpCode.check(op);
        return Optional.ofNullable(
                this.<WindowMetrics>store(Names.OPEN_WINDOW_STORE).get(StoreKeys.openWindow(runId, op)));
    }

    @Override
    public AutoCloseable onChange(String runId, Runnable listener) {
        return changes.listen(runId, listener);
    }

    @Override
    public Optional<RunGroup> group(String groupId) {
        return Optional.ofNullable(this.<RunGroup>store(Names.RUN_GROUP_STORE).get(groupId));
    }

    @Override
    public Map<String, RunGroup> groups() {
        Map<String, RunGroup> out = new LinkedHashMap<>();
        try (KeyValueIterator<String, RunGroup> it =
                this.<RunGroup>store(Names.RUN_GROUP_STORE).all()) {
            it.forEachRemaining(kv -> out.put(kv.key, kv.value));
        }
        return out;
    }

    /** The latest closed window of one op: a reverse scan, so /metrics and the run list never read a series. */
    @Override
    public Optional<WindowMetrics> lastWindow(String runId, int op) {
        try (KeyValueIterator<String, WindowMetrics> it = this.<WindowMetrics>store(Names.WINDOW_SERIES_STORE)
                .reverseRange(
                        StoreKeys.window(runId, op, Long.MIN_VALUE), StoreKeys.window(runId, op, Long.MAX_VALUE))) {
            return it.hasNext() ? Optional.of(it.next().value) : Optional.empty();
        }
    }

    @Override
    public List<LatencyScatter> scatter(String runId, long fromNs, long toNs) {
        return values(Names.LATENCY_SCATTER_STORE, StoreKeys.scatter(runId, fromNs), StoreKeys.scatter(runId, toNs));
    }

    /** Latest steady-state verdict per (phase, op, criterion), by phase then op then criterion. */
    @Override
    public List<SteadyStateVerdict> verdicts(String runId) {
        return values(Names.STEADY_STATE_STORE, StoreKeys.runPrefix(runId), StoreKeys.runEnd(runId));
    }

    /** WA intervals of a run in time order. */
    @Override
    public List<WriteAmplification> waSeries(String runId) {
        return values(Names.WAF_SERIES_STORE, StoreKeys.runPrefix(runId), StoreKeys.runEnd(runId));
    }

    @Override
    public Optional<WriteVerification> verification(String runId) {
        return Optional.ofNullable(
                this.<WriteVerification>store(Names.VERIFICATION_STORE).get(runId));
    }

    /** Stored result sets of a run (their ResultSetStarted), by name. */
    @Override
    public List<ResultSetStarted> resultSets(String runId) {
        return values(Names.RESULT_SET_INFO_STORE, ResultSetNames.aliasesFrom(runId), ResultSetNames.aliasesTo(runId));
    }

    /** The values of a store's keys from..to (inclusive), in key order. */
    private <V> List<V> values(String store, String from, String to) {
        List<V> out = new ArrayList<>();
        try (KeyValueIterator<String, V> it = this.<V>store(store).range(from, to)) {
            it.forEachRemaining(kv -> out.add(kv.value));
        }
        return out;
    }

    /** Records sent to the dead-letter topic by this instance, by source topic. */
    @Override
    public Map<String, Long> deadLetterCounts() {
        Map<String, Long> out = new LinkedHashMap<>();
        for (String store : List.of(
                Names.IO_DEAD_LETTER_COUNT_STORE,
                Names.SMART_DEAD_LETTER_COUNT_STORE,
                Names.RUNS_DEAD_LETTER_COUNT_STORE,
                Names.RESULT_SETS_DEAD_LETTER_COUNT_STORE,
                Names.DELETIONS_DEAD_LETTER_COUNT_STORE,
                Names.VERIFICATIONS_DEAD_LETTER_COUNT_STORE)) {
            try (KeyValueIterator<String, Long> it = this.<Long>store(store).all()) {
                it.forEachRemaining(kv -> out.merge(kv.key, kv.value, Long::sum));
            }
        }
        return out;
    }

    /** Host (application.server) owning a run's per-run views (summary, series, verdicts, WA, status). */
    public KeyQueryMetadata ownerMetadata(String runId) {
        return streams.queryMetadataForKey(
                Names.RUN_STATE_STORE, runId, Serdes.String().serializer());
    }

    @Override
    public boolean ownedElsewhere(String runId) {
        Set<Integer> local = localIoPartitions();
        int partition = partitionOf(runId);
        return !local.isEmpty() && partition >= 0 && !local.contains(partition);
    }

    /**
     * The partition of ssdpulse.io.v1 holding a run's (or group's) events, as the producers' default partitioner
     * puts them, and with it the task (and instance) that owns the run's views: the topics the analytics read are
     * co-partitioned. Kafka Streams' key metadata is not used for this: it gives an instance without
     * application.server none, and answered partitions other than the producers' for this topology's stores.
     * -1 while the partition count is not known.
     */
    int partitionOf(String key) {
        int partitions = ioPartitions.getAsInt();
        return partitions <= 0
                ? -1
                : Utils.toPositive(Utils.murmur2(key.getBytes(StandardCharsets.UTF_8))) % partitions;
    }

    /** Partitions of ssdpulse.io.v1 whose tasks are active on this instance. */
    private Set<Integer> localIoPartitions() {
        Set<Integer> out = new TreeSet<>();
        for (ThreadMetadata thread : streams.metadataForLocalThreads()) {
            for (TaskMetadata task : thread.activeTasks()) {
                for (TopicPartition tp : task.topicPartitions()) {
                    if (tp.topic().equals(Topics.IO.name())) {
                        out.add(tp.partition());
                    }
                }
            }
        }
        return out;
    }

    @Override
    public Optional<String> ownerOf(String runId) {
        int partition = partitionOf(runId);
        if (partition < 0) {
            return Optional.empty();
        }
        TopicPartition tp = new TopicPartition(Topics.IO.name(), partition);
        for (StreamsMetadata client : streams.metadataForAllStreamsClients()) {
            if (client.topicPartitions().contains(tp)) {
                return hostPort(client.hostInfo());
            }
        }
        return Optional.empty();
    }

    @Override
    public Set<String> instances() {
        Set<String> out = new TreeSet<>();
        streams.metadataForAllStreamsClients()
                .forEach(client -> hostPort(client.hostInfo()).ifPresent(out::add));
        return out;
    }

    /** "host:port", empty for Kafka Streams' placeholder of an unknown host. */
    private static Optional<String> hostPort(HostInfo h) {
        return h == null || h.port() < 0 || h.host() == null || h.host().equals("unavailable")
                ? Optional.empty()
                : Optional.of(h.host() + ":" + h.port());
    }

    /** A store of this instance by name (active tasks only, or standbys too: {@link #standbyReplicaOf}). */
    private <V> ReadOnlyKeyValueStore<String, V> store(String name) {
        StoreQueryParameters<ReadOnlyKeyValueStore<String, V>> q =
                StoreQueryParameters.fromNameAndType(name, QueryableStoreTypes.<String, V>keyValueStore());
        return streams.store(standbyReplicas ? q.enableStaleStores() : q);
    }
}
