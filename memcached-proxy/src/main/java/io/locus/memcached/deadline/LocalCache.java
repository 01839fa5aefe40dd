package io.locus.memcached.deadline;

import io.locus.memcached.cache.CachedItem;
import io.locus.memcached.cache.DeadlineCache;
import io.locus.memcached.cache.HitReader;

/**
 * The proxy's use of the {@link DeadlineCache}: keys as the client's bytes, TTLs capped by
 * {@code local.max_ttl}, and fills that cannot resurrect a value a write already replaced.
 *
 * <p>Why the versions: a fill reads the backend, a write through another connection (or I/O thread) may change the
 * key while the fill's reply is on its way. Every invalidation bumps the version of the key's stripe under the
 * stripe's lock; a fill stores its value only if the stripe's version is still the one it saw before it was sent
 * (checked and stored under the same lock). Writes invalidate before they are forwarded and again when the backend
 * acknowledged them, so a fill that overlaps a write in either order is discarded. {@code flush_all} bumps a global
 * epoch the same way. A stripe covers many keys, so an unrelated write may discard a fill (a lost fill, never a
 * stale one).
 *
 * <p>Thread-safe: shared by all I/O threads.
 */
final class LocalCache {
    private static final int STRIPES = 1024;

    private final DeadlineCache dlc;
    private final long maxTtlNanos;
    private final Object[] locks = new Object[STRIPES];
    private final long[] versions = new long[STRIPES];
    private volatile long epoch;

    /**
     * @param dlc the cache
     * @param maxTtlNanos cap on a local copy's TTL in nanoseconds; 0 = the item's own TTL
     */
    LocalCache(DeadlineCache dlc, long maxTtlNanos) {
        this.dlc = dlc;
        this.maxTtlNanos = maxTtlNanos;
        for (int i = 0; i < STRIPES; i++) {
            locks[i] = new Object();
        }
    }

    DeadlineCache dlc() {
        return dlc;
    }

    private static int stripe(byte[] key) {
        int h = java.util.Arrays.hashCode(key);
        return (h ^ (h >>> 16)) & (STRIPES - 1);
    }

    /** The item, or null; charged to {@code tenant}. */
    CachedItem get(byte[] key, long deadlineNanos, String tenant) {
        return dlc.get(key, deadlineNanos, tenant);
    }

    /** What {@code reader} made of a hit, or null; charged to {@code tenant} ({@link DeadlineCache#read}). */
    <R> R read(byte[] key, long deadlineNanos, String tenant, HitReader<R> reader) {
        return dlc.read(key, deadlineNanos, tenant, reader);
    }

    /** What a fill must present to {@link #fill}: the key's stripe version and the flush epoch, before sending. */
    long versionOf(byte[] key) {
        int s = stripe(key);
        synchronized (locks[s]) {
            return versions[s] * 1_000_003L + epoch;
        }
    }

    /**
     * Stores a value read from the backend unless the key was invalidated since {@code version} was taken.
     *
     * @param ttlNanos remaining TTL from the backend, or {@link DeadlineCache#NEVER_EXPIRES}
     * @return true if stored
     */
    boolean fill(
            byte[] key, byte[] value, int clientFlags, long ttlNanos, long deadlineNanos, String tenant, long version) {
        long ttl = ttlNanos;
        if (maxTtlNanos > 0 && (ttl == DeadlineCache.NEVER_EXPIRES || ttl > maxTtlNanos)) {
            ttl = maxTtlNanos;
        }
        int s = stripe(key);
        synchronized (locks[s]) {
            if (versions[s] * 1_000_003L + epoch != version) {
                return false;
            }
            return dlc.set(key, value, clientFlags, ttl, 0, deadlineNanos, tenant);
        }
    }

    /** Drops the local copy; call before forwarding a write and again after the backend answered it. */
    void invalidate(byte[] key) {
        int s = stripe(key);
        synchronized (locks[s]) {
            versions[s]++;
            dlc.invalidate(key);
        }
    }

    /** {@code flush_all}: drops everything and discards fills in flight. */
    void clear() {
        synchronized (this) {
            epoch++;
        }
        dlc.clear();
    }
}
