package io.locus.memcached.bench;

/**
 * One request's key with the attributes the proxy reads from its prefix.
 *
 * @param tenant index into {@link KeySource#tenants()}
 * @param key the memcached key, {@code tenant:rangeCode:hexId} (ASCII, no spaces, at most 60 bytes)
 * @param range the key's deadline range
 * @param valueBytes the key's value size, bytes
 */
public record Access(int tenant, String key, DeadlineRange range, int valueBytes) {
    /** The key a tenant's id maps to. */
    static String keyOf(String tenant, DeadlineRange range, long id) {
        return tenant + ':' + range.code() + ':' + Long.toHexString(id);
    }
}
