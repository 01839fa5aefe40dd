package io.locus.memcached.cache;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Map;
import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.Combinators;
import net.jqwik.api.ForAll;
import net.jqwik.api.From;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;
import net.jqwik.api.constraints.IntRange;
import net.jqwik.api.constraints.LongRange;
import net.jqwik.api.constraints.Size;

/**
 * Laws of the deadline cache over generated configurations and operation sequences: accounted bytes never exceed the
 * capacity and always equal the sum over tenants; an item that fits is found right after it is stored; each deadline
 * falls in exactly one class, whose bounds grow by the factor; tenants' quotas are shares of the capacity in
 * proportion to their weights.
 */
class DeadlineCacheProperties {
    private static final String[] TENANTS = {"a", "b", "c", "d"};

    /** One cache operation on key {@code key} (of a small key space, so that keys repeat). */
    record Op(int kind, int key, int valueBytes, long deadlineNanos, long ttlNanos, int tenant, long advanceNanos) {}

    @Provide
    Arbitrary<DeadlineCacheConfig> config() {
        return Combinators.combine(
                        Arbitraries.longs().between(200, 20_000),
                        Arbitraries.integers().between(1, 4),
                        Arbitraries.integers().between(1, 12),
                        Arbitraries.integers().between(0, 2),
                        Arbitraries.of(ClassPolicy.values()),
                        Arbitraries.integers().between(1, 4),
                        Arbitraries.maps(
                                        Arbitraries.of(TENANTS),
                                        Arbitraries.integers().between(1, 5))
                                .ofMaxSize(TENANTS.length))
                .as((capacity, partitions, queues, fairness, policy, maxTenants, weights) ->
                        DeadlineCacheConfig.defaults(Math.max(capacity, partitions))
                                .withPartitions(partitions)
                                .withQueues(queues)
                                .withClassPolicy(policy)
                                .withMaxTenants(maxTenants)
                                .withFairness(fairness >= 1, fairness == 2, weights)
                                .withMaxItemSizeBytes(4_000));
    }

    @Provide
    Arbitrary<Op> op() {
        return Combinators.combine(
                        Arbitraries.integers().between(0, 5),
                        Arbitraries.integers().between(0, 40),
                        Arbitraries.integers().between(0, 5_000),
                        Arbitraries.oneOf(
                                Arbitraries.just(DeadlineCache.NO_DEADLINE),
                                Arbitraries.longs().between(0, 20_000_000_000L)),
                        Arbitraries.oneOf(
                                Arbitraries.just(DeadlineCache.NEVER_EXPIRES),
                                Arbitraries.longs().between(-1, 5_000_000_000L)),
                        Arbitraries.integers().between(0, TENANTS.length - 1),
                        Arbitraries.longs().between(0, 2_000_000_000L))
                .as(Op::new);
    }

    private static byte[] key(int k) {
        return ("key-" + k).getBytes(StandardCharsets.US_ASCII);
    }

    /** Applies one operation; returns whether it stored. */
    private static boolean apply(DeadlineCache cache, Op op) {
        byte[] key = key(op.key());
        String tenant = TENANTS[op.tenant()];
        return switch (op.kind()) {
            case 0, 1 -> cache.set(key, new byte[op.valueBytes()], 0, op.ttlNanos(), 0, op.deadlineNanos(), tenant);
            case 2 -> cache.add(key, new byte[op.valueBytes()], 0, op.ttlNanos(), 0, op.deadlineNanos(), tenant);
            case 3 -> cache.get(key, op.deadlineNanos(), tenant) != null;
            case 4 -> cache.touch(key, op.ttlNanos());
            default -> cache.invalidate(key);
        };
    }

    @Property
    void usedBytes_neverExceedTheCapacity_andEqualTheTenantsSum(
            @ForAll("config") DeadlineCacheConfig config, @ForAll @Size(max = 300) List<@From("op") Op> ops) {
        long[] now = {0};
        DeadlineCache cache = new DeadlineCache(config, () -> now[0]);
        assertTrue(cache.capacityBytes() <= config.capacityBytes(), "capacity rounded up");
        for (Op op : ops) {
            now[0] += op.advanceNanos();
            apply(cache, op);
            assertTrue(
                    cache.usedBytes() <= cache.capacityBytes(),
                    cache.usedBytes() + " bytes used of " + cache.capacityBytes() + " after " + op);
            long bytes = 0;
            long items = 0;
            for (TenantStats s : cache.tenantStats().values()) {
                bytes += s.bytes();
                items += s.items();
            }
            assertEquals(cache.usedBytes(), bytes, "bytes by tenant after " + op);
            assertEquals(cache.itemCount(), items, "items by tenant after " + op);
        }
    }

