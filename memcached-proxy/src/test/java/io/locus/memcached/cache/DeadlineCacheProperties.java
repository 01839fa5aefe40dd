package io.locus.memcached.cache;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.quicktheories.generators.SourceDSL.arbitrary;
import static org.quicktheories.generators.SourceDSL.integers;
import static org.quicktheories.generators.SourceDSL.lists;
import static org.quicktheories.generators.SourceDSL.longs;
import static org.quicktheories.generators.SourceDSL.maps;

import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.quicktheories.QuickTheory;
import org.quicktheories.api.Pair;
import org.quicktheories.core.Gen;
import org.quicktheories.generators.Generate;

/**
 * Laws of the deadline cache over generated configurations and operation sequences: accounted bytes never exceed the
 * capacity and always equal the sum over tenants; an item that fits is found right after it is stored; each deadline
 * falls in exactly one class, whose bounds grow by the factor; tenants' quotas are shares of the capacity in
 * proportion to their weights.
 */
class DeadlineCacheProperties {
    private static final String[] TENANTS = {"a", "b", "c", "d"};

    /** Fixed, so that every run checks the same examples; a failure reports it with the smallest example found. */
    private static final long SEED = 0xCAC4E5EED03L;

    private static final int EXAMPLES = 1000;

    private static QuickTheory qt() {
        return QuickTheory.qt().withFixedSeed(SEED).withExamples(EXAMPLES);
    }

    /** One cache operation on key {@code key} (of a small key space, so that keys repeat). */
    record Op(int kind, int key, int valueBytes, long deadlineNanos, long ttlNanos, int tenant, long advanceNanos) {}

    /** Longs in {@code [min, max]}: uniform four times in five, else one of {@code edges}. */
    private static Gen<Long> longsWithEdges(long min, long max, Long... edges) {
        return Generate.frequency(
                Pair.of(4, longs().between(min, max)), Pair.of(1, arbitrary().pick(edges)));
    }

    /** Longs in {@code [0, max]} with every bit length equally likely, so that small magnitudes are drawn too. */
    private static Gen<Long> logUniform(long min, long max) {
        int top = 64 - Long.numberOfLeadingZeros(max);
        return integers().between(0, top).flatMap(bits -> {
            long below = bits >= 63 ? Long.MAX_VALUE : (1L << bits) - 1;
            return longs().between(min, Math.max(min, Math.min(max, below)));
        });
    }

    private static Gen<DeadlineCacheConfig> config() {
        Gen<Long> capacities = longsWithEdges(200, 20_000, 200L, 201L, 20_000L);
        Gen<Integer> partitions = integers().between(1, 4);
        Gen<Integer> queues = integers().between(1, 12);
        Gen<Integer> fairness = integers().between(0, 2);
        Gen<ClassPolicy> policies = arbitrary().enumValues(ClassPolicy.class);
        Gen<Integer> maxTenants = integers().between(1, 4);
        Gen<Map<String, Integer>> weights =
                maps().of(arbitrary().pick(TENANTS), integers().between(1, 5)).ofSizeBetween(0, TENANTS.length);
        return in -> {
            long capacity = capacities.generate(in);
            int p = partitions.generate(in);
            int q = queues.generate(in);
            int f = fairness.generate(in);
            return DeadlineCacheConfig.defaults(Math.max(capacity, p))
                    .withPartitions(p)
                    .withQueues(q)
                    .withClassPolicy(policies.generate(in))
                    .withMaxTenants(maxTenants.generate(in))
                    .withFairness(f >= 1, f == 2, weights.generate(in))
                    .withMaxItemSizeBytes(4_000);
        };
    }

