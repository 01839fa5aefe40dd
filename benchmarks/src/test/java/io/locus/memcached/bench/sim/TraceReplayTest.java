package io.locus.memcached.bench.sim;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/** Replays the first 50,000 accesses of a real cache2k trace (a bounded slice of MicroFuge §6.2.1's hit-rate experiment). */
class TraceReplayTest {
    private static final int SLICE = 50_000;
    private static KeyTrace orm;
    private static TraceReplay.Report report;

    /** The repository's {@code data/kv}, from the system property {@code locus.data.dir} that the build sets. */
    static Path kvTraces() {
        Path dir = Path.of(System.getProperty("locus.data.dir", "../data"), "kv");
        if (!Files.isDirectory(dir)) {
            throw new IllegalStateException(dir.toAbsolutePath()
                    + " not found (expected: the repository's data/kv, or -Dlocus.data.dir=<dir>)");
        }
        return dir;
    }

    @BeforeAll
    static void replayOnce() throws IOException {
        orm = KeyTrace.read(kvTraces().resolve("cache2k-orm-busy.trace.xz"), SLICE);
        report = TraceReplay.replay(orm, 0.278);
        System.out.print("cache2k-orm-busy first " + SLICE + " accesses, capacity 27.8 % of footprint\n" + report);
    }

    @Test
    void read_slice_hasRequestedLengthAndTypesInRange() {
        assertEquals(SLICE, orm.size());
        for (int i = 0; i < orm.size(); i++) {
            long type = orm.key(i) >>> 27;
            assertTrue(type >= 0 && type < 32, "type " + type + " of access " + i);
        }
    }

    /** The README states 95,607 accesses for web12; reading past the end must stop there. */
    @Test
    void read_wholeSmallTrace_matchesReadmeCount() throws IOException {
        assertEquals(
                95_607,
                KeyTrace.read(kvTraces().resolve("cache2k-web12.trace.xz"), 1_000_000)
                        .size());
    }

    /** With one queue the DLC is an LRU (DESIGN.md): same hits per tenant as the textbook LRU, access by access. */
    @Test
    void dlcWithOneQueue_equalsPlainLru() {
        TraceReplay.PolicyResult lru = report.result("LRU");
        TraceReplay.PolicyResult q1 = report.result("DLC-Q1");
        assertEquals(lru.hits(), q1.hits());
        lru.byTenant().forEach((tenant, v) -> assertArrayEquals(v, q1.byTenant().get(tenant), tenant));
    }

    /** Replays are deterministic for DLC and LRU (fixed seeds, virtual clock). */
    @Test
    void replay_isDeterministic() {
        TraceReplay.Report again = TraceReplay.replay(orm, 0.278);
        assertEquals(report.result("DLC").hits(), again.result("DLC").hits());
        assertEquals(report.result("LRU").hits(), again.result("LRU").hits());
        report.result("DLC")
                .byTenant()
                .forEach((tenant, v) ->
                        assertArrayEquals(v, again.result("DLC").byTenant().get(tenant), tenant));
    }

    /** The thesis's effect [MicroFuge §6.3]: short deadlines hit more, long deadlines less than under LRU. */
    @Test
    void dlc_favoursShortDeadlines() {
        TraceReplay.PolicyResult dlc = report.result("DLC");
        TraceReplay.PolicyResult lru = report.result("LRU");
        assertTrue(
                dlc.rangeHitRatio(1) > lru.rangeHitRatio(1),
                "range 1: DLC " + dlc.rangeHitRatio(1) + " vs LRU " + lru.rangeHitRatio(1));
        assertTrue(
                dlc.rangeHitRatio(3) < lru.rangeHitRatio(3),
                "range 3: DLC " + dlc.rangeHitRatio(3) + " vs LRU " + lru.rangeHitRatio(3));
    }

    /** Hit ratios must be plausible for a 27.8 % cache on a skewed trace, for every policy and big tenant. */
    @Test
    void hitRatios_arePlausible() {
        for (TraceReplay.PolicyResult r : report.results()) {
            assertTrue(r.hitRatio() > 0.3 && r.hitRatio() < 0.99, r.policy() + " hit ratio " + r.hitRatio());
            assertEquals(
                    SLICE, r.byTenant().values().stream().mapToLong(v -> v[1]).sum(), r.policy());
        }
        long distinct = report.distinctKeys();
        // A cache-aside read misses at least once per distinct key.
        assertTrue(report.result("LRU").hits() <= SLICE - distinct);
        assertTrue(report.result("Caffeine").hits() <= SLICE - distinct);
    }
}
