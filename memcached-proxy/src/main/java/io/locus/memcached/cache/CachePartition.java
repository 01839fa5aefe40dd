package io.locus.memcached.cache;

import java.util.concurrent.locks.ReentrantLock;

/**
 * One DLC partition: a byte-bounded map plus one LRU queue per (tenant slot, deadline class). Every public
 * method takes the partition's lock for its whole duration; nothing here calls out while holding it.
 */
final class CachePartition {
    /*
     * Why queues are keyed by (tenant, class): the victim search looks only at queue heads. That is exact only
     * if all items in one queue share the same multiplier c^q * mu(tenant); with fairness on, mu differs per
     * tenant, so each tenant needs its own queues (MicroFuge §3.1.2, MicroFuge §3.1.3). With fairness off the extra
     * queues cost a few more head comparisons (at most maxTenants * Q) but no accuracy.
     */
    private static final double MU_FLOOR = 1.0 / 64;

    private final ReentrantLock lock = new ReentrantLock();
    private final long capacityBytes;
    private final DeadlineClasses classes;
    private final TenantSlots slots;
    private final DeadlineCacheConfig config;
    private final KeyTable index = new KeyTable();
    private final LruQueue[][] queues;
    private long usedBytes;
    private final long[] bytesBySlot;
    private final long[] itemsBySlot;
    private final long[] hits;
    private final long[] misses;
    private final long[] evictions;
    private final long[] expirations;

    CachePartition(long capacityBytes, DeadlineClasses classes, TenantSlots slots, DeadlineCacheConfig config) {
        this.capacityBytes = capacityBytes;
        this.classes = classes;
        this.slots = slots;
        this.config = config;
        int n = slots.maxSlots();
        this.queues = new LruQueue[n][classes.queues()];
        for (LruQueue[] row : queues) {
            for (int q = 0; q < row.length; q++) {
                row[q] = new LruQueue();
            }
        }
        bytesBySlot = new long[n];
        itemsBySlot = new long[n];
        hits = new long[n];
        misses = new long[n];
        evictions = new long[n];
        expirations = new long[n];
    }

    long capacityBytes() {
        return capacityBytes;
    }

    long usedBytes() {
        lock.lock();
        try {
            return usedBytes;
        } finally {
            lock.unlock();
        }
    }

    int itemCount() {
        lock.lock();
        try {
            return index.size();
        } finally {
            lock.unlock();
        }
    }

    CachedItem get(ByteKey key, long deadlineNanos, int requesterSlot, long nowNanos) {
        lock.lock();
        try {
            Entry e = hit(key, deadlineNanos, requesterSlot, nowNanos);
            return e == null ? null : e.snapshot(slots.name(e.slot()));
        } finally {
            lock.unlock();
        }
    }

    /** Like {@link #get}, but a hit is handed to {@code reader} under the lock instead of copied into a snapshot. */
    <R> R read(ByteKey key, long deadlineNanos, int requesterSlot, long nowNanos, HitReader<R> reader) {
        lock.lock();
        try {
            Entry e = hit(key, deadlineNanos, requesterSlot, nowNanos);
            return e == null ? null : reader.read(e.value(), e.clientFlags());
        } finally {
            lock.unlock();
        }
    }

    /** The entry of a hit, marked most recently used, or null on a miss; counts either. Caller holds the lock. */
    private Entry hit(ByteKey key, long deadlineNanos, int requesterSlot, long nowNanos) {
        Entry e = index.get(key);
        if (e == null) {
            misses[requesterSlot]++;
            return null;
        }
        if (e.expired(nowNanos)) {
            remove(e);
            expirations[e.slot()]++;
            misses[requesterSlot]++;
            return null;
        }
        long itemDeadline = deadlineNanos == DeadlineCache.NO_DEADLINE
                ? e.deadlineNanos()
                : nextDeadline(e.deadlineNanos(), deadlineNanos);
        queues[e.slot()][e.deadlineClass()].unlink(e);
        e.accessed(itemDeadline, classes.classOf(itemDeadline), nowNanos);
        queues[e.slot()][e.deadlineClass()].addTail(e);
        hits[requesterSlot]++;
        return e;
    }

    private long nextDeadline(long stored, long requested) {
        if (config.classPolicy() == ClassPolicy.LATEST || stored == DeadlineCache.NO_DEADLINE) {
            return requested;
        }
        return Math.min(stored, requested);
    }