    @Property
    void anItemThatFits_isFoundRightAfterItIsStored(
            @ForAll("config") DeadlineCacheConfig config,
            @ForAll @Size(max = 100) List<@From("op") Op> before,
            @ForAll("op") Op set) {
        long[] now = {0};
        DeadlineCache cache = new DeadlineCache(config, () -> now[0]);
        for (Op op : before) {
            now[0] += op.advanceNanos();
            apply(cache, op);
        }
        byte[] key = key(set.key());
        byte[] value = new byte[set.valueBytes()];
        if (value.length > 0) {
            value[value.length / 2] = 7;
        }
        long size = DeadlineCache.sizeOf(key.length, value.length);
        boolean fits = set.ttlNanos() > 0
                && size <= config.maxItemSizeBytes()
                && size <= cache.capacityBytes() / config.partitions();
        boolean stored = cache.set(key, value, 9, set.ttlNanos(), 0, set.deadlineNanos(), TENANTS[set.tenant()]);
        assertEquals(fits, stored, "set of " + size + " accounted bytes, ttl " + set.ttlNanos() + " ns");
        CachedItem got = cache.get(key, set.deadlineNanos(), TENANTS[set.tenant()]);
        if (fits) {
            assertNotNull(got, "stored item not found");
            assertArrayEquals(value, got.value());
            assertEquals(9, got.clientFlags());
        } else {
            assertNull(got, "an item that was not stored (or dropped) is found");
        }
    }

    @Property
    void everyDeadline_fallsInExactlyOneClass_whoseBoundsGrowByTheFactor(
            @ForAll @LongRange(min = 1, max = 10_000_000) long baseNanos,
            @ForAll @IntRange(min = 2, max = 10) int factor,
            @ForAll @IntRange(min = 1, max = 62) int queues,
            @ForAll @LongRange(min = 0, max = Long.MAX_VALUE) long d1,
            @ForAll @LongRange(min = 0, max = Long.MAX_VALUE) long d2,
            @ForAll @IntRange(min = 0, max = 61) int boundaryOf,
            @ForAll @IntRange(min = -1, max = 1) int nudge) {
        DeadlineClasses classes = new DeadlineClasses(baseNanos, factor, queues);
        int q1 = classes.classOf(d1);
        int q2 = classes.classOf(d2);
        if (d1 <= d2) {
            assertTrue(q1 <= q2, "classes out of deadline order: " + d1 + " -> " + q1 + ", " + d2 + " -> " + q2);
        }
        // A deadline next to a class boundary, where an off-by-one would show.
        long bound = classes.lowerBoundNanos(boundaryOf % queues);
        long d3 = bound == Long.MAX_VALUE && nudge > 0 ? bound : Math.max(0, bound + nudge);
        for (long d : new long[] {d1, d2, d3}) {
            int q = classes.classOf(d);
            assertTrue(q >= 0 && q < queues, "class " + q);
            // The class's own range holds the deadline; the last class is open-ended.
            assertTrue(d >= classes.lowerBoundNanos(q), d + " below the bound of class " + q);
            if (q < queues - 1) {
                assertTrue(d < classes.lowerBoundNanos(q + 1), d + " not below the bound of class " + (q + 1));
            }
        }
        if (queues >= 2) {
            assertEquals(baseNanos, classes.lowerBoundNanos(1));
        }
        for (int q = 1; q + 1 < queues; q++) {
            long lower = classes.lowerBoundNanos(q);
            long expected = lower > Long.MAX_VALUE / factor ? Long.MAX_VALUE : lower * factor;
            assertEquals(expected, classes.lowerBoundNanos(q + 1), "bound of class " + (q + 1));
            assertEquals(classes.multiplier(q) * factor, classes.multiplier(q + 1), "multiplier of class " + (q + 1));
        }
        assertEquals(queues - 1, classes.classOf(DeadlineCache.NO_DEADLINE));
    }

    @Property
    void tenantQuotas_areSharesOfTheCapacity_inProportionToTheirWeights(
            @ForAll("config") DeadlineCacheConfig config,
            @ForAll @Size(min = 1, max = 8) List<@IntRange(min = 0, max = 3) Integer> tenants) {
        DeadlineCache cache = new DeadlineCache(config, () -> 0);
        for (int t : tenants) {
            cache.get(key(t), DeadlineCache.NO_DEADLINE, TENANTS[t]);
        }
        Map<String, TenantStats> stats = cache.tenantStats();
        long weightSum = 0;
        for (String name : stats.keySet()) {
            weightSum += config.tenantWeights().getOrDefault(name, 1);
        }
        long quotaSum = 0;
        for (TenantStats s : stats.values()) {
            int weight = config.tenantWeights().getOrDefault(s.tenant(), 1);
            double share = (double) cache.capacityBytes() * weight / weightSum;
            assertTrue(
                    s.quotaBytes() <= share && s.quotaBytes() > share - config.partitions(),
                    s.tenant() + " of weight " + weight + "/" + weightSum + " has quota " + s.quotaBytes() + " of "
                            + cache.capacityBytes());
            quotaSum += s.quotaBytes();
        }
        assertTrue(quotaSum <= cache.capacityBytes(), "quotas " + quotaSum + " over capacity " + cache.capacityBytes());
    }
}
