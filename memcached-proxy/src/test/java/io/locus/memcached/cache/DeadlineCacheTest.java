package io.locus.memcached.cache;

import static java.nio.charset.StandardCharsets.US_ASCII;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

class DeadlineCacheTest {
    private static final long MS = 1_000_000;
    /** Accounted size of every item in these tests: key + value + 96 overhead (keys up to 32 bytes). */
    private static final int ITEM = 128;

    private final ManualClock clock = new ManualClock();

    private static byte[] key(String k) {
        return k.getBytes(US_ASCII);
    }

    /** A value whose accounted item size, with a key of {@code keyLength} bytes, is {@code size}. */
    private static byte[] valueFor(int keyLength, int size) {
        return new byte[size - keyLength - DeadlineCache.ENTRY_OVERHEAD_BYTES];
    }

    private DeadlineCache cache(DeadlineCacheConfig config) {
        return new DeadlineCache(config, clock);
    }

    private static DeadlineCacheConfig oneItems(int items) {
        return DeadlineCacheConfig.defaults((long) items * ITEM).withPartitions(1);
    }

    private boolean set(DeadlineCache c, String k, long deadlineNanos, String tenant) {
        return c.set(key(k), valueFor(k.length(), ITEM), 0, DeadlineCache.NEVER_EXPIRES, 0, deadlineNanos, tenant);
    }

    /**
     * The test vectors of MicroFuge §3.1.2 (B = 2 ms, c = 2): two heads, a third insert evicts exactly one. Deadlines
     * 1 ms (class 0), 5 ms (class 2), 10 ms (class 3), 600 ms (class 9).
     */
    @ParameterizedTest(name = "a class-{0} age {1} ms, b class-{2} age {3} ms -> evict {4}")
    @CsvSource({
        "1, 100, 5, 30, b",
        "1, 1000, 5, 1, a",
        "1, 1, 5, 1000, b",
        "10, 10, 600, 10, b",
        "10, 700, 600, 10, a",
    })
    void evict_specVectors_evictMaximumEffectiveAge(
            long deadlineAMs, long ageAMs, long deadlineBMs, long ageBMs, String evicted) {
        DeadlineCache c = cache(oneItems(2));
        long maxAge = Math.max(ageAMs, ageBMs);
        String first = ageAMs >= ageBMs ? "a" : "b";
        String second = first.equals("a") ? "b" : "a";
        clock.nowNanos = 0;
        set(c, first, (first.equals("a") ? deadlineAMs : deadlineBMs) * MS, "t");
        clock.nowNanos = (maxAge - Math.min(ageAMs, ageBMs)) * MS;
        set(c, second, (second.equals("a") ? deadlineAMs : deadlineBMs) * MS, "t");
        clock.nowNanos = maxAge * MS;

        assertTrue(set(c, "c", DeadlineCache.NO_DEADLINE, "t"));

        String kept = evicted.equals("a") ? "b" : "a";
        assertNull(c.get(key(evicted), DeadlineCache.NO_DEADLINE, "t"), evicted + " should have been evicted");
        assertNotNull(c.get(key(kept), DeadlineCache.NO_DEADLINE, "t"), kept + " should have been kept");
        assertEquals(1, c.tenantStats().get("t").evictions());
    }

    @Test
    void evict_equalEffectiveAge_evictsLargerClassFirst() {
        DeadlineCache c = cache(oneItems(2));
        set(c, "a", 5 * MS, "t"); // class 2
        clock.advanceMillis(2);
        set(c, "b", 10 * MS, "t"); // class 3: age 0
        clock.advanceMillis(2);
        // a: 4 ms * 4 = 16, b: 2 ms * 8 = 16 -> tie, larger class (b) goes.
        set(c, "c", 5 * MS, "t");
        assertNull(c.get(key("b"), DeadlineCache.NO_DEADLINE, "t"));
        assertNotNull(c.get(key("a"), DeadlineCache.NO_DEADLINE, "t"));
    }

    @Test
    void evict_expiredHead_goesFirstAndCountsAsExpiration() {
        DeadlineCache c = cache(oneItems(2));
        c.set(key("a"), valueFor(1, ITEM), 0, 10 * MS, 0, 1 * MS, "t"); // class 0, expires at 10 ms
        set(c, "b", 600 * MS, "t");
        clock.advanceMillis(20);
        set(c, "c", 600 * MS, "t");
        assertNotNull(c.get(key("b"), DeadlineCache.NO_DEADLINE, "t"));
        TenantStats s = c.tenantStats().get("t");
        assertEquals(0, s.evictions());
        assertEquals(1, s.expirations());
    }

