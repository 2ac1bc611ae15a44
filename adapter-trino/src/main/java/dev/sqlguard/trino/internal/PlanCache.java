package dev.sqlguard.trino.internal;

import java.util.LinkedHashMap;
import java.util.Map;
import java.util.function.Function;

/** A small thread-safe LRU map from SQL text to a validation outcome. */
final class PlanCache<V> {
    private final int capacity;
    private final LinkedHashMap<String, V> map;

    PlanCache(int capacity) {
        if (capacity <= 0) {
            throw new IllegalArgumentException("capacity must be positive");
        }
        this.capacity = capacity;
        this.map = new LinkedHashMap<>(16, 0.75f, true) {
            private static final long serialVersionUID = 1L;

            @Override
            protected boolean removeEldestEntry(Map.Entry<String, V> eldest) {
                return size() > PlanCache.this.capacity;
            }
        };
    }

    /** The cached value, or computes it outside the lock and caches it. */
    V get(String key, Function<String, V> compute) {
        return get(key, compute, v -> true);
    }

    /**
     * The cached value, or computes it outside the lock and caches it when {@code keep} holds (an
     * outcome of the moment, such as a round trip that ran out of time, is not the text's).
     */
    V get(String key, Function<String, V> compute, java.util.function.Predicate<V> keep) {
        synchronized (map) {
            V hit = map.get(key);
            if (hit != null) {
                return hit;
            }
        }
        V value = compute.apply(key);
        if (keep.test(value)) {
            synchronized (map) {
                map.put(key, value);
            }
        }
        return value;
    }

    int size() {
        synchronized (map) {
            return map.size();
        }
    }
}
