package io.locus.memcached.config;

import io.locus.memcached.protocol.ProtocolLimits;
import io.locus.memcached.tenant.DeadlineRule;
import io.locus.memcached.tenant.TenantPolicy;
import io.locus.memcached.tenant.TenantSpec;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * A validated configuration. Scalar values are held by key name (see {@link ConfigKeys}) with typed getters:
 * durations in microseconds, sizes in bytes.
 *
 * <p>Immutable.
 */
public record ProxyConfig(
        Map<String, Object> values,
        List<Listener> listeners,
        List<BackendAddress> servers,
        List<TenantSpec> tenants,
        List<DeadlineRule> deadlineRules,
        Map<String, Set<String>> allowedTenants) {

    public ProxyConfig {
        values = Map.copyOf(values);
        listeners = List.copyOf(listeners);
        servers = List.copyOf(servers);
        tenants = List.copyOf(tenants);
        deadlineRules = List.copyOf(deadlineRules);
        allowedTenants = Map.copyOf(allowedTenants);
    }

    private Object value(String key) {
        Object v = values.get(key);
        if (v == null) {
            throw new IllegalArgumentException("no configuration key " + key + " (expected: one of ConfigKeys.ALL)");
        }
        return v;
    }

    public long longValue(String key) {
        return ((Number) value(key)).longValue();
    }

    public int intValue(String key) {
        return Math.toIntExact(longValue(key));
    }

    public double doubleValue(String key) {
        return ((Number) value(key)).doubleValue();
    }

    public boolean bool(String key) {
        return (Boolean) value(key);
    }

    public String string(String key) {
        return value(key).toString();
    }

    /** The protocol bounds from {@code limits.*} and {@code max_item_size}. */
    public ProtocolLimits protocolLimits() {
        return new ProtocolLimits(
                intValue("limits.max_key_bytes"), intValue("limits.max_line_bytes"), intValue("max_item_size"));
    }

    /** The tenant resolution policy from {@code hints.*}, {@code auth.*}, {@code tenants}, {@code deadline_rules}. */
    public TenantPolicy tenantPolicy() {
        return new TenantPolicy(
                string("hints.tenant_token").charAt(0),
                string("hints.deadline_token").charAt(0),
                bool("hints.trust_tenant_token"),
                bool("auth.enabled"),
                allowedTenants,
                tenants,
                deadlineRules,
                longValue("be.nominal_deadline"));
    }
}
