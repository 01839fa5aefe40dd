package io.locus.memcached.cache;

/**
 * A snapshot of a cached item returned by {@link DeadlineCache#get}.
 *
 * <p>The arrays are the cache's own (no copy on the hot path): callers must not modify them. The item may
 * be evicted or replaced right after the snapshot is taken; the snapshot stays valid.
 *
 * @param key the key bytes
 * @param value the value bytes (the memcached data block)
 * @param clientFlags the opaque 32-bit client flags stored with the item
 * @param casUnique the backend's cas unique of this version (0 if unknown)
 * @param expiresAtNanos expiry instant on the cache's clock, {@link Long#MAX_VALUE} for never
 * @param deadlineNanos the item's relative deadline after this access, or {@link DeadlineCache#NO_DEADLINE}
 * @param deadlineClass the item's deadline class (queue index) after this access
 * @param tenant the tenant charged for the item's bytes (the one that stored it)
 */
public record CachedItem(
        byte[] key,
        byte[] value,
        int clientFlags,
        long casUnique,
        long expiresAtNanos,
        long deadlineNanos,
        int deadlineClass,
        String tenant) {

    /** Remaining time to live in nanoseconds at {@code nowNanos}; {@link Long#MAX_VALUE} if it never expires. */
    public long remainingTtlNanos(long nowNanos) {
        return expiresAtNanos == Long.MAX_VALUE ? Long.MAX_VALUE : Math.max(0, expiresAtNanos - nowNanos);
    }
}
