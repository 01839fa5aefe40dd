package io.locus.memcached.cache;

import java.util.LinkedHashMap;
import java.util.Map;
import java.util.function.LongSupplier;

/**
 * The in-proxy deadline cache (MicroFuge DLC): a byte-bounded item cache whose eviction prefers items with
 * long deadlines, so that requests with short deadlines hit more often.
 *
 * <p><b>Guarantees.</b>
 * <ul>
 *   <li>Accounted bytes ({@link #sizeOf key + value + 96}) never exceed {@link #capacityBytes()}: each
 *       partition is bounded by {@code capacity / partitions} and evicts before it inserts.</li>
 *   <li>Victim = the queue head with the largest effective age {@code (now - lastAccess) * c^q * mu(tenant)}
 *       (MicroFuge §3.1.2, decision 1 of DESIGN.md); expired heads go first.</li>
 *   <li>{@link #invalidate} removes the local copy before it returns; the proxy calls it for every write or
 *       delete it forwards, so a later {@code get} cannot return the old value.</li>
 *   <li>Items whose TTL has passed are never returned.</li>
 * </ul>
 *
 * <p><b>Thread safety and locking.</b> Safe for concurrent use. Keys are hashed to one of
 * {@code config.partitions()} partitions; each partition has one {@link java.util.concurrent.locks.ReentrantLock}
 * held for the whole of each operation on it (DEADLINES.md, "In the proxy", "one lock per partition"). No operation
 * holds two partition locks at once. Tenant slot allocation is synchronized on its own monitor, never while a partition
 * lock is waited for. {@link #tenantStats()} locks the partitions one after the other, so its sums are not an atomic
 * cut.
 *
 * <p><b>Units.</b> Deadlines and TTLs are relative nanoseconds; the clock is the injected
 * {@code LongSupplier} of nanoseconds (for example {@code System::nanoTime}).
 */
public final class DeadlineCache {
    /*
     * Design note.
     * Structure: [MicroFuge §3.1] multiple LRU queues, one per exponentially growing deadline range, sharing one
     * capacity (no static partitioning). Decision 3 of DESIGN.md sets Q = 12; B = 2 ms and c = 2 are the thesis's.
     * Eviction: the thesis's formula R/c^q with "evict the least" (§3.1.2) contradicts its own goal (§3.1);
     * Decision 1 of DESIGN.md takes argmax of age * c^q * mu, scanning only queue heads (exact because each queue is
     * LRU-ordered and has one multiplier).
     * Fairness: [MicroFuge §3.1.3] (never implemented in the thesis); decision 4 of DESIGN.md decides
     * mu = clamp(used/quota, 1/64, 1) and an optional hard over-quota rule. Quotas are per partition.
     * Accounting: DEADLINES.md, "In the proxy" fixes 96 bytes of overhead per entry (object headers, links, map slot);
     * it is a decision, not a measurement of this JVM's layout.
     */

    /** Deadline value meaning "none": on put, a best-effort item (last class); on get, class unchanged. */
    public static final long NO_DEADLINE = -1;
    /** TTL value meaning "never expires". */
    public static final long NEVER_EXPIRES = Long.MAX_VALUE;
    /** Accounted bytes per item on top of key and value (DEADLINES.md, "In the proxy"). */
    public static final int ENTRY_OVERHEAD_BYTES = 96;
    /** Name of the slot shared by tenants beyond {@code maxTenants}. */
    public static final String OTHER_TENANT = "other";

    private final DeadlineCacheConfig config;
    private final LongSupplier nanoClock;
    private final DeadlineClasses classes;
    private final TenantSlots slots;
    private final CachePartition[] partitions;

    /**
     * @param config validated configuration
     * @param nanoClock monotonic time in nanoseconds, e.g. {@code System::nanoTime}
     * @throws IllegalArgumentException if the capacity is smaller than one byte per partition
     */
    public DeadlineCache(DeadlineCacheConfig config, LongSupplier nanoClock) {
        if (config.capacityBytes() < config.partitions()) {
            throw new IllegalArgumentException("local.capacity_bytes " + config.capacityBytes()
                    + " (expected: >= partitions = " + config.partitions() + ")");
        }
        this.config = config;
        this.nanoClock = nanoClock;
        this.classes = new DeadlineClasses(config.base().toNanos(), config.factor(), config.queues());
        this.slots = new TenantSlots(config.maxTenants(), config.tenantWeights());
        this.partitions = new CachePartition[config.partitions()];
        long each = config.capacityBytes() / config.partitions();
        for (int i = 0; i < partitions.length; i++) {
            partitions[i] = new CachePartition(each, classes, slots, config);
        }
    }

    /** Accounted size of an item: key length + value length + {@value #ENTRY_OVERHEAD_BYTES}. */
    public static long sizeOf(int keyLengthBytes, int valueLengthBytes) {
        return (long) keyLengthBytes + valueLengthBytes + ENTRY_OVERHEAD_BYTES;
    }

    /**
     * Looks an item up and, on a hit, marks it most recently used.
     *
     * @param key key bytes (not copied)
     * @param deadlineNanos the request's relative deadline, or {@link #NO_DEADLINE}; on a hit it updates the
     *     item's class per {@link ClassPolicy}
     * @param tenant the requesting tenant (charged with the hit or miss)
     * @return the item, or null on a miss (absent or expired)
     */
    public CachedItem get(byte[] key, long deadlineNanos, String tenant) {
        checkDeadline(deadlineNanos);
        ByteKey k = new ByteKey(key);
        return partitionOf(k).get(k, deadlineNanos, slots.slotOf(tenant), nanoClock.getAsLong());
    }

