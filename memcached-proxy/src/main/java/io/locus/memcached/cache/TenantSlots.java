package io.locus.memcached.cache;

import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

/**
 * Maps tenant names to a bounded number of slots shared by all partitions. Slot 0 is
 * {@value DeadlineCache#OTHER_TENANT}: it collects tenants that arrive after all slots are taken.
 *
 * <p>Thread-safe: lookups are lock-free, allocation is synchronized and never takes a partition lock, so
 * partitions may call in while holding theirs. A slot is never released (tenants are
 * few and long-lived; the bound keeps the per-partition queue table fixed).
 */
final class TenantSlots {
    private final int maxSlots;
    private final Map<String, Integer> weights;
    private final ConcurrentHashMap<String, Integer> slotByName = new ConcurrentHashMap<>();
    private final String[] names;
    private final int[] weightBySlot;
    private volatile boolean[] active;
    private volatile long activeWeightSum;
    private volatile int allocated = 1; // written under the monitor, after the slot's name and weight

    TenantSlots(int maxSlots, Map<String, Integer> weights) {
        this.maxSlots = maxSlots;
        this.weights = weights;
        this.names = new String[maxSlots];
        this.weightBySlot = new int[maxSlots];
        this.active = new boolean[maxSlots];
        names[0] = DeadlineCache.OTHER_TENANT;
        weightBySlot[0] = weights.getOrDefault(DeadlineCache.OTHER_TENANT, 1);
        slotByName.put(DeadlineCache.OTHER_TENANT, 0);
    }

    int maxSlots() {
        return maxSlots;
    }

    /** The slot of a tenant, allocating one (or falling back to slot 0) on first sight; marks it active. */
    int slotOf(String tenant) {
        if (tenant == null) {
            throw new IllegalArgumentException("tenant null (expected: a tenant name)");
        }
        Integer slot = slotByName.get(tenant);
        if (slot != null && active[slot]) {
            return slot;
        }
        return allocate(tenant);
    }

    private synchronized int allocate(String tenant) {
        Integer slot = slotByName.get(tenant);
        if (slot == null) {
            if (allocated < maxSlots) {
                slot = allocated;
                names[slot] = tenant;
                weightBySlot[slot] = weights.getOrDefault(tenant, 1);
                allocated = slot + 1;
            } else {
                slot = 0;
            }
            slotByName.put(tenant, slot);
        }
        if (!active[slot]) {
            boolean[] next = active.clone();
            next[slot] = true;
            activeWeightSum += weightBySlot[slot];
            active = next;
        }
        return slot;
    }

    String name(int slot) {
        return names[slot];
    }

    /** Number of slots handed out so far (slot 0 included). */
    int allocatedSlots() {
        return allocated;
    }

    boolean isActive(int slot) {
        return active[slot];
    }

    /** Quota of a slot in bytes of a partition of the given capacity: capacity * w / sum of active w. */
    long quotaBytes(int slot, long partitionCapacityBytes) {
        long sum = activeWeightSum;
        if (sum == 0 || !active[slot]) {
            return partitionCapacityBytes;
        }
        return (long) ((double) partitionCapacityBytes * weightBySlot[slot] / sum);
    }
}