    @Test
    void put_neverExceedsCapacityInBytes_randomSizes() {
        long seed = 20261122L;
        System.out.println("put_neverExceedsCapacityInBytes_randomSizes seed=" + seed);
        Random rnd = new Random(seed);
        DeadlineCache c = cache(DeadlineCacheConfig.defaults(50_000).withPartitions(3));
        for (int i = 0; i < 20_000; i++) {
            clock.nowNanos += rnd.nextInt(1000);
            String k = "key" + rnd.nextInt(2_000);
            int size = 1 + rnd.nextInt(rnd.nextInt(10) == 0 ? 20_000 : 600);
            c.set(key(k), new byte[size], 0, DeadlineCache.NEVER_EXPIRES, 0, rnd.nextInt(2_000) * MS, "t" + (i % 3));
            assertTrue(
                    c.usedBytes() <= c.capacityBytes(),
                    "used " + c.usedBytes() + " > capacity " + c.capacityBytes() + " after op " + i);
        }
        long sum =
                c.tenantStats().values().stream().mapToLong(TenantStats::bytes).sum();
        assertEquals(c.usedBytes(), sum, "per-tenant bytes must add up to used bytes");
    }

    @Test
    void put_itemOfExactlyCapacity_fitsAndLargerIsRefusedAndDropsOldCopy() {
        DeadlineCache c = cache(oneItems(2));
        assertTrue(c.set(key("a"), valueFor(1, 2 * ITEM), 0, DeadlineCache.NEVER_EXPIRES, 0, 0, "t"));
        assertEquals(2 * ITEM, c.usedBytes());
        assertFalse(c.set(key("a"), valueFor(1, 2 * ITEM + 1), 0, DeadlineCache.NEVER_EXPIRES, 0, 0, "t"));
        assertNull(c.get(key("a"), DeadlineCache.NO_DEADLINE, "t"), "a refused set must not leave the old value");
        assertEquals(0, c.usedBytes());
    }

    @Test
    void put_largerThanMaxItemSize_isRefused() {
        DeadlineCache c =
                cache(DeadlineCacheConfig.defaults(1 << 20).withPartitions(1).withMaxItemSizeBytes(1000));
        assertTrue(c.set(key("a"), valueFor(1, 1000), 0, DeadlineCache.NEVER_EXPIRES, 0, 0, "t"));
        assertFalse(c.set(key("b"), valueFor(1, 1001), 0, DeadlineCache.NEVER_EXPIRES, 0, 0, "t"));
    }

    @Test
    void invalidate_removesCopy_andLaterGetMisses() {
        DeadlineCache c = cache(oneItems(4));
        set(c, "a", 5 * MS, "t");
        assertTrue(c.invalidate(key("a")));
        assertNull(c.get(key("a"), 5 * MS, "t"));
        assertFalse(c.invalidate(key("a")), "second invalidate finds nothing");
        assertEquals(0, c.usedBytes());
        assertEquals(0, c.itemCount());
    }

    @Test
    void set_replacesValueFlagsAndCas() {
        DeadlineCache c = cache(oneItems(4));
        c.set(key("a"), new byte[] {1}, 7, DeadlineCache.NEVER_EXPIRES, 11, 5 * MS, "t");
        c.set(key("a"), new byte[] {2, 3}, 8, DeadlineCache.NEVER_EXPIRES, 12, 5 * MS, "t");
        CachedItem item = c.get(key("a"), DeadlineCache.NO_DEADLINE, "t");
        assertArrayEquals(new byte[] {2, 3}, item.value());
        assertEquals(8, item.clientFlags());
        assertEquals(12, item.casUnique());
        assertEquals(DeadlineCache.sizeOf(1, 2), c.usedBytes());
    }

