package io.locus.memcached.bench.jmh;

import io.locus.memcached.bench.Access;
import io.locus.memcached.bench.DeadlineRange;
import io.locus.memcached.bench.KeySource;
import io.locus.memcached.bench.TenantProfile;
import io.locus.memcached.bench.ZipfKeys;
import io.locus.memcached.cache.DeadlineCache;
import io.locus.memcached.schedule.ServiceLevel;
import io.locus.memcached.schedule.ServiceLevels;
import io.locus.memcached.schedule.TenantServiceLevel;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;

/**
 * The requests the proxy's JMH benchmarks feed to its hot paths: the same workload as {@code ./locus bench proxy}'s
 * default (three tenants gold/silver/bronze, 50,000 keys each, YCSB's scrambled Zipfian with theta 0.99, keys
 * {@code tenant:range:id}, Facebook ETC value sizes, deadlines per range), drawn once with a fixed seed.
 */
final class ProxyWorkload {
    /** Requests per benchmark state; a power of two, so a cursor wraps with {@link #MASK}. */
    static final int SIZE = 4096;

    static final int MASK = SIZE - 1;
    static final long KEYS_PER_TENANT = 50_000;
    private static final long SEED = 42;

    private ProxyWorkload() {}

    /** {@link #SIZE} requests of the default workload, in stream order (hot keys repeat, as in the real stream). */
    static Access[] accesses() {
        KeySource.Cursor cursor = keys().cursor(0, 1, SEED);
        Access[] out = new Access[SIZE];
        for (int i = 0; i < SIZE; i++) {
            out[i] = cursor.next();
        }
        return out;
    }

    /** {@code n} distinct requests (each key once), in key order. */
    static List<Access> distinct(int n) {
        List<Access> out = new ArrayList<>(n);
        keys().forEachKey(a -> {
            if (out.size() < n) {
                out.add(a);
            }
        });
        return out;
    }

    private static ZipfKeys keys() {
        return new ZipfKeys(TenantProfile.defaults(), KEYS_PER_TENANT);
    }

    /** The tenant's name. */
    static String tenant(Access a) {
        return TenantProfile.defaults().get(a.tenant()).name();
    }

    /**
     * The deadline the proxy's {@code deadline_rules} give the key's range in {@code ./locus bench proxy} (Table 6.2's
     * midpoints / 10), in nanoseconds; {@link DeadlineCache#NO_DEADLINE} for best-effort keys.
     */
    static long deadlineNanos(Access a) {
        return deadlineNanos(a.range());
    }

    static long deadlineNanos(DeadlineRange range) {
        return switch (range) {
            case R1 -> 2_000_000L;
            case R2 -> 6_500_000L;
            case R3 -> 55_000_000L;
            case BEST_EFFORT -> DeadlineCache.NO_DEADLINE;
        };
    }

    /** The tenants' service levels as the proxy builds them from the benchmark's tenant list. */
    static ServiceLevels serviceLevels() {
        List<TenantServiceLevel> levels = new ArrayList<>();
        for (TenantProfile t : TenantProfile.defaults()) {
            levels.add(TenantServiceLevel.of(t.name(), ServiceLevel.parse(t.level())));
        }
        return new ServiceLevels(
                levels, ServiceLevel.GOLD, ServiceLevels.DEFAULT_URGENT_THRESHOLD, Duration.ofSeconds(1));
    }

    /** A value of {@code bytes} bytes (content is irrelevant to every path measured). */
    static byte[] value(int bytes) {
        byte[] v = new byte[bytes];
        for (int i = 0; i < bytes; i++) {
            v[i] = (byte) ('a' + i % 26);
        }
        return v;
    }
}
