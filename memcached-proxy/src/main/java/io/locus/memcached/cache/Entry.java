package io.locus.memcached.cache;

/** One cached item and its intrusive links in the LRU queue of its (tenant slot, deadline class). */
final class Entry {
    final ByteKey key;
    final byte[] value;
    final int clientFlags;
    final long casUnique;
    final long sizeBytes;
    final int slot;
    long expiresAtNanos;
    long deadlineNanos;
    int deadlineClass;
    long lastAccessNanos;
    Entry prev;
    Entry next;

    Entry(
            ByteKey key,
            byte[] value,
            int clientFlags,
            long casUnique,
            long sizeBytes,
            int slot,
            long expiresAtNanos,
            long deadlineNanos,
            int deadlineClass,
            long lastAccessNanos) {
        this.key = key;
        this.value = value;
        this.clientFlags = clientFlags;
        this.casUnique = casUnique;
        this.sizeBytes = sizeBytes;
        this.slot = slot;
        this.expiresAtNanos = expiresAtNanos;
        this.deadlineNanos = deadlineNanos;
        this.deadlineClass = deadlineClass;
        this.lastAccessNanos = lastAccessNanos;
    }

    boolean expired(long nowNanos) {
        return nowNanos >= expiresAtNanos;
    }
}