    @Test
    void add_keepsExistingCopy_butReplacesExpiredOne() {
        DeadlineCache c = cache(oneItems(4));
        c.set(key("a"), new byte[] {1}, 0, 10 * MS, 0, 5 * MS, "t");
        assertFalse(c.add(key("a"), new byte[] {2}, 0, DeadlineCache.NEVER_EXPIRES, 0, 5 * MS, "t"));
        assertArrayEquals(
                new byte[] {1}, c.get(key("a"), DeadlineCache.NO_DEADLINE, "t").value());
        clock.advanceMillis(10);
        assertTrue(c.add(key("a"), new byte[] {2}, 0, DeadlineCache.NEVER_EXPIRES, 0, 5 * MS, "t"));
        assertArrayEquals(
                new byte[] {2}, c.get(key("a"), DeadlineCache.NO_DEADLINE, "t").value());
    }

    @Test
    void ttl_expiresExactlyAtDeadlineOfInjectedClock() {
        DeadlineCache c = cache(oneItems(4));
        c.set(key("a"), new byte[] {1}, 0, 5_000 * MS, 0, 5 * MS, "t");
        clock.nowNanos = 5_000 * MS - 1;
        CachedItem hit = c.get(key("a"), DeadlineCache.NO_DEADLINE, "t");
        assertNotNull(hit);
        assertEquals(1, hit.remainingTtlNanos(clock.nowNanos));
        clock.nowNanos = 5_000 * MS;
        assertNull(c.get(key("a"), DeadlineCache.NO_DEADLINE, "t"));
        TenantStats s = c.tenantStats().get("t");
        assertEquals(1, s.expirations());
        assertEquals(1, s.hits());
        assertEquals(1, s.misses());
        assertEquals(0, s.bytes(), "an expired item found on access is removed");
    }

    @Test
    void ttl_nonPositive_storesNothingAndDropsOldCopy() {
        DeadlineCache c = cache(oneItems(4));
        set(c, "a", 5 * MS, "t");
        assertFalse(c.set(key("a"), new byte[] {1}, 0, -1, 0, 5 * MS, "t"));
        assertNull(c.get(key("a"), DeadlineCache.NO_DEADLINE, "t"));
    }

    @Test
    void touch_extendsOrDrops() {
        DeadlineCache c = cache(oneItems(4));
        c.set(key("a"), new byte[] {1}, 0, 10 * MS, 0, 5 * MS, "t");
        assertTrue(c.touch(key("a"), 100 * MS));
        clock.advanceMillis(50);
        assertNotNull(c.get(key("a"), DeadlineCache.NO_DEADLINE, "t"));
        assertFalse(c.touch(key("a"), 0));
        assertNull(c.get(key("a"), DeadlineCache.NO_DEADLINE, "t"));
        assertFalse(c.touch(key("missing"), 100 * MS));
    }

    @Test
    void classPolicy_latest_followsLastDeadline_min_keepsMostUrgent() {
        DeadlineCache latest = cache(oneItems(4));
        set(latest, "a", 5 * MS, "t");
        assertEquals(9, latest.get(key("a"), 600 * MS, "t").deadlineClass());
        assertEquals(
                9,
                latest.get(key("a"), DeadlineCache.NO_DEADLINE, "t").deadlineClass(),
                "a get without deadline leaves the class");

        DeadlineCache min = cache(oneItems(4).withClassPolicy(ClassPolicy.MIN));
        set(min, "a", 5 * MS, "t");
        assertEquals(2, min.get(key("a"), 600 * MS, "t").deadlineClass());
        assertEquals(0, min.get(key("a"), 1 * MS, "t").deadlineClass());
        set(min, "b", DeadlineCache.NO_DEADLINE, "t");
        assertEquals(11, min.get(key("b"), DeadlineCache.NO_DEADLINE, "t").deadlineClass());
        assertEquals(9, min.get(key("b"), 600 * MS, "t").deadlineClass(), "best-effort item takes any deadline");
    }

    /**
     * Soft fairness (MicroFuge §3.1.3): b1 is older, but tenant A is over its quota (mu 1) and tenant B at half of
     * it (mu 0.5), so A's head has the larger effective age: 100 ms * 4 * 1 = 400 > 150 ms * 4 * 0.5 = 300.
     */
    @Test
    void fairness_overQuotaTenantEvictedBeforeOlderItemOfSmallTenant() {
        for (boolean fairness : new boolean[] {false, true}) {
            clock.nowNanos = 0;
            DeadlineCache c = cache(oneItems(4).withFairness(fairness, false, Map.of()));
            set(c, "b", 5 * MS, "B");
            clock.advanceMillis(50);
            set(c, "x", 5 * MS, "A");
            set(c, "y", 5 * MS, "A");
            set(c, "z", 5 * MS, "A");
            clock.advanceMillis(100);
            set(c, "n", 5 * MS, "B");
            boolean bKept = c.get(key("b"), DeadlineCache.NO_DEADLINE, "B") != null;
            assertEquals(fairness, bKept, "fairness " + fairness + ": small tenant's older item kept?");
        }
    }

