package io.locus.memcached.cache;

/**
 * Counters of one tenant, summed over all partitions of a {@link DeadlineCache}.
 *
 * <p>Hits and misses are charged to the tenant that issued the {@code get}; items, bytes, evictions and
 * expirations to the tenant that stored the item. Snapshots of different partitions are taken one after the
 * other, so the sum is not an atomic cut across partitions.
 *
 * @param tenant tenant name ({@value DeadlineCache#OTHER_TENANT} collects tenants beyond {@code maxTenants})
 * @param hits gets answered from the cache
 * @param misses gets not answered (absent, or expired on access)
 * @param evictions items removed to make room (expired items removed for room count as expirations)
 * @param expirations expired items removed lazily (on access or when chosen as victim)
 * @param items items currently cached
 * @param bytes accounted bytes currently cached (key + value + {@value DeadlineCache#ENTRY_OVERHEAD_BYTES})
 * @param quotaBytes current quota (capacity times weight share among active tenants)
 */
public record TenantStats(
        String tenant,
        long hits,
        long misses,
        long evictions,
        long expirations,
        long items,
        long bytes,
        long quotaBytes) {

    /** Hits divided by gets, 0 when there were no gets. */
    public double hitRatio() {
        long gets = hits + misses;
        return gets == 0 ? 0 : (double) hits / gets;
    }
}
