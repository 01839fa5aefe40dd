package io.locus.memcached.schedule;

import java.time.Duration;
import java.util.Arrays;
import java.util.Collection;
import java.util.EnumMap;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.Locale;
import java.util.Map;

/**
 * Tenant fairness in admission (MicroFuge §4.3), shared by the schedulers of all backends.
 *
 * <ul>
 *   <li>Each tenant has a {@link ServiceLevel}; a level's {@code kappaLevel} multiplies the admission
 *       prediction of its hard tickets, so lower levels are admitted against less capacity.</li>
 *   <li>Once per epoch: if a level was refused above its bound for reasons lower levels' work can cause (not on an
 *       idle backend, not behind its own level's work, not for its urgent quota), and inflating has been seen to lower
 *       that fraction ({@link InflationProbe}), the {@code kappaLevel} of every lower level grows by 10 % (at most
 *       {@value #KAPPA_LEVEL_MAX}); otherwise it decays by 5 % toward its initial value.</li>
 *   <li>A tenant's hard reads with a deadline below {@code urgentThreshold} (default 32 ms, the upper bound of
 *       deadline class 4) draw from its urgent token bucket; an empty bucket rejects with
 *       {@link RejectReason#TENANT_QUOTA} (greedy clients, [MicroFuge §4.3]).</li>
 *   <li>A per-tenant re-issue bucket bounds background re-fetches of rejected reads ({@link
 *       #tryAcquireReissue}).</li>
 * </ul>
 *
 * <p>Thread-safe: every method is synchronized on this object (called once per hard offer, not per byte).
 */
public final class ServiceLevels {
    /** Upper bound of a level's inflation factor. */
    public static final double KAPPA_LEVEL_MAX = 4.0;
    /** Re-issue bucket of every tenant: 50 background fetches per second, burst 10 (MicroFuge §4.3, README.md, "Configuration"). */
    public static final double REISSUE_RATE_PER_SECOND = 50;
    /** Burst of the re-issue bucket. */
    public static final int REISSUE_BURST = 10;
    /** Default urgent threshold: 32 ms. */
    public static final Duration DEFAULT_URGENT_THRESHOLD = Duration.ofMillis(32);

    private final Map<String, TenantServiceLevel> policies = new HashMap<>();
    private final Map<String, TokenBucket> urgentBuckets = new HashMap<>();
    private final Map<String, TokenBucket> reissueBuckets = new HashMap<>();
    private final ServiceLevel defaultLevel;
    private final long urgentThresholdNanos;
    private final long epochNanos;
    private final EnumMap<ServiceLevel, Double> kappaLevel = new EnumMap<>(ServiceLevel.class);
    /** Hard offers of the current epoch per level: [offers, refused for a reason lower levels can cause]. */
    private final EnumMap<ServiceLevel, long[]> epochCounts = new EnumMap<>(ServiceLevel.class);

    private final EnumMap<ServiceLevel, InflationProbe> probes = new EnumMap<>(ServiceLevel.class);
    /** Hard offers since start per level, indexed by {@link OfferOutcome} ordinal. */
    private final EnumMap<ServiceLevel, long[]> totals = new EnumMap<>(ServiceLevel.class);

    private long epochStartNanos = Long.MIN_VALUE;

    /**
     * @param tenantPolicies per-tenant levels and urgent limits (tenant names must be unique)
     * @param defaultLevel level of tenants not listed
     * @param urgentThreshold deadlines below this count as urgent
     * @param epoch controller period
     * @throws IllegalArgumentException on a duplicate tenant or a non-positive duration
     */
    public ServiceLevels(
            Collection<TenantServiceLevel> tenantPolicies,
            ServiceLevel defaultLevel,
            Duration urgentThreshold,
            Duration epoch) {
        if (defaultLevel == null
                || urgentThreshold == null
                || urgentThreshold.isNegative()
                || epoch == null
                || epoch.isNegative()
                || epoch.isZero()) {
            throw new IllegalArgumentException("default level " + defaultLevel + ", urgent threshold " + urgentThreshold
                    + ", epoch " + epoch + " (expected: a level, >= 0, > 0)");
        }
        for (TenantServiceLevel p : tenantPolicies) {
            if (policies.put(p.tenant(), p) != null) {
                throw new IllegalArgumentException("tenant \"" + p.tenant() + "\" listed twice (expected: once)");
            }
            urgentBuckets.put(p.tenant(), new TokenBucket(p.urgentRatePerSecond(), p.urgentBurst()));
        }
        this.defaultLevel = defaultLevel;
        this.urgentThresholdNanos = urgentThreshold.toNanos();
        this.epochNanos = epoch.toNanos();
        for (ServiceLevel level : ServiceLevel.values()) {
            kappaLevel.put(level, level.initialKappaLevel());
            epochCounts.put(level, new long[2]);
            totals.put(level, new long[OfferOutcome.values().length]);
            probes.put(level, new InflationProbe(level.maxRejectFraction()));
        }
    }

