package io.locus.memcached.tenant;

/**
 * A {@code deadline_rules:} entry: keys starting with {@code prefix} get {@code deadline} (longest prefix wins).
 */
public record DeadlineRule(String prefix, Deadline deadline) {
    public DeadlineRule {
        if (prefix == null || prefix.isEmpty()) {
            throw new IllegalArgumentException("deadline rule with an empty prefix (expected: a non-empty key prefix)");
        }
    }
}
