package io.locus.memcached.cache;

/**
 * Turns a cache hit into what the caller needs (a reply) while the item is current, so that a hit costs no snapshot
 * object ({@link DeadlineCache#read}). It runs under the partition's lock: it must be short, must not call the cache,
 * and must not modify or keep the value array beyond what it returns.
 *
 * @param <R> what a hit becomes; never null
 */
@FunctionalInterface
public interface HitReader<R> {
    /**
     * @param value the item's value bytes (the cache's own array)
     * @param clientFlags the item's opaque client flags
     */
    R read(byte[] value, int clientFlags);
}
