package dev.ssdpulse.streams.topology;

import java.util.HashMap;
import java.util.LinkedHashSet;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import java.util.function.Function;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.serialization.Serdes;
import org.apache.kafka.streams.processor.StateStore;
import org.apache.kafka.streams.processor.StateStoreContext;
import org.apache.kafka.streams.query.Position;
import org.apache.kafka.streams.query.PositionBound;
import org.apache.kafka.streams.query.Query;
import org.apache.kafka.streams.query.QueryConfig;
import org.apache.kafka.streams.query.QueryResult;
import org.apache.kafka.streams.state.KeyValueBytesStoreSupplier;
import org.apache.kafka.streams.state.KeyValueStore;
import org.apache.kafka.streams.state.StoreBuilder;
import org.apache.kafka.streams.state.Stores;
import org.apache.kafka.streams.state.internals.CacheFlushListener;
import org.apache.kafka.streams.state.internals.CachedStateStore;

/**
 * A key-value store of live, mutable objects that are encoded once per commit instead of once per update.
 *
 * <p><b>Why.</b> The per-run state (a {@code RunAnalysis}: the open windows' latency histograms, the run and phase
 * summaries, the detectors, the latency scatter's open windows) is updated by every I/O batch and is tens of KB
 * encoded (52,653 B mid-run in one measurement). Encoding it on every put, as a normal store with a
 * record cache requires (the metered layer serializes before the cache), was the largest single cost of the
 * analytics when the windows still kept raw I/O tails (~150 us per 512-I/O batch). Here a put
 * only marks the key dirty; the dirty values are encoded into the inner store (changelogged, RocksDB or
 * in-memory) when Kafka Streams flushes caches, which it does at the start of every
 * commit, before it flushes the producer and commits the input offsets (under exactly_once_v2 in the same
 * transaction). So the changelog holds, at every commit, exactly the state that matches the committed input
 * offsets, as with a per-put write, and a crash + restart resumes from it.
 *
 * <p><b>How the hook is reached.</b> Kafka Streams calls {@code flushCache()} on every registered store that
 * implements {@link CachedStateStore} ({@code ProcessorStateManager.flushCache}, from
 * {@code StreamTask.prepareCommit}); this store registers itself as the root of its inner store, so it is the
 * registered one. {@link CachedStateStore} is an internal interface of kafka-streams (4.4.0 here):
 * {@code EncodeOnCommitStoreTest} (TopologyTestDriver, which runs the same commit path) and the crash tests fail
 * loudly if a Kafka upgrade stops calling it, because nothing would reach the changelog.
 *
 * <p>Memory: live objects stay in memory until {@link #evict}ed (the processor evicts finished runs after their
 * final write); {@link #clearCache()} (task recycled to a standby) and {@link #init} drop them all, since the
 * inner store is the authority after a commit.
 *
 * <p>Single-threaded, like every store of a task.
 */
public final class EncodeOnCommitStore<V> implements StateStore, CachedStateStore<String, V> {
    private final KeyValueStore<String, byte[]> inner;
    private final Function<V, byte[]> encoder;
    private final Map<String, V> live = new HashMap<>();
    private final Set<String> dirty = new LinkedHashSet<>();

    EncodeOnCommitStore(KeyValueStore<String, byte[]> inner, Function<V, byte[]> encoder) {
        this.inner = Objects.requireNonNull(inner, "inner");
        this.encoder = Objects.requireNonNull(encoder, "encoder");
    }

    /**
     * Builder of a persistent (RocksDB) store, changelogged under its name, without a record cache (this store
     * is its own cache).
     */
    public static <V> StoreBuilder<EncodeOnCommitStore<V>> persistent(String name, Function<V, byte[]> encoder) {
        return new Builder<>(Stores.persistentKeyValueStore(name), encoder);
    }

    /** Builder of an in-memory store (tests, benchmarks), changelogged unless logging is disabled. */
    public static <V> StoreBuilder<EncodeOnCommitStore<V>> inMemory(String name, Function<V, byte[]> encoder) {
        return new Builder<>(Stores.inMemoryKeyValueStore(name), encoder);
    }

    /** The live object of a key, or null when it is not in memory (then see {@link #getEncoded}). */
    public V getLive(String key) {
        return live.get(key);
    }

