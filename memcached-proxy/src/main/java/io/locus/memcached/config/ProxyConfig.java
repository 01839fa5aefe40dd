package io.locus.memcached.config;

import io.locus.memcached.tenant.DeadlineRule;
import io.locus.memcached.tenant.TenantPolicy;
import io.locus.memcached.tenant.TenantSpec;
import java.util.List;

/**
 * A validated configuration, one typed record per section (durations in microseconds, sizes in bytes). Only
 * {@link ConfigLoader} builds one.
 *
 * <p>Immutable.
 */
public record ProxyConfig(
        ServerSection server,
        List<Listener> listeners,
        LimitsSection limits,
        List<BackendAddress> servers,
        BackendSection backend,
        DeadlineSection deadline,
        LocalCacheSection localCache,
        BalanceSection balance,
        TenantSection tenant) {

    public ProxyConfig {
        listeners = List.copyOf(listeners);
        servers = List.copyOf(servers);
    }

    public List<TenantSpec> tenants() {
        return tenant.tenants();
    }

    public List<DeadlineRule> deadlineRules() {
        return tenant.deadlineRules();
    }

    /** The tenant resolution policy from {@code hints.*}, {@code auth.*}, {@code tenants}, {@code deadline_rules}. */
    public TenantPolicy tenantPolicy() {
        return new TenantPolicy(
                tenant.tenantToken(),
                tenant.deadlineToken(),
                tenant.trustTenantToken(),
                server.authEnabled(),
                tenant.allowedTenants(),
                tenant.tenants(),
                tenant.deadlineRules(),
                deadline.nominalMicros());
    }

    /** Whether {@code other} differs from this one only in what a reload applies ({@link TenantSection}). */
    public boolean sameExceptTenants(ProxyConfig other) {
        return equals(new ProxyConfig(
                other.server,
                other.listeners,
                other.limits,
                other.servers,
                other.backend,
                other.deadline,
                other.localCache,
                other.balance,
                tenant));
    }
}
