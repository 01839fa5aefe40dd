package io.locus.memcached.cache;

import java.time.Duration;
import java.util.Map;

/**
 * Configuration of a {@link DeadlineCache}; keys and defaults follow README.md, "Configuration".
 *
 * @param capacityBytes total capacity in accounted bytes ({@code local.capacity_bytes}, default 64 MiB), split
 *     evenly over the partitions
 * @param partitions number of independently locked partitions ({@code P = io_threads}: half the cores by default)
 * @param base upper bound of deadline class 0 ({@code dlc.base}, default 2 ms)
 * @param factor growth factor of the class ranges and of the eviction multiplier ({@code dlc.factor}, default 2)
 * @param queues number of deadline classes ({@code dlc.queues}, default 12; 1 gives a plain LRU)
 * @param classPolicy what a hit with a deadline does to the item's class ({@code dlc.class_policy}, LATEST)
 * @param fairnessEnabled scale effective ages by the tenant's usage factor mu ({@code fairness.enabled}, false)
 * @param hardOverQuota while a tenant is over its quota, evict only from over-quota tenants
 *     ({@code fairness.hard_over_quota}, false; only with fairness enabled)
 * @param maxTenants tenant slots per cache; tenants beyond this share the slot {@value DeadlineCache#OTHER_TENANT}
 *     ({@code max_tenants}, default 16)
 * @param tenantWeights quota weight per tenant name; unlisted tenants weigh 1
 * @param maxItemSizeBytes largest accounted item size the cache stores ({@code local.max_item_size}, 256 KiB)
 */
public record DeadlineCacheConfig(
        long capacityBytes,
        int partitions,
        Duration base,
        int factor,
        int queues,
        ClassPolicy classPolicy,
        boolean fairnessEnabled,
        boolean hardOverQuota,
        int maxTenants,
        Map<String, Integer> tenantWeights,
        int maxItemSizeBytes) {

    /** Default capacity: 64 MiB. */
    public static final long DEFAULT_CAPACITY_BYTES = 64L << 20;

    /**
     * @throws IllegalArgumentException naming the key, the actual value and the expected range
     */
    public DeadlineCacheConfig {
        if (capacityBytes <= 0) {
            throw new IllegalArgumentException("local.capacity_bytes " + capacityBytes + " (expected: > 0)");
        }
        if (partitions < 1 || partitions > 1024) {
            throw new IllegalArgumentException("partitions " + partitions + " (expected: 1..1024)");
        }
        if (base == null || base.isNegative() || base.isZero()) {
            throw new IllegalArgumentException("dlc.base " + base + " (expected: a positive duration)");
        }
        if (maxTenants < 1 || maxTenants > 4096) {
            throw new IllegalArgumentException("max_tenants " + maxTenants + " (expected: 1..4096)");
        }
        if (maxItemSizeBytes < 1) {
            throw new IllegalArgumentException("local.max_item_size " + maxItemSizeBytes + " (expected: >= 1)");
        }
        if (classPolicy == null) {
            throw new IllegalArgumentException("dlc.class_policy null (expected: LATEST or MIN)");
        }
        if (hardOverQuota && !fairnessEnabled) {
            throw new IllegalArgumentException(
                    "fairness.hard_over_quota true with fairness.enabled false (expected: enable fairness first)");
        }
        tenantWeights = Map.copyOf(tenantWeights == null ? Map.of() : tenantWeights);
        tenantWeights.forEach((tenant, weight) -> {
            if (weight == null || weight < 1) {
                throw new IllegalArgumentException(
                        "weight of tenant \"" + tenant + "\" is " + weight + " (expected: >= 1)");
            }
        });
        // Validates factor and queues with the same messages the class function uses.
        new DeadlineClasses(base.toNanos(), factor, queues);
    }

    /** The default configuration (README.md, "Configuration") with the given capacity. */
    public static DeadlineCacheConfig defaults(long capacityBytes) {
        return new DeadlineCacheConfig(
                capacityBytes,
                2,
                Duration.ofMillis(2),
                2,
                12,
                ClassPolicy.LATEST,
                false,
                false,
                16,
                Map.of(),
                256 * 1024);
    }

    /** A copy with another partition count. */
    public DeadlineCacheConfig withPartitions(int newPartitions) {
        return new DeadlineCacheConfig(
                capacityBytes,
                newPartitions,
                base,
                factor,
                queues,
                classPolicy,
                fairnessEnabled,
                hardOverQuota,
                maxTenants,
                tenantWeights,
                maxItemSizeBytes);
    }

    /** A copy with another number of deadline classes (1 = plain LRU). */
    public DeadlineCacheConfig withQueues(int newQueues) {
        return new DeadlineCacheConfig(
                capacityBytes,
                partitions,
                base,
                factor,
                newQueues,
                classPolicy,
                fairnessEnabled,
                hardOverQuota,
                maxTenants,
                tenantWeights,
                maxItemSizeBytes);
    }

    /** A copy with another class policy. */
    public DeadlineCacheConfig withClassPolicy(ClassPolicy newPolicy) {
        return new DeadlineCacheConfig(
                capacityBytes,
                partitions,
                base,
                factor,
                queues,
                newPolicy,
                fairnessEnabled,
                hardOverQuota,
                maxTenants,
                tenantWeights,
                maxItemSizeBytes);
    }

    /** A copy with fairness settings and tenant weights. */
    public DeadlineCacheConfig withFairness(boolean enabled, boolean hard, Map<String, Integer> weights) {
        return new DeadlineCacheConfig(
                capacityBytes,
                partitions,
                base,
                factor,
                queues,
                classPolicy,
                enabled,
                hard,
                maxTenants,
                weights,
                maxItemSizeBytes);
    }

    /** A copy with another tenant slot count. */
    public DeadlineCacheConfig withMaxTenants(int newMaxTenants) {
        return new DeadlineCacheConfig(
                capacityBytes,
                partitions,
                base,
                factor,
                queues,
                classPolicy,
                fairnessEnabled,
                hardOverQuota,
                newMaxTenants,
                tenantWeights,
                maxItemSizeBytes);
    }

    /** A copy with another largest item size. */
    public DeadlineCacheConfig withMaxItemSizeBytes(int newMax) {
        return new DeadlineCacheConfig(
                capacityBytes,
                partitions,
                base,
                factor,
                queues,
                classPolicy,
                fairnessEnabled,
                hardOverQuota,
                maxTenants,
                tenantWeights,
                newMax);
    }
}
