package io.locus.gluster.virtcache.sizing;

import java.util.LinkedHashMap;
import java.util.Map;

/**
 * Splits one cache among the VMs redirected at once by need: each gets what its {@link CacheSizer} asks for if all
 * fits, else a share proportional to its demand. A VM that needs little is never given more than it asked for.
 */
public final class CacheShares {
    private CacheShares() {}

    /**
     * @param capacity the cache to split (any unit, e.g. blocks)
     * @param demands each VM's demand in the same unit
     * @return each VM's share, in the demands' order; the shares sum to at most capacity
     * @throws IllegalArgumentException for a negative capacity or demand, naming the VM
     */
    public static Map<String, Long> split(long capacity, Map<String, Long> demands) {
        if (capacity < 0) {
            throw new IllegalArgumentException("cache capacity " + capacity + " (expected: >= 0)");
        }
        long total = 0;
        for (Map.Entry<String, Long> e : demands.entrySet()) {
            if (e.getValue() < 0) {
                throw new IllegalArgumentException(
                        "cache demand of " + e.getKey() + " " + e.getValue() + " (expected: >= 0)");
            }
            total = Math.addExact(total, e.getValue());
        }
        Map<String, Long> shares = new LinkedHashMap<>();
        for (Map.Entry<String, Long> e : demands.entrySet()) {
            long share = total <= capacity ? e.getValue() : (long) Math.floor((double) capacity * e.getValue() / total);
            shares.put(e.getKey(), share);
        }
        return shares;
    }
}