    /** Stores an item; returns false (after dropping any older copy) if it cannot be cached. */
    boolean put(
            ByteKey key,
            byte[] value,
            int clientFlags,
            long ttlNanos,
            long casUnique,
            long deadlineNanos,
            int slot,
            boolean overwrite,
            long nowNanos) {
        long size = DeadlineCache.sizeOf(key.bytes().length, value.length);
        lock.lock();
        try {
            Entry old = index.get(key);
            if (old != null) {
                if (!overwrite && !old.expired(nowNanos)) {
                    return false;
                }
                remove(old);
                if (old.expired(nowNanos)) {
                    expirations[old.slot()]++;
                }
            }
            if (ttlNanos <= 0 || size > config.maxItemSizeBytes() || size > capacityBytes) {
                return false;
            }
            while (usedBytes + size > capacityBytes) {
                Entry victim = pickVictim(nowNanos);
                remove(victim);
                if (victim.expired(nowNanos)) {
                    expirations[victim.slot()]++;
                } else {
                    evictions[victim.slot()]++;
                }
            }
            long expiresAt = expiryOf(ttlNanos, nowNanos);
            int q = classes.classOf(deadlineNanos);
            Entry e = new Entry(key, value, clientFlags, casUnique, size, slot, expiresAt, deadlineNanos, q, nowNanos);
            index.add(e);
            queues[slot][q].addTail(e);
            usedBytes += size;
            bytesBySlot[slot] += size;
            itemsBySlot[slot]++;
            return true;
        } finally {
            lock.unlock();
        }
    }

    static long expiryOf(long ttlNanos, long nowNanos) {
        if (ttlNanos == DeadlineCache.NEVER_EXPIRES || nowNanos > Long.MAX_VALUE - ttlNanos) {
            return Long.MAX_VALUE;
        }
        return nowNanos + ttlNanos;
    }

    boolean touch(ByteKey key, long ttlNanos, long nowNanos) {
        lock.lock();
        try {
            Entry e = index.get(key);
            if (e == null) {
                return false;
            }
            if (e.expired(nowNanos) || ttlNanos <= 0) {
                remove(e);
                expirations[e.slot()]++;
                return false;
            }
            e.expireAt(expiryOf(ttlNanos, nowNanos));
            return true;
        } finally {
            lock.unlock();
        }
    }

    boolean invalidate(ByteKey key) {
        lock.lock();
        try {
            Entry e = index.get(key);
            if (e == null) {
                return false;
            }
            remove(e);
            return true;
        } finally {
            lock.unlock();
        }
    }

    void clear() {
        lock.lock();
        try {
            index.clear();
            for (LruQueue[] row : queues) {
                for (LruQueue q : row) {
                    q.clear();
                }
            }
            usedBytes = 0;
            java.util.Arrays.fill(bytesBySlot, 0);
            java.util.Arrays.fill(itemsBySlot, 0);
        } finally {
            lock.unlock();
        }
    }

    /**
     * Adds this partition's counters of slots {@code 0 .. sums.length - 1} to {@code sums[slot]}: hits, misses,
     * evictions, expirations, items, bytes, quota bytes.
     */
    void addTenantStats(long[][] sums) {
        lock.lock();
        try {
            for (int s = 0; s < sums.length; s++) {
                sums[s][0] += hits[s];
                sums[s][1] += misses[s];
                sums[s][2] += evictions[s];
                sums[s][3] += expirations[s];
                sums[s][4] += itemsBySlot[s];
                sums[s][5] += bytesBySlot[s];
                sums[s][6] += slots.quotaBytes(s, capacityBytes);
            }
        } finally {
            lock.unlock();
        }
    }

    private void remove(Entry e) {
        index.remove(e);
        queues[e.slot()][e.deadlineClass()].unlink(e);
        usedBytes -= e.sizeBytes();
        bytesBySlot[e.slot()] -= e.sizeBytes();
        itemsBySlot[e.slot()]--;
    }

    /**
     * The head with the largest effective age {@code (now - lastAccess) * c^q * mu(tenant)}; expired heads
     * count as infinitely old. Ties: larger class, then larger item, then older access. With the hard
     * over-quota rule, only heads of tenants over quota compete while any tenant is over quota.
     */
    private Entry pickVictim(long nowNanos) {
        int slotCount = slots.allocatedSlots();
        boolean restrict = false;
        if (config.hardOverQuota()) {
            for (int s = 0; s < slotCount && !restrict; s++) {
                restrict = bytesBySlot[s] > slots.quotaBytes(s, capacityBytes);
            }
        }
        Entry best = null;
        double bestScore = -1;
        for (int s = 0; s < slotCount; s++) {
            if (itemsBySlot[s] == 0) {
                continue;
            }
            long quota = slots.quotaBytes(s, capacityBytes);
            if (restrict && bytesBySlot[s] <= quota) {
                continue;
            }
            double mu = config.fairnessEnabled() ? usageFactor(bytesBySlot[s], quota) : 1;
            for (int q = 0; q < queues[s].length; q++) {
                Entry head = queues[s][q].head();
                if (head == null) {
                    continue;
                }
                double score = head.effectiveAge(nowNanos, classes.multiplier(q), mu);
                if (best == null || score > bestScore || (score == bestScore && head.winsTie(best))) {
                    best = head;
                    bestScore = score;
                }
            }
        }
        if (best == null) {
            throw new IllegalStateException("no eviction candidate with used bytes " + usedBytes + " of capacity "
                    + capacityBytes + " (expected: a non-empty queue)");
        }
        return best;
    }

    static double usageFactor(long bytes, long quota) {
        if (quota <= 0) {
            return 1;
        }
        return Math.max(MU_FLOOR, Math.min(1.0, (double) bytes / quota));
    }
}
