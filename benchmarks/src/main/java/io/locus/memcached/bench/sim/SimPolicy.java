package io.locus.memcached.bench.sim;

import com.github.benmanes.caffeine.cache.Cache;
import com.github.benmanes.caffeine.cache.Caffeine;
import io.locus.memcached.cache.DeadlineCache;
import io.locus.memcached.cache.DeadlineCacheConfig;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.Map;

/** A cache under simulation, seen as cache-aside reads: a miss fills the item. Single-threaded use. */
interface SimPolicy {
    /** Name in reports. */
    String name();

    /**
     * Reads a key; on a miss stores it.
     *
     * @return true on a hit
     */
    boolean read(String key, byte[] keyBytes, byte[] value, long deadlineNanos, String tenant);

    /** The deadline cache, one partition so that the result does not depend on key hashing. */
    static SimPolicy deadlineCache(String name, long capacityBytes, int queues, long[] clock) {
        DeadlineCacheConfig config = DeadlineCacheConfig.defaults(capacityBytes)
                .withPartitions(1)
                .withQueues(queues)
                .withMaxItemSizeBytes(Integer.MAX_VALUE)
                .withMaxTenants(64);
        DeadlineCache cache = new DeadlineCache(config, () -> clock[0]);
        return new SimPolicy() {
            @Override
            public String name() {
                return name;
            }

            @Override
            public boolean read(String key, byte[] keyBytes, byte[] value, long deadlineNanos, String tenant) {
                if (cache.get(keyBytes, deadlineNanos, tenant) != null) {
                    return true;
                }
                cache.set(keyBytes, value, 0, DeadlineCache.NEVER_EXPIRES, 0, deadlineNanos, tenant);
                return false;
            }
        };
    }

    /** A textbook LRU bounded by the same accounted bytes (LinkedHashMap in access order). */
    static SimPolicy lru(long capacityBytes) {
        LinkedHashMap<String, Integer> map = new LinkedHashMap<>(1 << 16, 0.75f, true);
        long[] used = {0};
        return new SimPolicy() {
            @Override
            public String name() {
                return "LRU";
            }

            @Override
            public boolean read(String key, byte[] keyBytes, byte[] value, long deadlineNanos, String tenant) {
                if (map.get(key) != null) {
                    return true;
                }
                int size = (int) DeadlineCache.sizeOf(keyBytes.length, value.length);
                if (size > capacityBytes) {
                    return false;
                }
                Iterator<Map.Entry<String, Integer>> eldest = map.entrySet().iterator();
                while (used[0] + size > capacityBytes) {
                    used[0] -= eldest.next().getValue();
                    eldest.remove();
                }
                map.put(key, size);
                used[0] += size;
                return false;
            }
        };
    }

    /**
     * Caffeine (W-TinyLFU) bounded by the same accounted bytes. Maintenance runs on the calling thread; its
     * hash-flooding defence admits at random, so results may differ by a few accesses between runs.
     */
    static SimPolicy caffeine(long capacityBytes) {
        Cache<String, byte[]> cache = Caffeine.newBuilder()
                .maximumWeight(capacityBytes)
                .weigher((String k, byte[] v) -> (int) DeadlineCache.sizeOf(k.length(), v.length))
                .executor(Runnable::run)
                .build();
        return new SimPolicy() {
            @Override
            public String name() {
                return "Caffeine";
            }

            @Override
            public boolean read(String key, byte[] keyBytes, byte[] value, long deadlineNanos, String tenant) {
                if (cache.getIfPresent(key) != null) {
                    return true;
                }
                cache.put(key, value);
                return false;
            }
        };
    }
}
