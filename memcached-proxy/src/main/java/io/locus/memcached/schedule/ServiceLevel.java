package io.locus.memcached.schedule;

/**
 * Tenant service levels for admission fairness (MicroFuge §4.3, decision 10 of DESIGN.md), from highest to lowest.
 * A lower level is admitted against an inflated latency prediction ({@code kappaLevel}), which leaves
 * headroom for the higher levels; its inflation grows while a higher level is rejected too often.
 */
public enum ServiceLevel {
    /** At most 1 % of hard requests rejected; no inflation at start. */
    GOLD(0.01, 1.0),
    /** At most 5 % rejected; predictions inflated by 1.25 at start. */
    SILVER(0.05, 1.25),
    /** No bound on rejections; predictions inflated by 1.5 at start. */
    BRONZE(1.0, 1.5);

    private final double maxRejectFraction;
    private final double initialKappaLevel;

    ServiceLevel(double maxRejectFraction, double initialKappaLevel) {
        this.maxRejectFraction = maxRejectFraction;
        this.initialKappaLevel = initialKappaLevel;
    }

    /**
     * The level named in configuration ({@code gold}, {@code silver}, {@code bronze}; case-insensitive).
     *
     * @throws IllegalArgumentException naming the value and the accepted names
     */
    public static ServiceLevel parse(String name) {
        for (ServiceLevel level : values()) {
            if (level.name().equalsIgnoreCase(name == null ? "" : name.trim())) {
                return level;
            }
        }
        throw new IllegalArgumentException("service level \"" + name + "\" (expected: gold, silver or bronze)");
    }

    /** Bound on the fraction of this level's hard requests that may be rejected per epoch. */
    public double maxRejectFraction() {
        return maxRejectFraction;
    }

    /** Inflation factor multiplied into the admission prediction at start and the value decay returns to. */
    public double initialKappaLevel() {
        return initialKappaLevel;
    }
}
