package dev.ssdpulse.streams.topology;

import java.util.ArrayList;
import java.util.List;
import org.apache.kafka.streams.state.KeyValueIterator;
import org.apache.kafka.streams.state.KeyValueStore;

/** Removal of every key of one run (or one result-set alias) from the per-run stores. */
final class RunKeys {
    private RunKeys() {}

    /** Deletes the keys in [from, to]; collected first, so the iterator never sees its own deletes. */
    static int deleteRange(KeyValueStore<String, ?> store, String from, String to) {
        List<String> keys = new ArrayList<>();
        try (KeyValueIterator<String, ?> it = store.range(from, to)) {
            it.forEachRemaining(kv -> keys.add(kv.key));
        }
        keys.forEach(store::delete);
        return keys.size();
    }

    /** Deletes the keys {@code key|...} of a run or an alias (series, verdicts, WA, SMART samples). */
    static int deletePrefixed(KeyValueStore<String, ?> store, String key) {
        return deleteRange(store, StoreKeys.runPrefix(key), StoreKeys.runEnd(key));
    }
}
