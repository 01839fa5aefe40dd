package io.locus.gluster.virtcache.sizing;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Random;
import org.junit.jupiter.api.Test;

class SizingTest {
    @Test
    void shadowLru_countsHitsAtTheirStackDistance() {
        ShadowLru lru = new ShadowLru(10, 10);
        lru.access(1);
        lru.access(2);
        lru.access(1); // one other block in between: a 2-block cache would hit
        HitRateCurve c = lru.curve();
        assertEquals(3, c.accesses());
        assertEquals(1, c.hits()[1]);
        assertEquals(0.0, c.hitRate(1));
        assertEquals(1.0 / 3, c.hitRate(2), 1e-12);
    }

    @Test
    void cyclicWorkingSet_needsACacheItsSize() {
        ShadowLru lru = new ShadowLru(100, 10);
        for (int round = 0; round < 10; round++) {
            for (long b = 0; b < 30; b++) {
                lru.access(b);
            }
        }
        HitRateCurve c = lru.curve();
        assertEquals(0.0, c.hitRate(20), "20 blocks hold too little of a 30-block loop");
        assertEquals(270.0 / 300, c.hitRate(30), 1e-12);
        assertEquals(30, c.blocksFor(0.9));
        assertEquals(100, c.blocksFor(0.95), "unreachable: the whole shadow, no more");
        lru.newEpoch();
        lru.access(5);
        assertEquals(1.0, lru.curve().hitRate(30), "the LRU keeps its contents across epochs");
    }

    @Test
    void blocksFor_interpolatesWithinASegment() {
        // The thesis's worked example: 1000 I/Os, a 0.8 target met by the hits of the first two segments.
        HitRateCurve c = new HitRateCurve(25, new long[] {500, 300, 100, 0, 0, 0, 0, 0, 0, 0}, 1000);
        assertEquals(50, c.blocksFor(0.8));
        assertEquals(38, c.blocksFor(0.65), "half of the second segment's hits: 25 + 12.5");
        assertEquals(0, c.blocksFor(0));
    }

    @Test
    void targetHitRate_followsEquation31() {
        // Primary 10 ms, cache 2 ms, target 4 ms: (10 - 4) / (10 - 2) = 0.75 of the reads must hit.
        assertEquals(0.75, CacheSizer.targetHitRate(10, 4, 2), 1e-12);
        assertEquals(0.0, CacheSizer.targetHitRate(10, 12, 2), "the primary meets the target alone");
        assertEquals(1.0, CacheSizer.targetHitRate(10, 1, 2), "unreachable: all reads");
    }

    @Test
    void sizer_smoothsWithAMovingAverage() {
        CacheSizer sizer = new CacheSizer(3);
        HitRateCurve small = new HitRateCurve(10, new long[] {90, 0, 0, 0}, 100);
        HitRateCurve large = new HitRateCurve(10, new long[] {0, 0, 0, 90}, 100);
        assertEquals(10, sizer.nextSize(small, 0.9));
        assertEquals(25, sizer.nextSize(large, 0.9), "(10 + 40) / 2");
        assertEquals(30, sizer.nextSize(large, 0.9), "(10 + 40 + 40) / 3");
        assertEquals(40, sizer.nextSize(large, 0.9), "the first epoch has left the average");
    }

    @Test
    void twoVictims_shareTheCacheByNeed_notEqually() {
        Random random = new Random(1);
        ShadowLru small = new ShadowLru(1000, 10);
        ShadowLru large = new ShadowLru(1000, 10);
        for (int i = 0; i < 20_000; i++) {
            small.access(random.nextInt(100));
            large.access(random.nextInt(600));
        }
        long needSmall = small.curve().blocksFor(0.9);
        long needLarge = large.curve().blocksFor(0.9);
        assertTrue(needSmall <= 100 && needLarge > 400, "demands " + needSmall + ", " + needLarge);
        Map<String, Long> demands = new LinkedHashMap<>();
        demands.put("small", needSmall);
        demands.put("large", needLarge);
        Map<String, Long> shares = CacheShares.split(400, demands);
        assertTrue(shares.get("large") > 2 * shares.get("small"), shares.toString());
        assertTrue(shares.get("large") + shares.get("small") <= 400, shares.toString());
        assertEquals(demands, CacheShares.split(10_000, demands), "everything fits: each gets its demand");
    }

    @Test
    void badInput_isRefusedWithTheValueNamed() {
        assertMessage("shadow LRU of 15 blocks in 10 segments", () -> new ShadowLru(15, 10));
        assertMessage("target hit rate 1.5", () -> new HitRateCurve(1, new long[] {1}, 1).blocksFor(1.5));
        assertMessage("2 hits over 1 accesses", () -> new HitRateCurve(1, new long[] {1, 1}, 1));
        assertMessage("cache 12.0 (expected: all > 0 and cache < primary)", () -> CacheSizer.targetHitRate(10, 4, 12));
        assertMessage("smoothing epochs 0", () -> new CacheSizer(0));
        assertMessage("cache demand of vm1 -1", () -> CacheShares.split(10, Map.of("vm1", -1L)));
        assertMessage("cache capacity -1", () -> CacheShares.split(-1, Map.of()));
    }

    private static void assertMessage(String expected, Runnable r) {
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class, r::run);
        assertTrue(e.getMessage().contains(expected), e.getMessage());
    }
}
