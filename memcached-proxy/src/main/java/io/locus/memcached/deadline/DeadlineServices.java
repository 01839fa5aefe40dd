package io.locus.memcached.deadline;

import io.locus.memcached.backend.PoolRing;
import io.locus.memcached.cache.ClassPolicy;
import io.locus.memcached.cache.DeadlineCache;
import io.locus.memcached.cache.DeadlineCacheConfig;
import io.locus.memcached.config.ConfigException;
import io.locus.memcached.config.DeadlineSection;
import io.locus.memcached.config.LocalCacheSection;
import io.locus.memcached.config.ProxyConfig;
import io.locus.memcached.schedule.SchedulerConfig;
import io.locus.memcached.schedule.ServiceLevel;
import io.locus.memcached.schedule.ServiceLevels;
import io.locus.memcached.schedule.TenantServiceLevel;
import io.locus.memcached.stats.ProxyStats;
import io.locus.memcached.stats.TenantMetrics;
import io.locus.memcached.tenant.TenantSpec;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * What the deadline path shares across I/O threads: the in-proxy cache (null with {@code local.mode: off}), the
 * scheduler settings, the tenants' service levels and the per-tenant metrics. Each I/O thread builds its own
 * {@link DeadlineHandler} (with one scheduler per backend) through {@link DeadlineHandler#factory}.
 *
 * <p>Thread-safe.
 */
public final class DeadlineServices {
    private final LocalCache cache;
    private final SchedulerConfig schedulerConfig;
    private final ServiceLevels levels;
    private final TenantMetrics metrics = new TenantMetrics();
    private final java.util.concurrent.atomic.LongAdder reissues = new java.util.concurrent.atomic.LongAdder();
    private final java.util.concurrent.atomic.LongAdder fillsCoalesced = new java.util.concurrent.atomic.LongAdder();
    private final PoolRing ring;
    private final ProxyStats stats;
    private final long nominalMicros;
    private final boolean classicRejectAsError;
    private final boolean metaRejectAsError;
    private final boolean scheduling;
    private final long backendTimeoutNanos;

    /**
     * @throws ConfigException naming the key if the configuration is not usable for the deadline path
     */
    public DeadlineServices(ProxyConfig config, PoolRing ring, ProxyStats stats) {
        this.ring = ring;
        this.stats = stats;
        DeadlineSection d = config.deadline();
        this.nominalMicros = d.nominalMicros();
        this.classicRejectAsError = d.classicRejectAsError();
        this.metaRejectAsError = d.metaRejectAsError();
        this.scheduling = d.scheduling();
        this.backendTimeoutNanos = config.backend().timeoutMicros() * 1000;
        try {
            this.schedulerConfig = new SchedulerConfig(
                    d.window(),
                    d.maxDemotions(),
                    d.maxQueue(),
                    Duration.ofNanos(d.admissionGuardMicros() * 1000),
                    d.targetMiss(),
                    d.quantile(),
                    0.5,
                    4.0,
                    0.2,
                    512,
                    32,
                    Duration.ofNanos(500_000),
                    Duration.ofNanos(nominalMicros * 1000),
                    true,
                    Duration.ofSeconds(1));
            List<TenantServiceLevel> tenantLevels = new ArrayList<>();
            for (TenantSpec t : config.tenants()) {
                tenantLevels.add(TenantServiceLevel.of(t.id(), levelOf(t)));
            }
            this.levels = new ServiceLevels(
                    tenantLevels, ServiceLevel.GOLD, ServiceLevels.DEFAULT_URGENT_THRESHOLD, Duration.ofSeconds(1));
            this.cache = buildCache(config);
        } catch (IllegalArgumentException e) {
            throw new ConfigException(e.getMessage(), e);
        }
    }

    /** {@code default} (or no level) is gold: unlimited rejections are not the default for anybody. */
    private static ServiceLevel levelOf(TenantSpec t) {
        return t.level() == null || t.level().equals("default") ? ServiceLevel.GOLD : ServiceLevel.parse(t.level());
    }

    private static LocalCache buildCache(ProxyConfig config) {
        LocalCacheSection l = config.localCache();
        if (!l.enabled()) {
            return null;
        }
        Map<String, Integer> weights = new HashMap<>();
        for (TenantSpec t : config.tenants()) {
            weights.put(t.id(), t.weight());
        }
        DeadlineCacheConfig c = new DeadlineCacheConfig(
                l.capacityBytes(),
                config.server().ioThreads(),
                Duration.ofNanos(l.baseMicros() * 1000),
                l.factor(),
                l.queues(),
                ClassPolicy.valueOf(l.classPolicy()),
                l.fairness(),
                l.hardOverQuota(),
                16,
                weights,
                (int) Math.min(Integer.MAX_VALUE, l.maxItemBytes()));
        return new LocalCache(new DeadlineCache(c, System::nanoTime), l.maxTtlMicros() * 1000);
    }

    LocalCache cache() {
        return cache;
    }

    SchedulerConfig schedulerConfig() {
        return schedulerConfig;
    }

    ServiceLevels levels() {
        return levels;
    }

    /** Background re-issues of refused reads, since start. */
    java.util.concurrent.atomic.LongAdder reissues() {
        return reissues;
    }

    /** Local misses that waited for a fill of the same key already in flight instead of sending their own. */
    java.util.concurrent.atomic.LongAdder fillsCoalesced() {
        return fillsCoalesced;
    }

    TenantMetrics metrics() {
        return metrics;
    }

    PoolRing ring() {
        return ring;
    }

    ProxyStats stats() {
        return stats;
    }

    long nominalMicros() {
        return nominalMicros;
    }

    boolean classicRejectAsError() {
        return classicRejectAsError;
    }

    /** False with {@code sched.enabled: false}: the cache alone (the thesis's "DLC" row), requests forwarded at once. */
    boolean scheduling() {
        return scheduling;
    }

    /** {@code backend.timeout}: also the time a multi-get fetched in batches may take as a whole. */
    long backendTimeoutNanos() {
        return backendTimeoutNanos;
    }

    boolean metaRejectAsError() {
        return metaRejectAsError;
    }

    /** The deadline path's {@code stats} lines: local cache totals, then {@code locus_tenant:<id>:<field>}. */
    public Map<String, String> statsLines() {
        Map<String, String> m = new LinkedHashMap<>();
        if (cache != null) {
            DeadlineCache dlc = cache.dlc();
            m.put("locus_local_items", Long.toString(dlc.itemCount()));
            m.put("locus_local_bytes", Long.toString(dlc.usedBytes()));
            m.put("locus_local_capacity_bytes", Long.toString(dlc.capacityBytes()));
            dlc.tenantStats().forEach((tenant, s) -> {
                m.put("locus_local:" + tenant + ":bytes", Long.toString(s.bytes()));
                m.put("locus_local:" + tenant + ":quota_bytes", Long.toString(s.quotaBytes()));
                m.put("locus_local:" + tenant + ":evictions", Long.toString(s.evictions()));
            });
        } else {
            m.put("locus_local_items", "0");
            m.put("locus_local_bytes", "0");
            m.put("locus_local_capacity_bytes", "0");
        }
        m.put("locus_reissues", reissues.toString());
        m.put("locus_fills_coalesced", fillsCoalesced.toString());
        m.putAll(levels.statsLines());
        metrics.appendStats(m);
        return m;
    }
}
