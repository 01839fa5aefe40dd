package io.locus.memcached.tenant;

import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * Everything {@link TenantResolver} needs from the configuration.
 *
 * @param tenantToken the meta flag letter carrying the tenant ({@code hints.tenant_token}, default {@code P})
 * @param deadlineToken the meta flag letter carrying the deadline ({@code hints.deadline_token}, default {@code L})
 * @param trustTenantToken without auth, whether a tenant token is honoured ({@code hints.trust_tenant_token})
 * @param authEnabled whether clients must authenticate; the user then is the tenant
 * @param allowedTenants per user, the other tenants it may name with the tenant token
 * @param tenants configured tenants
 * @param deadlineRules key-prefix deadline rules
 * @param nominalMicros {@code be.nominal_deadline} in microseconds, the global default (best-effort)
 */
public record TenantPolicy(
        char tenantToken,
        char deadlineToken,
        boolean trustTenantToken,
        boolean authEnabled,
        Map<String, Set<String>> allowedTenants,
        List<TenantSpec> tenants,
        List<DeadlineRule> deadlineRules,
        long nominalMicros) {

    public TenantPolicy {
        if (tenantToken == deadlineToken) {
            throw new IllegalArgumentException("hints.tenant_token and hints.deadline_token are both '" + tenantToken
                    + "' (expected: two different letters)");
        }
        allowedTenants = Map.copyOf(allowedTenants);
        tenants = List.copyOf(tenants);
        deadlineRules = List.copyOf(deadlineRules);
        if (nominalMicros <= 0) {
            throw new IllegalArgumentException("be.nominal_deadline " + nominalMicros + " us (expected: > 0)");
        }
    }

    /** Defaults: {@code P}/{@code L}, trusted, no auth, no tenants or rules, 1 s nominal deadline. */
    public static TenantPolicy defaults() {
        return new TenantPolicy('P', 'L', true, false, Map.of(), List.of(), List.of(), 1_000_000);
    }
}
