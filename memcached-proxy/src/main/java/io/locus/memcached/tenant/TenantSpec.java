package io.locus.memcached.tenant;

import java.util.List;
import java.util.regex.Pattern;

/**
 * A tenant as configured under {@code tenants:}.
 *
 * @param id 1..64 chars of letters, digits, {@code - _ .}
 * @param prefixes key prefixes that belong to this tenant (longest prefix over all tenants wins)
 * @param weight relative share for cache quotas and scheduling, >= 1
 * @param level service level name (e.g. gold, bronze), free text used by the scheduler
 * @param defaultDeadline the deadline of this tenant's requests when nothing more specific applies, or null
 */
public record TenantSpec(String id, List<String> prefixes, int weight, String level, Deadline defaultDeadline) {
    private static final Pattern ID = Pattern.compile("[A-Za-z0-9._-]{1,64}");

    public TenantSpec {
        checkId(id);
        prefixes = List.copyOf(prefixes);
        if (weight < 1) {
            throw new IllegalArgumentException("tenant " + id + ": weight " + weight + " (expected: >= 1)");
        }
    }

    /** Whether {@code id} is a valid tenant id. */
    public static boolean isValidId(String id) {
        return id != null && ID.matcher(id).matches();
    }

    static void checkId(String id) {
        if (!isValidId(id)) {
            throw new IllegalArgumentException("tenant id \"" + id + "\" (expected: 1..64 of A-Z a-z 0-9 . _ -)");
        }
    }
}
