package io.locus.memcached.bench;

import java.io.BufferedInputStream;
import java.io.DataInputStream;
import java.io.EOFException;
import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.function.Consumer;
import org.tukaani.xz.XZInputStream;

/**
 * Keys replayed from a real trace of {@code data/kv} (format of {@code data/README.md}, read as in
 * {@code io.locus.memcached.cache.sim.KeyTrace}, which this module cannot depend on: the proxy's jar is shaded with
 * Netty and this module holds Cassandra). cache2k traces are big-endian 32-bit ints whose bits 27-31 are the object
 * type: the type becomes the tenant {@code type-N}. scarab is big-endian 64-bit longs, one tenant {@code scarab}.
 * Each key's deadline range comes from its hash with the Table 6.2 mix (0.2 / 0.3 / 0.5). Connection {@code i} of
 * {@code n} replays the trace from position {@code i * size / n}, wrapping around.
 */
public final class TraceKeys implements KeySource {
    private final String name;
    private final long[] keys;
    private final boolean cache2k;
    private final List<TenantProfile> tenants;
    private final int[] tenantOfType;

    private TraceKeys(String name, long[] keys, boolean cache2k) {
        this.name = name;
        this.keys = keys;
        this.cache2k = cache2k;
        this.tenantOfType = new int[32];
        TreeMap<Integer, Long> perType = new TreeMap<>();
        for (long key : keys) {
            perType.merge(typeOf(key), 1L, Long::sum);
        }
        List<TenantProfile> list = new ArrayList<>();
        // Most frequent type first: the table shows the first few tenants.
        List<Map.Entry<Integer, Long>> byCount = new ArrayList<>(perType.entrySet());
        byCount.sort(Map.Entry.<Integer, Long>comparingByValue().reversed().thenComparing(Map.Entry.comparingByKey()));
        for (var e : byCount) {
            tenantOfType[e.getKey()] = list.size();
            String tenant = cache2k ? "type-" + e.getKey() : "scarab";
            list.add(new TenantProfile(tenant, (double) e.getValue() / keys.length, 0.2, 0.3, 0.5, "default", 1));
        }
        this.tenants = List.copyOf(list);
    }

    /**
     * Reads up to {@code limit} accesses.
     *
     * @throws IOException if the file cannot be read or is not xz
     * @throws IllegalArgumentException for a file name that is neither {@code cache2k-*} nor {@code scarab-*}
     */
    public static TraceKeys read(Path trace, int limit) throws IOException {
        String name = trace.getFileName().toString();
        boolean cache2k;
        if (name.startsWith("cache2k-")) {
            cache2k = true;
        } else if (name.startsWith("scarab-")) {
            cache2k = false;
        } else {
            throw new IllegalArgumentException(
                    "trace file name \"" + name + "\" (expected: cache2k-*.trace.xz or scarab-*.trace.xz)");
        }
        if (limit <= 0) {
            throw new IllegalArgumentException("trace limit " + limit + " (expected: > 0)");
        }
        long[] keys = new long[Math.min(limit, 1 << 16)];
        int n = 0;
        try (InputStream file = Files.newInputStream(trace);
                DataInputStream in = new DataInputStream(
                        new BufferedInputStream(new XZInputStream(new BufferedInputStream(file)), 1 << 16))) {
            while (n < limit) {
                long key;
                try {
                    key = cache2k ? in.readInt() & 0xffffffffL : in.readLong();
                } catch (EOFException end) {
                    break;
                }
                if (n == keys.length) {
                    keys = Arrays.copyOf(keys, (int) Math.min(limit, 2L * keys.length));
                }
                keys[n++] = key;
            }
        }
        if (n == 0) {
            throw new IllegalArgumentException("trace " + trace + " has no accesses (expected: at least one)");
        }
        return new TraceKeys(name, Arrays.copyOf(keys, n), cache2k);
    }

    /** A trace from keys in memory (tests). */
    static TraceKeys of(String name, long[] keys, boolean cache2k) {
        return new TraceKeys(name, keys.clone(), cache2k);
    }

    private int typeOf(long key) {
        return cache2k ? (int) (key >>> 27) & 31 : 0;
    }

    /** Number of accesses read. */
    public int size() {
        return keys.length;
    }

    @Override
    public List<TenantProfile> tenants() {
        return tenants;
    }

    @Override
    public String describe() {
        return "trace " + name + " (" + keys.length + " accesses, " + distinctKeys() + " distinct keys, "
                + tenants.size() + " tenants = " + (cache2k ? "object type" : "one tenant")
                + "); Table 6.2 ranges by key hash; ETC value sizes";
    }

    @Override
    public long distinctKeys() {
        return distinct().length;
    }

    private long[] distinct() {
        long[] sorted = keys.clone();
        Arrays.sort(sorted);
        int n = 0;
        for (int i = 0; i < sorted.length; i++) {
            if (i == 0 || sorted[i] != sorted[i - 1]) {
                sorted[n++] = sorted[i];
            }
        }
        return Arrays.copyOf(sorted, n);
    }

    @Override
    public void forEachKey(Consumer<Access> visitor) {
        for (long key : distinct()) {
            visitor.accept(access(key));
        }
    }

    /** The access of one trace key. */
    Access access(long key) {
        int tenant = tenantOfType[typeOf(key)];
        TenantProfile profile = tenants.get(tenant);
        long hash = KeyHash.mix(key);
        DeadlineRange range = profile.rangeOf(hash);
        return new Access(tenant, Access.keyOf(profile.name(), range, key), range, ValueSizes.bytesOf(hash));
    }

    @Override
    public Cursor cursor(int stream, int streams, long seed) {
        int[] position = {(int) ((long) stream * keys.length / Math.max(1, streams))};
        return () -> {
            long key = keys[position[0]];
            position[0] = position[0] + 1 == keys.length ? 0 : position[0] + 1;
            return access(key);
        };
    }
}