    /** The encoded value as of the last commit (or last {@link #evict}), or null. */
    public byte[] getEncoded(String key) {
        return inner.get(key);
    }

    /** Keeps {@code value} as the live object of {@code key}; it is encoded at the next commit. */
    public void put(String key, V value) {
        live.put(Objects.requireNonNull(key, "key"), Objects.requireNonNull(value, "value"));
        dirty.add(key);
    }

    /** Encodes the key's live object now and drops it from memory (a finished run rarely changes again). */
    public void evict(String key) {
        V value = live.remove(key);
        if (value != null && dirty.remove(key)) {
            inner.put(key, encoder.apply(value));
        }
    }

    /** Removes a key entirely: live object, pending encode and stored value (a run deleted by the user). */
    public void delete(String key) {
        live.remove(key);
        dirty.remove(key);
        inner.delete(key);
    }

    /** Number of live objects in memory (for tests and metrics). */
    public int liveCount() {
        return live.size();
    }

    /** Encodes every dirty object into the inner store; called by Kafka Streams first thing in every commit. */
    @Override
    public void flushCache() {
        for (String key : dirty) {
            inner.put(key, encoder.apply(live.get(key)));
        }
        dirty.clear();
    }

    /** Drops the live objects without writing them (the task was recycled; the inner store is authoritative). */
    @Override
    public void clearCache() {
        live.clear();
        dirty.clear();
    }

    @Override
    public boolean setFlushListener(CacheFlushListener<String, V> listener, boolean sendOldValues) {
        return false;
    }

    @Override
    public String name() {
        return inner.name();
    }

    @Override
    public void init(StateStoreContext context, StateStore root) {
        clearCache();
        // this store, not the inner one, must be what the task registers, so that flushCache reaches it
        inner.init(context, this);
    }

    @Override
    public void commit(Map<TopicPartition, Long> changelogOffsets) {
        inner.commit(changelogOffsets);
    }

    @Override
    public boolean managesOffsets() {
        return inner.managesOffsets();
    }

    @Override
    public Long committedOffset(TopicPartition partition) {
        return inner.committedOffset(partition);
    }

    @Override
    public void close() {
        clearCache();
        inner.close();
    }

    @Override
    public boolean persistent() {
        return inner.persistent();
    }

    @Override
    public boolean isOpen() {
        return inner.isOpen();
    }

    @Override
    public <R> QueryResult<R> query(Query<R> query, PositionBound positionBound, QueryConfig config) {
        return inner.query(query, positionBound, config);
    }

    @Override
    public long approximateNumUncommittedBytes() {
        return inner.approximateNumUncommittedBytes();
    }

    @Override
    public Position getPosition() {
        return inner.getPosition();
    }

    private static final class Builder<V> implements StoreBuilder<EncodeOnCommitStore<V>> {
        private final Function<V, byte[]> encoder;
        private StoreBuilder<KeyValueStore<String, byte[]>> inner;

        Builder(KeyValueBytesStoreSupplier supplier, Function<V, byte[]> encoder) {
            this.encoder = Objects.requireNonNull(encoder, "encoder");
            this.inner = Stores.keyValueStoreBuilder(supplier, Serdes.String(), Serdes.ByteArray())
                    .withCachingDisabled();
        }

        /** Refused: a record cache below would only copy the bytes once more; this store caches objects. */
        @Override
        public StoreBuilder<EncodeOnCommitStore<V>> withCachingEnabled() {
            throw new UnsupportedOperationException("EncodeOnCommitStore is its own cache");
        }

        @Override
        public StoreBuilder<EncodeOnCommitStore<V>> withCachingDisabled() {
            return this;
        }

        @Override
        public StoreBuilder<EncodeOnCommitStore<V>> withLoggingEnabled(Map<String, String> config) {
            inner = inner.withLoggingEnabled(config);
            return this;
        }

        @Override
        public StoreBuilder<EncodeOnCommitStore<V>> withLoggingDisabled() {
            inner = inner.withLoggingDisabled();
            return this;
        }

        @Override
        public EncodeOnCommitStore<V> build() {
            return new EncodeOnCommitStore<>(inner.build(), encoder);
        }

        @Override
        public Map<String, String> logConfig() {
            return inner.logConfig();
        }

        @Override
        public boolean loggingEnabled() {
            return inner.loggingEnabled();
        }

        @Override
        public String name() {
            return inner.name();
        }
    }
}
