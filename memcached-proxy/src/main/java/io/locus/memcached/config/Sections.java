package io.locus.memcached.config;

import io.locus.memcached.balance.BalanceConfig;
import io.locus.memcached.protocol.ProtocolLimits;
import io.locus.memcached.tenant.DeadlineRule;
import io.locus.memcached.tenant.TenantSpec;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;

/**
 * Turns the checked scalar values (by key name, converted by {@link ConfigLoader#convert}) into the typed sections:
 * the one place that looks keys up by name.
 */
final class Sections {
    /**
     * Keys of {@link BalanceConfig#KEYS} not passed as they are: {@code lb.epoch} and {@code lb.phases} are converted
     * below; {@code replication_factor} is the proxy's own (the availability copies), not the balancer's.
     */
    private static final Set<String> NOT_AS_THEY_ARE = Set.of("lb.epoch", "lb.phases", "replication_factor");

    private final Map<String, Object> values;

    Sections(Map<String, Object> values) {
        this.values = values;
    }

    private Object value(String key) {
        Object v = values.get(key);
        if (v == null) {
            throw new IllegalArgumentException("no configuration key " + key + " (expected: one of ConfigKeys.ALL)");
        }
        return v;
    }

    private long longValue(String key) {
        return ((Number) value(key)).longValue();
    }

    private int intValue(String key) {
        return Math.toIntExact(longValue(key));
    }

    private double doubleValue(String key) {
        return ((Number) value(key)).doubleValue();
    }

    private boolean bool(String key) {
        return (Boolean) value(key);
    }

    private String string(String key) {
        return value(key).toString();
    }

    ServerSection server() {
        boolean authEnabled = bool("auth.enabled");
        if (authEnabled && string("auth.file").isEmpty()) {
            throw new ConfigException(
                    "auth.file: empty while auth.enabled is true (expected: path of a user:password file)");
        }
        return new ServerSection(
                ServerSection.Mode.valueOf(string("mode").toUpperCase(Locale.ROOT)),
                intValue("io_threads"),
                intValue("server.busy_poll_us"),
                string("version"),
                authEnabled,
                string("auth.file"),
                intValue("metrics.prometheus_port"),
                longValue("reload.interval"));
    }

    LimitsSection limits() {
        return new LimitsSection(
                new ProtocolLimits(
                        intValue("limits.max_key_bytes"), intValue("limits.max_line_bytes"), intValue("max_item_size")),
                intValue("limits.max_pipeline"),
                longValue("limits.reply_budget"),
                intValue("limits.max_pending_keys"));
    }

    BackendSection backend() {
        return new BackendSection(
                intValue("backend.conns"),
                longValue("backend.timeout"),
                longValue("backend.connect_timeout"),
                longValue("backend.retry_interval"),
                new BackendSection.Ejection(
                        bool("backend.auto_eject_hosts"),
                        intValue("backend.server_failure_limit"),
                        longValue("backend.server_retry_timeout")));
    }

    DeadlineSection deadline() {
        return new DeadlineSection(
                longValue("be.nominal_deadline"),
                string("classic.reject_mode").equals("error"),
                string("meta.reject_mode").equals("error"),
                bool("sched.enabled"),
                intValue("sched.window"),
                intValue("sched.max_demotions"),
                intValue("sched.max_queue"),
                longValue("admission.guard"),
                doubleValue("admission.target_miss"),
                doubleValue("admission.quantile"));
    }

    LocalCacheSection localCache() {
        long capacity = longValue("local.capacity_bytes");
        long maxItem = longValue("local.max_item_size");
        boolean fairness = bool("fairness.enabled");
        return new LocalCacheSection(
                !string("local.mode").equals("off") && capacity > 0 && maxItem > 0,
                capacity,
                maxItem,
                longValue("local.max_ttl"),
                longValue("dlc.base"),
                intValue("dlc.factor"),
                intValue("dlc.queues"),
                string("dlc.class_policy"),
                fairness,
                fairness && bool("fairness.hard_over_quota"));
    }

    BalanceSection balance() {
        boolean enabled = bool("lb.enabled");
        int copies = intValue("replication_factor");
        boolean active = enabled || copies > 1;
        return new BalanceSection(
                active,
                copies,
                doubleValue("lb.capacity"),
                longValue("lb.memory_poll"),
                active ? balancer(enabled, copies) : BalanceConfig.defaults());
    }

    /**
     * The balancer's settings. Keys the proxy does not list keep {@link BalanceConfig}'s defaults; Phase 1 and 3 are
     * refused on top of availability copies.
     *
     * @throws ConfigException naming the key and the value
     */
    private BalanceConfig balancer(boolean enabled, int copies) {
        Map<String, String> o = new LinkedHashMap<>();
        o.put("lb.epoch", Math.max(1, longValue("lb.epoch") / 1000) + "ms");
        for (String k : BalanceConfig.KEYS) {
            if (ConfigKeys.byName(k) != null && !NOT_AS_THEY_ARE.contains(k)) {
                o.put(k, String.valueOf(value(k)));
            }
        }
        String phases = string("lb.phases").trim().toLowerCase(Locale.ROOT);
        if (!enabled) {
            phases = "none"; // only replication for availability was asked for
        } else if (copies > 1 && phases.contains("p1")) {
            throw new ConfigException("lb.phases: \"" + string("lb.phases") + "\" with replication_factor " + copies
                    + " (expected: none; Phase 1 shadows on top of availability copies are not supported yet)");
        }
        if (copies > 1 && phases.contains("p3")) {
            throw new ConfigException("lb.phases: \"" + string("lb.phases") + "\" with replication_factor " + copies
                    + " (expected: none; bucket migration of availability copies is not supported yet)");
        }
        o.put("lb.phases", phases.isEmpty() ? "none" : phases);
        try {
            return BalanceConfig.defaults().withOverrides(o);
        } catch (IllegalArgumentException e) {
            throw new ConfigException(e.getMessage(), e);
        }
    }

    TenantSection tenant(
            List<TenantSpec> tenants, List<DeadlineRule> deadlineRules, Map<String, Set<String>> allowedTenants) {
        return new TenantSection(
                string("hints.tenant_token").charAt(0),
                string("hints.deadline_token").charAt(0),
                bool("hints.trust_tenant_token"),
                tenants,
                deadlineRules,
                allowedTenants);
    }
}
