package dev.ssdpulse.schemas.registry;

import java.util.Iterator;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.Function;
import java.util.function.Predicate;

/**
 * A thread-safe map with a size bound, for registry lookups. Reads are lock-free (the steady-state path of
 * a serde); when full, an arbitrary entry is evicted. Schemas and ids are few and long-lived, so the
 * bound only guards against unbounded growth, and eviction order does not matter.
 */
final class BoundedCache<K, V> {
    private final ConcurrentHashMap<K, V> map = new ConcurrentHashMap<>();
    private final int capacity;

    BoundedCache(int capacity) {
        if (capacity < 1) {
            throw new IllegalArgumentException("cache capacity must be >= 1, got " + capacity);
        }
        this.capacity = capacity;
    }

    V get(K key) {
        return map.get(key);
    }

    void put(K key, V value) {
        if (map.size() >= capacity && !map.containsKey(key)) {
            Iterator<K> it = map.keySet().iterator();
            if (it.hasNext()) {
                it.next();
                it.remove();
            }
        }
        map.put(key, value);
    }

    /** Cached value, or computes it outside any lock (a race may compute twice; both results are equal). */
    V computeIfAbsent(K key, Function<K, V> loader) {
        V value = map.get(key);
        if (value == null) {
            value = loader.apply(key);
            put(key, value);
        }
        return value;
    }

    void removeIf(Predicate<K> keyFilter) {
        map.keySet().removeIf(keyFilter);
    }

    int size() {
        return map.size();
    }
}
