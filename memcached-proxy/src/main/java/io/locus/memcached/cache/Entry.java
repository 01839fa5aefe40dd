package io.locus.memcached.cache;

/**
 * One cached item, its intrusive links in the LRU queue of its (tenant slot, deadline class) and its link in the
 * partition's {@link KeyTable}. Mutated only under the lock of the partition that holds it.
 */
final class Entry {
    private final byte[] key;
    private final int hash;
    private final byte[] value;
    private final int clientFlags;
    private final long casUnique;
    private final long sizeBytes;
    private final int slot;
    private long expiresAtNanos;
    private long deadlineNanos;
    private int deadlineClass;
    private long lastAccessNanos;
    private Entry prev;
    private Entry next;
    /** The next entry in the same {@link KeyTable} bucket; the table's own link. */
    private Entry hashNext;

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
        this.key = key.bytes();
        this.hash = key.hashCode();
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

    /** The key's bytes as the client sent them. */
    byte[] keyBytes() {
        return key;
    }

    /** The key's {@link ByteKey#hashCode}. */
    int hash() {
        return hash;
    }

    /** The key as text, for messages only. */
    String key() {
        return new ByteKey(key).toString();
    }

    byte[] value() {
        return value;
    }

    int clientFlags() {
        return clientFlags;
    }

    long sizeBytes() {
        return sizeBytes;
    }

    int slot() {
        return slot;
    }

    long deadlineNanos() {
        return deadlineNanos;
    }

    int deadlineClass() {
        return deadlineClass;
    }

    boolean expired(long nowNanos) {
        return nowNanos >= expiresAtNanos;
    }

    void expireAt(long expiresAtNanos) {
        this.expiresAtNanos = expiresAtNanos;
    }

    /** Records a hit: the item's deadline and class after it, and the access time its age counts from. */
    void accessed(long deadlineNanos, int deadlineClass, long nowNanos) {
        this.deadlineNanos = deadlineNanos;
        this.deadlineClass = deadlineClass;
        this.lastAccessNanos = nowNanos;
    }

    /**
     * The eviction score {@code (now - lastAccess) * multiplier * mu} (MicroFuge §3.1.2, with the fairness factor of
     * §3.1.3); an expired item scores infinity so it goes first.
     */
    double effectiveAge(long nowNanos, double classMultiplier, double mu) {
        return expired(nowNanos)
                ? Double.POSITIVE_INFINITY
                : (double) (nowNanos - lastAccessNanos) * classMultiplier * mu;
    }

    /** Between two heads of equal effective age: the larger class, then the larger item, then the older access. */
    boolean winsTie(Entry other) {
        if (deadlineClass != other.deadlineClass) {
            return deadlineClass > other.deadlineClass;
        }
        if (sizeBytes != other.sizeBytes) {
            return sizeBytes > other.sizeBytes;
        }
        return lastAccessNanos < other.lastAccessNanos;
    }

    CachedItem snapshot(String tenant) {
        return new CachedItem(key, value, clientFlags, casUnique, expiresAtNanos, deadlineNanos, deadlineClass, tenant);
    }

    // The links belong to LruQueue, which keeps the queue's ends.

    Entry prev() {
        return prev;
    }

    Entry next() {
        return next;
    }

    /** Links this entry in after {@code tail} (null for an empty queue) as the new last element. */
    void linkAfter(Entry tail) {
        prev = tail;
        next = null;
        if (tail != null) {
            tail.next = this;
        }
    }

    /** Joins this entry's neighbours to each other and clears its own links; the queue updates its ends. */
    void unlinkFromNeighbours() {
        if (prev != null) {
            prev.next = next;
        }
        if (next != null) {
            next.prev = prev;
        }
        prev = null;
        next = null;
    }

    Entry hashNext() {
        return hashNext;
    }

    void hashNext(Entry next) {
        hashNext = next;
    }
}