    /** No tenant policies: everybody is {@link ServiceLevel#GOLD} without urgent limits (paper behaviour). */
    public static ServiceLevels unrestricted() {
        return new ServiceLevels(
                java.util.List.of(), ServiceLevel.GOLD, DEFAULT_URGENT_THRESHOLD, Duration.ofSeconds(1));
    }

    /** The level of a tenant. */
    public synchronized ServiceLevel levelOf(String tenant) {
        TenantServiceLevel p = policies.get(tenant);
        return p == null ? defaultLevel : p.level();
    }

    /** Current inflation factor of a tenant's hard tickets. */
    public synchronized double kappaLevel(String tenant) {
        return kappaLevel.get(levelOf(tenant));
    }

    /** Current inflation factor of a level. */
    public synchronized double kappaLevel(ServiceLevel level) {
        return kappaLevel.get(level);
    }

    /**
     * Takes an urgent token if the request is urgent; non-urgent requests always pass.
     *
     * @return false if the request is urgent and the tenant's bucket is empty
     */
    public synchronized boolean tryAcquireUrgent(String tenant, long relativeDeadlineNanos, long nowNanos) {
        if (relativeDeadlineNanos >= urgentThresholdNanos) {
            return true;
        }
        TokenBucket bucket = urgentBuckets.get(tenant);
        return bucket == null || bucket.tryAcquire(nowNanos);
    }

    /**
     * Takes a token from the tenant's re-issue bucket: after a hard reject the proxy may fetch the key in the
     * background as a best-effort read and cache it with the original deadline [MicroFuge §4.3], at most
     * {@value #REISSUE_RATE_PER_SECOND} per second per tenant.
     *
     * @return true if the background fetch may be issued
     */
    public synchronized boolean tryAcquireReissue(String tenant, long nowNanos) {
        return reissueBuckets
                .computeIfAbsent(tenant, t -> new TokenBucket(REISSUE_RATE_PER_SECOND, REISSUE_BURST))
                .tryAcquire(nowNanos);
    }

    /** Counts one hard offer of a tenant and what became of it; rolls the epoch when due. */
    public synchronized void recordHardOffer(String tenant, OfferOutcome outcome, long nowNanos) {
        rollEpoch(nowNanos);
        ServiceLevel level = levelOf(tenant);
        long[] counts = epochCounts.get(level);
        counts[0]++;
        if (outcome == OfferOutcome.LOWER_LOAD || outcome == OfferOutcome.OTHER) {
            counts[1]++;
        }
        totals.get(level)[outcome.ordinal()]++;
    }

    /**
     * Per level, the current inflation and the hard offers since start by outcome, as {@code stats} lines:
     * {@code locus_level:<level>:kappa_level}, {@code :offers}, then one line per refusal outcome.
     */
    public synchronized Map<String, String> statsLines() {
        Map<String, String> m = new LinkedHashMap<>();
        for (ServiceLevel level : ServiceLevel.values()) {
            String p = "locus_level:" + level.name().toLowerCase(Locale.ROOT) + ":";
            long[] t = totals.get(level);
            m.put(p + "kappa_level", String.format(Locale.ROOT, "%.3f", kappaLevel.get(level)));
            m.put(p + "offers", Long.toString(Arrays.stream(t).sum()));
            for (OfferOutcome o : OfferOutcome.values()) {
                if (o.rejected()) {
                    m.put(p + o.statsName(), Long.toString(t[o.ordinal()]));
                }
            }
        }
        return m;
    }

    /** Runs the level controller if an epoch has passed. */
    public synchronized void rollEpoch(long nowNanos) {
        if (epochStartNanos == Long.MIN_VALUE) {
            epochStartNanos = nowNanos;
            return;
        }
        if (nowNanos - epochStartNanos < epochNanos) {
            return;
        }
        boolean inflate = false;
        for (ServiceLevel level : ServiceLevel.values()) { // highest level first
            double k = kappaLevel.get(level);
            kappaLevel.put(
                    level,
                    inflate ? Math.min(KAPPA_LEVEL_MAX, k * 1.10) : Math.max(level.initialKappaLevel(), k / 1.05));
            long[] counts = epochCounts.get(level);
            inflate |= probes.get(level).epoch(counts[0], counts[1]);
            counts[0] = 0;
            counts[1] = 0;
        }
        epochStartNanos = nowNanos;
    }
}