    /**
     * Hard over-quota rule: once the cache is full, a tenant above its quota never grows, and after both
     * tenants kept inserting, each is within its quota plus one item. Weights 3:1 give quotas 9600 / 3200 of
     * 12800 bytes.
     */
    @Test
    void quota_hardOverQuota_tenantsConvergeToWeightedQuota() {
        long seed = 4242L;
        System.out.println("quota_hardOverQuota_tenantsConvergeToWeightedQuota seed=" + seed);
        Random rnd = new Random(seed);
        DeadlineCache c = cache(oneItems(100).withFairness(true, true, Map.of("A", 3, "B", 1)));
        for (int i = 0; i < 100; i++) {
            clock.nowNanos += MS;
            set(c, "a" + i, rnd.nextInt(1000) * MS, "B"); // B alone may take the whole cache
        }
        assertEquals(100 * ITEM, c.tenantStats().get("B").bytes(), "no static partitioning while space is free");
        for (int i = 0; i < 5_000; i++) {
            clock.nowNanos += MS;
            String tenant = rnd.nextBoolean() ? "A" : "B";
            Map<String, TenantStats> before = c.tenantStats();
            boolean full = c.usedBytes() + ITEM > c.capacityBytes();
            set(c, "k" + rnd.nextInt(1_000_000), rnd.nextInt(1000) * MS, tenant);
            Map<String, TenantStats> after = c.tenantStats();
            for (String t : before.keySet()) {
                TenantStats b = before.get(t);
                if (full && b.bytes() > b.quotaBytes()) {
                    assertTrue(
                            after.get(t).bytes() <= b.bytes(),
                            "op " + i + ": over-quota tenant " + t + " grew from " + b.bytes() + " to "
                                    + after.get(t).bytes());
                }
            }
        }
        Map<String, TenantStats> end = c.tenantStats();
        assertEquals(9_600, end.get("A").quotaBytes());
        assertEquals(3_200, end.get("B").quotaBytes());
        assertTrue(
                end.get("A").bytes() <= 9_600 + ITEM, "A holds " + end.get("A").bytes());
        assertTrue(
                end.get("B").bytes() <= 3_200 + ITEM, "B holds " + end.get("B").bytes());
        assertTrue(
                end.get("A").bytes() >= 9_600 - ITEM,
                "A reaches its quota: " + end.get("A").bytes());
    }

    @Test
    void stats_perTenant_countHitsMissesEvictionsBytes() {
        DeadlineCache c = cache(oneItems(2));
        set(c, "a", 5 * MS, "A");
        clock.advanceMillis(1);
        set(c, "b", 5 * MS, "B");
        clock.advanceMillis(1);
        c.get(key("a"), 5 * MS, "B"); // hit charged to the reader B
        c.get(key("z"), 5 * MS, "A"); // miss charged to A
        clock.advanceMillis(1);
        set(c, "c", 5 * MS, "A"); // evicts b (LRU within one class), charged to B
        TenantStats a = c.tenantStats().get("A");
        TenantStats b = c.tenantStats().get("B");
        assertEquals(0, a.hits());
        assertEquals(1, a.misses());
        assertEquals(2 * ITEM, a.bytes());
        assertEquals(2, a.items());
        assertEquals(1, b.hits());
        assertEquals(0, b.misses());
        assertEquals(1, b.evictions());
        assertEquals(0, b.bytes());
        assertEquals(1.0, b.hitRatio());
    }