    /**
     * Like {@link #get} (the same lookup, counters and class update), but a hit is handed to {@code reader} while the
     * partition is locked instead of being copied into a {@link CachedItem}: the hot path's hit costs no snapshot.
     *
     * @return what {@code reader} made of the hit, or null on a miss (absent or expired)
     */
    public <R> R read(byte[] key, long deadlineNanos, String tenant, HitReader<R> reader) {
        checkDeadline(deadlineNanos);
        ByteKey k = new ByteKey(key);
        return partitionOf(k).read(k, deadlineNanos, slots.slotOf(tenant), nanoClock.getAsLong(), reader);
    }

    /**
     * Stores an item (memcached {@code set}: replaces any older copy), charged to {@code tenant}.
     *
     * @param key key bytes (not copied; must not be modified afterwards)
     * @param value value bytes (not copied; must not be modified afterwards)
     * @param clientFlags the opaque client flags
     * @param ttlNanos time to live: > 0, or {@link #NEVER_EXPIRES}; <= 0 means already expired (memcached's
     *     negative exptime), so nothing is stored and an older copy is dropped
     * @param casUnique the backend's cas unique of this version (0 if unknown)
     * @param deadlineNanos the deadline class hint (the deadline of the get that missed, MicroFuge §3.1.4), or
     *     {@link #NO_DEADLINE} for best-effort
     * @param tenant the tenant charged for the item's bytes
     * @return true if the item is cached now; false if it was too large or already expired (any older copy
     *     is gone in both cases)
     */
    public boolean set(
            byte[] key,
            byte[] value,
            int clientFlags,
            long ttlNanos,
            long casUnique,
            long deadlineNanos,
            String tenant) {
        return store(key, value, clientFlags, ttlNanos, casUnique, deadlineNanos, tenant, true);
    }

    /**
     * Like {@link #set} but stores only if no unexpired copy is cached (memcached {@code add}, the thesis's
     * {@code overwrite = false}); an existing copy is left untouched.
     *
     * @return true if the item was stored
     */
    public boolean add(
            byte[] key,
            byte[] value,
            int clientFlags,
            long ttlNanos,
            long casUnique,
            long deadlineNanos,
            String tenant) {
        return store(key, value, clientFlags, ttlNanos, casUnique, deadlineNanos, tenant, false);
    }

    private boolean store(
            byte[] key,
            byte[] value,
            int clientFlags,
            long ttlNanos,
            long casUnique,
            long deadlineNanos,
            String tenant,
            boolean overwrite) {
        if (key == null || value == null) {
            throw new IllegalArgumentException("key or value null (expected: byte arrays)");
        }
        checkDeadline(deadlineNanos);
        ByteKey k = new ByteKey(key);
        return partitionOf(k)
                .put(
                        k,
                        value,
                        clientFlags,
                        ttlNanos,
                        casUnique,
                        deadlineNanos,
                        slots.slotOf(tenant),
                        overwrite,
                        nanoClock.getAsLong());
    }

    /**
     * Sets a new TTL on a cached item ({@code touch}, {@code gat}); does not count as an access.
     *
     * @param ttlNanos as in {@link #set}; <= 0 drops the item
     * @return true if the item is cached and now has the new TTL
     */
    public boolean touch(byte[] key, long ttlNanos) {
        ByteKey k = new ByteKey(key);
        return partitionOf(k).touch(k, ttlNanos, nanoClock.getAsLong());
    }

    /**
     * Removes the local copy of a key; call before forwarding every write or delete of that key.
     *
     * @return true if a copy was removed
     */
    public boolean invalidate(byte[] key) {
        ByteKey k = new ByteKey(key);
        return partitionOf(k).invalidate(k);
    }

    /** Removes every item ({@code flush_all}); statistics counters are kept. */
    public void clear() {
        for (CachePartition p : partitions) {
            p.clear();
        }
    }

    /** Configured capacity in accounted bytes (rounded down to a multiple of the partition count). */
    public long capacityBytes() {
        return partitions[0].capacityBytes() * partitions.length;
    }

    /** Accounted bytes in use now (sum over partitions, not an atomic cut under concurrent writes). */
    public long usedBytes() {
        long sum = 0;
        for (CachePartition p : partitions) {
            sum += p.usedBytes();
        }
        return sum;
    }

    /** Items cached now (sum over partitions). */
    public long itemCount() {
        long sum = 0;
        for (CachePartition p : partitions) {
            sum += p.itemCount();
        }
        return sum;
    }

    /** The deadline class function in use. */
    public DeadlineClasses classes() {
        return classes;
    }

    /** The configuration in use. */
    public DeadlineCacheConfig config() {
        return config;
    }

    /** Statistics per tenant seen so far, in slot order ({@value #OTHER_TENANT} first if it was used). */
    public Map<String, TenantStats> tenantStats() {
        int n = slots.allocatedSlots();
        long[][] sums = new long[n][7];
        for (CachePartition p : partitions) {
            p.addTenantStats(sums);
        }
        Map<String, TenantStats> result = new LinkedHashMap<>();
        for (int s = 0; s < n; s++) {
            if (!slots.isActive(s)) {
                continue;
            }
            long[] v = sums[s];
            result.put(slots.name(s), new TenantStats(slots.name(s), v[0], v[1], v[2], v[3], v[4], v[5], v[6]));
        }
        return result;
    }

    private CachePartition partitionOf(ByteKey k) {
        return partitions[Math.floorMod(k.hashCode(), partitions.length)];
    }

    private static void checkDeadline(long deadlineNanos) {
        if (deadlineNanos < 0 && deadlineNanos != NO_DEADLINE) {
            throw new IllegalArgumentException(
                    "deadline " + deadlineNanos + " ns (expected: >= 0 or NO_DEADLINE = -1)");
        }
    }
}
