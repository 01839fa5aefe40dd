package io.locus.memcached.bench.jmh;

import io.locus.memcached.bench.Access;
import io.locus.memcached.cache.CachedItem;
import io.locus.memcached.cache.DeadlineCache;
import io.locus.memcached.cache.DeadlineCacheConfig;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.Warmup;

/**
 * The in-proxy deadline cache ({@link DeadlineCache}, default configuration: 2 partitions, 12 deadline classes from
 * 2 ms, factor 2), one thread, the real clock.
 *
 * <ul>
 *   <li>{@code get}: hits on a cache holding every key asked for, in the Zipf stream order of {@link ProxyWorkload}
 *       with each key's deadline (a hit also moves the item to the request's deadline class);</li>
 *   <li>{@code setReplace}: a set of a key already cached, same size (no eviction);</li>
 *   <li>{@code setEvict}: a set of a key not cached into a full cache: every set evicts (the effective-age scan over
 *       the queue heads, then the insert). The cache holds about a quarter of the keys cycled through, so a key has
 *       always been evicted before it comes round again.</li>
 * </ul>
 * Values have the keys' ETC sizes, capped at 4 KiB so the cache stays small enough for the CPU's caches to matter as
 * in production's hot set.
 *
 * <p>Run: {@code ./locus bench jmh DeadlineCacheBenchmark}.
 */
@State(Scope.Thread)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.NANOSECONDS)
@Warmup(iterations = 3, time = 1)
@Measurement(iterations = 5, time = 1)
@Fork(value = 1, jvmArgsAppend = "-Xmx1g")
public class DeadlineCacheBenchmark {
    private static final int EVICT_KEYS = 1 << 16;
    private static final int MAX_VALUE = 4096;

    private DeadlineCache warm;
    private byte[][] keys;
    private byte[][] values;
    private long[] deadlines;
    private String[] tenants;

    private DeadlineCache full;
    private byte[][] evictKeys;
    private byte[][] evictValues;
    private long[] evictDeadlines;
    private String[] evictTenants;

    private int next;

    @Setup
    public void setUp() {
        Access[] accesses = ProxyWorkload.accesses();
        int n = accesses.length;
        keys = new byte[n][];
        values = new byte[n][];
        deadlines = new long[n];
        tenants = new String[n];
        for (int i = 0; i < n; i++) {
            keys[i] = accesses[i].key().getBytes(StandardCharsets.ISO_8859_1);
            values[i] = ProxyWorkload.value(Math.min(MAX_VALUE, accesses[i].valueBytes()));
            deadlines[i] = ProxyWorkload.deadlineNanos(accesses[i]);
            tenants[i] = ProxyWorkload.tenant(accesses[i]);
        }
        warm = new DeadlineCache(DeadlineCacheConfig.defaults(256L << 20), System::nanoTime);
        for (int i = 0; i < n; i++) {
            warm.set(keys[i], values[i], 0, DeadlineCache.NEVER_EXPIRES, 0, deadlines[i], tenants[i]);
        }

        List<Access> distinct = ProxyWorkload.distinct(EVICT_KEYS);
        evictKeys = new byte[EVICT_KEYS][];
        evictValues = new byte[EVICT_KEYS][];
        evictDeadlines = new long[EVICT_KEYS];
        evictTenants = new String[EVICT_KEYS];
        long bytes = 0;
        for (int i = 0; i < EVICT_KEYS; i++) {
            Access a = distinct.get(i);
            evictKeys[i] = a.key().getBytes(StandardCharsets.ISO_8859_1);
            evictValues[i] = ProxyWorkload.value(Math.min(MAX_VALUE, a.valueBytes()));
            evictDeadlines[i] = ProxyWorkload.deadlineNanos(a);
            evictTenants[i] = ProxyWorkload.tenant(a);
            bytes += DeadlineCache.sizeOf(evictKeys[i].length, evictValues[i].length);
        }
        full = new DeadlineCache(DeadlineCacheConfig.defaults(bytes / 4), System::nanoTime);
        for (int i = 0; i < EVICT_KEYS; i++) {
            setEvict();
        }
    }

    @Benchmark
    public CachedItem get() {
        int i = next++ & ProxyWorkload.MASK;
        return warm.get(keys[i], deadlines[i], tenants[i]);
    }

    @Benchmark
    public boolean setReplace() {
        int i = next++ & ProxyWorkload.MASK;
        return warm.set(keys[i], values[i], 0, DeadlineCache.NEVER_EXPIRES, 0, deadlines[i], tenants[i]);
    }

    @Benchmark
    public boolean setEvict() {
        int i = next++ & (EVICT_KEYS - 1);
        return full.set(
                evictKeys[i], evictValues[i], 0, DeadlineCache.NEVER_EXPIRES, 0, evictDeadlines[i], evictTenants[i]);
    }
}
