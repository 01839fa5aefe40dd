package io.locus.memcached.tenant;

import java.util.Set;

/**
 * Resolves a request's tenant and deadline, first match wins, tenant and deadline independently
 * (DESIGN.md, "Tenants and deadlines"):
 * <ul>
 *   <li>tenant: authenticated user (auth on) → tenant token → {@code dlctx} → key-prefix tenant → listener →
 *       {@code default}. With auth on, a tenant token naming another tenant must be in the user's
 *       {@code allowed_tenants}, else {@code CLIENT_ERROR tenant not allowed}; with auth off, the token counts only
 *       if {@code hints.trust_tenant_token}.</li>
 *   <li>deadline: deadline token → {@code dlctx} → key-prefix rule → tenant's default → listener's default →
 *       best-effort with {@code be.nominal_deadline}.</li>
 * </ul>
 * Hint tokens are always removed from the forwarded flags, honoured or not, so no tenant name reaches a backend:
 * the resolution names where they are among the flags.
 *
 * <p>Immutable and thread-safe once built.
 */
public final class TenantResolver {
    /** The tenant of requests nothing else names. */
    public static final String DEFAULT_TENANT = "default";

    private final TenantPolicy policy;
    private final PrefixMap<TenantSpec> tenantByPrefix = new PrefixMap<>();
    private final PrefixMap<Deadline> deadlineByPrefix = new PrefixMap<>();
    private final java.util.Map<String, TenantSpec> tenantById = new java.util.HashMap<>();
    /** The deadline of a request nothing else gives one; made once, as every request without a rule asks for it. */
    private final Deadline nominal;

    /** @throws IllegalArgumentException if two tenants or two rules claim the same prefix, or an id repeats */
    public TenantResolver(TenantPolicy policy) {
        this.policy = policy;
        this.nominal = Deadline.bestEffort(policy.nominalMicros());
        for (TenantSpec t : policy.tenants()) {
            if (tenantById.put(t.id(), t) != null) {
                throw new IllegalArgumentException("tenant id \"" + t.id() + "\" defined twice (expected: unique ids)");
            }
            for (String p : t.prefixes()) {
                tenantByPrefix.put(p, t);
            }
        }
        for (DeadlineRule r : policy.deadlineRules()) {
            deadlineByPrefix.put(r.prefix(), r.deadline());
        }
    }

    public TenantPolicy policy() {
        return policy;
    }

    /**
     * Resolves one request.
     *
     * @param key the request's key (the first key of a multi-get), one char per byte, or null
     * @param metaFlags the meta flags after the key (and after the datalen of {@code ms}); {@link HintFlags#NONE} for
     *     classic commands. Only the hint tokens' values become strings.
     * @throws HintException for a repeated or malformed hint token, or a tenant the user may not use
     */
    public Resolution resolve(Session session, CharSequence key, HintFlags metaFlags) throws HintException {
        int tenantFlag = -1;
        int deadlineFlag = -1;
        for (int i = 0; i < metaFlags.count(); i++) {
            int c = metaFlags.letter(i);
            if (c == policy.tenantToken()) {
                if (tenantFlag >= 0) {
                    throw new HintException(
                            "CLIENT_ERROR duplicate flag",
                            "two tenant tokens: " + metaFlags.value(tenantFlag) + " and " + metaFlags.value(i));
                }
                tenantFlag = i;
            } else if (c == policy.deadlineToken()) {
                if (deadlineFlag >= 0) {
                    throw new HintException(
                            "CLIENT_ERROR duplicate flag",
                            "two deadline tokens: " + metaFlags.value(deadlineFlag) + " and " + metaFlags.value(i));
                }
                deadlineFlag = i;
            }
        }
        String tenantToken = tenantFlag < 0 ? null : metaFlags.value(tenantFlag);
        String deadlineToken = deadlineFlag < 0 ? null : metaFlags.value(deadlineFlag);
        TenantSpec byPrefix = key == null ? null : tenantByPrefix.longestPrefixOf(key);
        String tenant = resolveTenant(session, tenantToken, byPrefix);
        Deadline deadline = resolveDeadline(session, deadlineToken, key, tenant);
        return new Resolution(tenant, deadline, tenantFlag, deadlineFlag);
    }

    private String resolveTenant(Session session, String token, TenantSpec byPrefix) throws HintException {
        if (token != null && !TenantSpec.isValidId(token)) {
            throw new HintException(
                    Deadline.BAD_TOKEN, "tenant token \"" + token + "\" (expected: 1..64 of A-Z a-z 0-9 . _ -)");
        }
        if (policy.authEnabled() && session.user() != null) {
            if (token != null && !token.equals(session.user())) {
                checkAllowed(session.user(), token);
                return token;
            }
            return session.user();
        }
        if (token != null && policy.trustTenantToken()) {
            return token;
        }
        if (session.contextTenant() != null) {
            return session.contextTenant();
        }
        if (byPrefix != null) {
            return byPrefix.id();
        }
        return session.listenerTenant() != null ? session.listenerTenant() : DEFAULT_TENANT;
    }

    /**
     * Checks that an authenticated user may act as {@code tenant} (also used by {@code dlctx tenant=...}).
     *
     * @throws HintException {@code CLIENT_ERROR tenant not allowed} if not
     */
    public void checkAllowed(String user, String tenant) throws HintException {
        if (tenant.equals(user)) {
            return;
        }
        Set<String> allowed = policy.allowedTenants().getOrDefault(user, Set.of());
        if (!allowed.contains(tenant)) {
            throw new HintException(
                    "CLIENT_ERROR tenant not allowed",
                    "user \"" + user + "\" named tenant \"" + tenant + "\" (expected: one of " + allowed
                            + " or itself)");
        }
    }

    private Deadline resolveDeadline(Session session, String token, CharSequence key, String tenant)
            throws HintException {
        if (token != null) {
            try {
                return Deadline.parse(token);
            } catch (IllegalArgumentException e) {
                throw new HintException(Deadline.BAD_TOKEN, e.getMessage());
            }
        }
        if (session.contextDeadline() != null) {
            return session.contextDeadline();
        }
        Deadline byRule = key == null ? null : deadlineByPrefix.longestPrefixOf(key);
        if (byRule != null) {
            return byRule;
        }
        TenantSpec spec = tenantById.get(tenant);
        if (spec != null && spec.defaultDeadline() != null) {
            return spec.defaultDeadline();
        }
        if (session.listenerDeadline() != null) {
            return session.listenerDeadline();
        }
        return nominal;
    }
}
