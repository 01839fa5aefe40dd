package io.locus.memcached.config;

import io.locus.memcached.tenant.DeadlineRule;
import io.locus.memcached.tenant.TenantSpec;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * Who a request belongs to and which deadline it carries: the part of the configuration a reload applies.
 *
 * @param tenantToken {@code hints.tenant_token}
 * @param deadlineToken {@code hints.deadline_token}
 * @param trustTenantToken {@code hints.trust_tenant_token}
 * @param tenants {@code tenants}
 * @param deadlineRules {@code deadline_rules}
 * @param allowedTenants {@code auth.allowed_tenants}: user to the tenants it may use
 */
public record TenantSection(
        char tenantToken,
        char deadlineToken,
        boolean trustTenantToken,
        List<TenantSpec> tenants,
        List<DeadlineRule> deadlineRules,
        Map<String, Set<String>> allowedTenants) {

    public TenantSection {
        tenants = List.copyOf(tenants);
        deadlineRules = List.copyOf(deadlineRules);
        allowedTenants = Map.copyOf(allowedTenants);
    }
}