    private static Gen<Op> op() {
        Gen<Integer> kinds = integers().between(0, 5);
        Gen<Integer> keys = integers().between(0, 40);
        Gen<Integer> valueBytes = integers().between(0, 5_000);
        Gen<Long> deadlines = Generate.oneOf(
                arbitrary().constant(DeadlineCache.NO_DEADLINE),
                longsWithEdges(0, 20_000_000_000L, 0L, 1L, 20_000_000_000L));
        Gen<Long> ttls = Generate.oneOf(
                arbitrary().constant(DeadlineCache.NEVER_EXPIRES),
                longsWithEdges(-1, 5_000_000_000L, -1L, 0L, 1L, 5_000_000_000L));
        Gen<Integer> tenants = integers().between(0, TENANTS.length - 1);
        Gen<Long> advances = longsWithEdges(0, 2_000_000_000L, 0L, 1L);
        return in -> new Op(
                kinds.generate(in),
                keys.generate(in),
                valueBytes.generate(in),
                deadlines.generate(in),
                ttls.generate(in),
                tenants.generate(in),
                advances.generate(in));
    }

    /** Parameters of a set of deadline classes, deadlines anywhere in [0, 2^63), and one next to a class boundary. */
    record ClassesCase(long baseNanos, int factor, int queues, long d1, long d2, int boundaryOf, int nudge) {}

    private static Gen<ClassesCase> classesCase() {
        Gen<Long> bases = logUniform(1, 10_000_000);
        Gen<Integer> factors = integers().between(2, 10);
        Gen<Integer> queues = integers().between(1, 62);
        Gen<Long> deadlines = Generate.oneOf(longs().between(0, Long.MAX_VALUE), logUniform(0, Long.MAX_VALUE));
        Gen<Integer> boundaries = integers().between(0, 61);
        Gen<Integer> nudges = integers().between(-1, 1);
        return in -> new ClassesCase(
                bases.generate(in),
                factors.generate(in),
                queues.generate(in),
                deadlines.generate(in),
                deadlines.generate(in),
                boundaries.generate(in),
                nudges.generate(in));
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

    @Test
    void usedBytes_neverExceedTheCapacity_andEqualTheTenantsSum() {
        qt().forAll(config(), lists().of(op()).ofSizeBetween(0, 300)).checkAssert(this::usedBytesLaw);
    }

    private void usedBytesLaw(DeadlineCacheConfig config, List<Op> ops) {
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

    @Test
    void anItemThatFits_isFoundRightAfterItIsStored() {
        qt().forAll(config(), lists().of(op()).ofSizeBetween(0, 100), op()).checkAssert(this::storedItemLaw);
    }

    private void storedItemLaw(DeadlineCacheConfig config, List<Op> before, Op set) {
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

    @Test
    void everyDeadline_fallsInExactlyOneClass_whoseBoundsGrowByTheFactor() {
        qt().forAll(classesCase()).checkAssert(this::classesLaw);
    }

    private void classesLaw(ClassesCase c) {
        long baseNanos = c.baseNanos();
        int factor = c.factor();
        int queues = c.queues();
        long d1 = c.d1();
        long d2 = c.d2();
        DeadlineClasses classes = new DeadlineClasses(baseNanos, factor, queues);
        int q1 = classes.classOf(d1);
        int q2 = classes.classOf(d2);
        if (d1 <= d2) {
            assertTrue(q1 <= q2, "classes out of deadline order: " + d1 + " -> " + q1 + ", " + d2 + " -> " + q2);
        }
        // A deadline next to a class boundary, where an off-by-one would show.
        long bound = classes.lowerBoundNanos(c.boundaryOf() % queues);
        long d3 = bound == Long.MAX_VALUE && c.nudge() > 0 ? bound : Math.max(0, bound + c.nudge());
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

    @Test
    void tenantQuotas_areSharesOfTheCapacity_inProportionToTheirWeights() {
        qt().forAll(
                        config(),
                        lists().of(integers().between(0, TENANTS.length - 1)).ofSizeBetween(1, 8))
                .checkAssert(this::quotaLaw);
    }

    private void quotaLaw(DeadlineCacheConfig config, List<Integer> tenants) {
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
