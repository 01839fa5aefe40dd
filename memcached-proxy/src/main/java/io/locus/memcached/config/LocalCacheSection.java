package io.locus.memcached.config;

/**
 * The in-proxy deadline cache.
 *
 * @param enabled false with {@code local.mode: off}, {@code local.capacity_bytes: 0} or {@code local.max_item_size: 0}
 * @param capacityBytes {@code local.capacity_bytes}
 * @param maxItemBytes {@code local.max_item_size}
 * @param maxTtlMicros {@code local.max_ttl}; 0 = the item's own TTL
 * @param baseMicros {@code dlc.base}
 * @param factor {@code dlc.factor}
 * @param queues {@code dlc.queues}
 * @param classPolicy {@code dlc.class_policy}, one of {@code LATEST}, {@code MIN}
 * @param fairness {@code fairness.enabled}
 * @param hardOverQuota {@code fairness.hard_over_quota}, only with fairness
 */
public record LocalCacheSection(
        boolean enabled,
        long capacityBytes,
        long maxItemBytes,
        long maxTtlMicros,
        long baseMicros,
        int factor,
        int queues,
        String classPolicy,
        boolean fairness,
        boolean hardOverQuota) {}
