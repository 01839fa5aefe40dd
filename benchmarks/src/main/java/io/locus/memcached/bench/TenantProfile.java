package io.locus.memcached.bench;

import java.util.List;

/**
 * One tenant of the synthetic workload: its share of all requests and its mix of deadline ranges. A key's range is
 * a function of the key (DESIGN.md, "How it is measured": "deadlines from the key hash"), so one key always carries the
 * same deadline.
 *
 * @param name tenant id as the proxy's {@code tenants[].id} (also the key prefix {@code name:})
 * @param share fraction of all requests, > 0 (shares are normalised over all tenants)
 * @param r1 fraction of this tenant's keys in range 1
 * @param r2 fraction in range 2
 * @param r3 fraction in range 3; the rest (1 - r1 - r2 - r3) is best-effort
 * @param level the proxy's service level ({@code gold}, {@code silver}, {@code bronze})
 * @param weight the proxy's tenant weight (cache share), >= 1
 */
public record TenantProfile(String name, double share, double r1, double r2, double r3, String level, int weight) {
    private static final long SEED_RANGE = 0x9E3779B97F4A7C15L;

    /** Checks the fractions. */
    public TenantProfile {
        if (!name.matches("[A-Za-z0-9._-]{1,32}")) {
            throw new IllegalArgumentException("tenant name \"" + name + "\" (expected: 1..32 of A-Z a-z 0-9 . _ -)");
        }
        if (!(share > 0) || r1 < 0 || r2 < 0 || r3 < 0 || r1 + r2 + r3 > 1 + 1e-9) {
            throw new IllegalArgumentException("tenant " + name + ": share " + share + ", ranges " + r1 + "/" + r2 + "/"
                    + r3 + " (expected: share > 0, each range >= 0, sum of ranges <= 1)");
        }
    }

    /**
     * The default mix: {@code gold} mostly short deadlines, {@code silver} the thesis's Table 6.2 mix (0.2/0.3/0.5),
     * {@code bronze} long deadlines and 30 % best-effort.
     */
    public static List<TenantProfile> defaults() {
        return List.of(
                new TenantProfile("gold", 0.3, 0.5, 0.3, 0.2, "gold", 2),
                new TenantProfile("silver", 0.3, 0.2, 0.3, 0.5, "silver", 1),
                new TenantProfile("bronze", 0.4, 0.0, 0.2, 0.5, "bronze", 1));
    }

    /** The range of a key id of this tenant, from the id's seeded hash and this tenant's mix. */
    public DeadlineRange rangeOf(long id) {
        double u = KeyHash.unit(id, SEED_RANGE);
        if (u < r1) {
            return DeadlineRange.R1;
        }
        if (u < r1 + r2) {
            return DeadlineRange.R2;
        }
        if (u < r1 + r2 + r3) {
            return DeadlineRange.R3;
        }
        return DeadlineRange.BEST_EFFORT;
    }
}