    @Test
    void tenants_beyondMaxTenants_shareOtherSlot() {
        DeadlineCache c = cache(oneItems(10).withMaxTenants(3));
        set(c, "a", 5 * MS, "t1");
        set(c, "b", 5 * MS, "t2");
        set(c, "c", 5 * MS, "t3");
        set(c, "d", 5 * MS, "t4");
        Map<String, TenantStats> s = c.tenantStats();
        assertEquals(List.of(DeadlineCache.OTHER_TENANT, "t1", "t2"), new ArrayList<>(s.keySet()));
        assertEquals(2 * ITEM, s.get(DeadlineCache.OTHER_TENANT).bytes());
        assertEquals(
                DeadlineCache.OTHER_TENANT,
                c.get(key("d"), DeadlineCache.NO_DEADLINE, "t1").tenant());
    }

    @Test
    void clear_dropsEverything() {
        DeadlineCache c = cache(oneItems(10).withPartitions(2));
        for (int i = 0; i < 8; i++) {
            set(c, "k" + i, 5 * MS, "t");
        }
        c.clear();
        assertEquals(0, c.usedBytes());
        assertEquals(0, c.itemCount());
        assertNull(c.get(key("k1"), DeadlineCache.NO_DEADLINE, "t"));
    }

    @Test
    void badArguments_haveMessagesWithValues() {
        DeadlineCache c = cache(oneItems(2));
        assertEquals(
                "deadline -7 ns (expected: >= 0 or NO_DEADLINE = -1)",
                assertThrows(IllegalArgumentException.class, () -> c.get(key("a"), -7, "t"))
                        .getMessage());
        assertEquals(
                "tenant null (expected: a tenant name)",
                assertThrows(IllegalArgumentException.class, () -> c.get(key("a"), 0, null))
                        .getMessage());
        assertEquals(
                "local.capacity_bytes 0 (expected: > 0)",
                assertThrows(IllegalArgumentException.class, () -> DeadlineCacheConfig.defaults(0))
                        .getMessage());
        assertEquals(
                "weight of tenant \"A\" is 0 (expected: >= 1)",
                assertThrows(
                                IllegalArgumentException.class,
                                () -> oneItems(2).withFairness(true, false, Map.of("A", 0)))
                        .getMessage());
        assertEquals(
                "fairness.hard_over_quota true with fairness.enabled false (expected: enable fairness first)",
                assertThrows(IllegalArgumentException.class, () -> oneItems(2).withFairness(false, true, Map.of()))
                        .getMessage());
    }

    /** Four writers and readers on four partitions; a watcher checks the byte bound while they run. */
    @Test
    void concurrent_mixedOperations_keepBoundAndAccounting() throws Exception {
        DeadlineCache c = new DeadlineCache(DeadlineCacheConfig.defaults(64_000).withPartitions(4), System::nanoTime);
        AtomicBoolean stop = new AtomicBoolean();
        AtomicReference<String> violation = new AtomicReference<>();
        List<Thread> threads = new ArrayList<>();
        for (int t = 0; t < 4; t++) {
            long seed = 77L + t;
            threads.add(new Thread(() -> {
                Random rnd = new Random(seed);
                for (int i = 0; i < 50_000; i++) {
                    byte[] k = key("k" + rnd.nextInt(3_000));
                    switch (rnd.nextInt(4)) {
                        case 0, 1 ->
                            c.set(
                                    k,
                                    new byte[rnd.nextInt(1_500)],
                                    0,
                                    DeadlineCache.NEVER_EXPIRES,
                                    0,
                                    rnd.nextInt(1_000) * MS,
                                    "t" + rnd.nextInt(3));
                        case 2 -> c.get(k, rnd.nextInt(1_000) * MS, "t" + rnd.nextInt(3));
                        default -> c.invalidate(k);
                    }
                }
            }));
        }
        Thread watcher = new Thread(() -> {
            while (!stop.get()) {
                long used = c.usedBytes();
                if (used > c.capacityBytes()) {
                    violation.compareAndSet(null, "used " + used + " > capacity " + c.capacityBytes());
                }
            }
        });
        watcher.start();
        threads.forEach(Thread::start);
        for (Thread t : threads) {
            t.join();
        }
        stop.set(true);
        watcher.join();
        assertNull(violation.get());
        Map<String, TenantStats> s = c.tenantStats();
        assertEquals(
                c.usedBytes(), s.values().stream().mapToLong(TenantStats::bytes).sum());
        assertEquals(
                c.itemCount(), s.values().stream().mapToLong(TenantStats::items).sum());
        assertTrue(c.usedBytes() <= c.capacityBytes());
    }
}
