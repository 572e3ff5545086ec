package dev.ssdpulse.streams.topology;

import java.util.function.Function;
import org.apache.kafka.common.serialization.Serde;
import org.apache.kafka.common.serialization.Serdes;
import org.apache.kafka.streams.state.KeyValueStore;
import org.apache.kafka.streams.state.StoreBuilder;
import org.apache.kafka.streams.state.Stores;

/**
 * Every store of the analytics topology, built one way per {@link TopologyMode}: RocksDB (state larger than the
 * heap: a 5,000-s run keeps ~10 k window records), with the record cache (repeated puts of a key between
 * commits merge), changelogged under the store's name in the live mode and without changelog in a run-once mode,
 * whose state is thrown away with its application.
 */
public final class StoreFactory {
    private final boolean changelogged;

    public StoreFactory(TopologyMode mode) {
        this.changelogged = mode.isLive();
    }

    public <V> StoreBuilder<KeyValueStore<String, V>> keyValue(String name, Serde<V> values) {
        StoreBuilder<KeyValueStore<String, V>> builder = Stores.keyValueStoreBuilder(
                        Stores.persistentKeyValueStore(name), Serdes.String(), values)
                .withCachingEnabled();
        return changelogged ? builder : builder.withLoggingDisabled();
    }

    /**
     * A view of what the state holds anyway (the open windows, rebuilt from the run state within a fraction of a
     * second): in memory, no changelog, no record cache (a read sees the last write at once).
     */
    public <V> StoreBuilder<KeyValueStore<String, V>> transientKeyValue(String name, Serde<V> values) {
        return Stores.keyValueStoreBuilder(Stores.inMemoryKeyValueStore(name), Serdes.String(), values)
                .withCachingDisabled()
                .withLoggingDisabled();
    }

    /** The per-run analysis state; it is its own cache (see {@link EncodeOnCommitStore}). */
    public <V> StoreBuilder<EncodeOnCommitStore<V>> runState(String name, Function<V, byte[]> encoder) {
        StoreBuilder<EncodeOnCommitStore<V>> builder = EncodeOnCommitStore.persistent(name, encoder);
        return changelogged ? builder : builder.withLoggingDisabled();
    }
}
