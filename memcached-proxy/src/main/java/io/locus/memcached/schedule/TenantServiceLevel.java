package io.locus.memcached.schedule;

/**
 * Scheduling policy of one tenant (MicroFuge §4.3).
 *
 * @param tenant tenant name
 * @param level service level
 * @param urgentRatePerSecond rate of hard reads with a deadline below the urgent threshold the tenant may
 *     issue ({@code urgent_rate}); {@link Double#POSITIVE_INFINITY} = unlimited (default)
 * @param urgentBurst bucket size for urgent reads (>= 1)
 */
public record TenantServiceLevel(String tenant, ServiceLevel level, double urgentRatePerSecond, int urgentBurst) {

    /**
     * @throws IllegalArgumentException if a field is missing or out of range
     */
    public TenantServiceLevel {
        if (tenant == null || level == null) {
            throw new IllegalArgumentException("tenant " + tenant + ", level " + level + " (expected: both set)");
        }
        if (!(urgentRatePerSecond > 0)) {
            throw new IllegalArgumentException("urgent_rate of tenant \"" + tenant + "\" is " + urgentRatePerSecond
                    + "/s (expected: > 0, or Infinity for unlimited)");
        }
        if (urgentBurst < 1) {
            throw new IllegalArgumentException(
                    "urgent burst of tenant \"" + tenant + "\" is " + urgentBurst + " (expected: >= 1)");
        }
    }

    /** A tenant at the given level without an urgent-rate limit. */
    public static TenantServiceLevel of(String tenant, ServiceLevel level) {
        return new TenantServiceLevel(tenant, level, Double.POSITIVE_INFINITY, 1);
    }
}
