package io.locus.memcached.bench;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;

/** The load generator's pure parts: seeded key choice, trace mapping, latency and deadline accounting, framing. */
class LoadGeneratorPartsTest {

    @Test
    void scrambledZipfIsDeterministicInRangeAndSkewedLikeYcsb() {
        ScrambledZipf zipf = new ScrambledZipf(10_000);
        long[] a = draw(zipf, new SplittableRandom(7), 1000);
        long[] b = draw(zipf, new SplittableRandom(7), 1000);
        assertArrayEquals(a, b, "same seed, same keys");
        assertFalse(java.util.Arrays.equals(a, draw(zipf, new SplittableRandom(8), 1000)), "another seed differs");
        Map<Long, Integer> counts = new HashMap<>();
        SplittableRandom random = new SplittableRandom(1);
        int n = 200_000;
        for (int i = 0; i < n; i++) {
            long k = zipf.next(random);
            assertTrue(k >= 0 && k < 10_000, "key " + k + " out of [0, 10000)");
            counts.merge(k, 1, Integer::sum);
        }
        double top = counts.values().stream().mapToInt(Integer::intValue).max().orElseThrow() / (double) n;
        // YCSB's scrambled Zipfian gives its top item 1/ZETAN = 3.8 % before folding (DESIGN.md, "How it is measured").
        assertTrue(top > 0.03 && top < 0.08, "top key share " + top + " (expected: about 0.038)");
        assertTrue(counts.size() > 3000, "distinct keys drawn " + counts.size() + " (expected: a long tail)");
    }

    @Test
    void zipfKeysCarryTenantAndRangeInThePrefixDeterministically() {
        ZipfKeys keys = new ZipfKeys(TenantProfile.defaults(), 2000);
        KeySource.Cursor c1 = keys.cursor(3, 8, 42);
        KeySource.Cursor c2 = keys.cursor(3, 8, 42);
        KeySource.Cursor other = keys.cursor(4, 8, 42);
        boolean differs = false;
        int[] perTenant = new int[3];
        int goldR1 = 0;
        int gold = 0;
        for (int i = 0; i < 20_000; i++) {
            Access x = c1.next();
            assertEquals(x, c2.next(), "same stream and seed, same access " + i);
            differs |= !x.equals(other.next());
            TenantProfile t = keys.tenants().get(x.tenant());
            assertTrue(x.key().startsWith(t.name() + ":" + x.range().code() + ":"), x.key());
            assertTrue(x.key().length() <= 60 && !x.key().contains(" "), x.key());
            assertEquals(
                    x.valueBytes(),
                    ValueSizes.bytesOf(
                            Long.parseUnsignedLong(x.key().substring(x.key().lastIndexOf(':') + 1), 16)),
                    "value size is the key's");
            perTenant[x.tenant()]++;
            if (t.name().equals("gold")) {
                gold++;
                goldR1 += x.range() == DeadlineRange.R1 ? 1 : 0;
            }
        }
        assertTrue(differs, "another stream gives other keys");
        assertEquals(0.3, perTenant[0] / 20_000.0, 0.02, "gold share");
        assertEquals(0.4, perTenant[2] / 20_000.0, 0.02, "bronze share");
        // Ranges are per key, so a Zipf stream's range mix is weighted by popularity; over the key space it is exact.
        assertTrue(goldR1 > 0 && goldR1 < gold, "gold has range-1 keys and others");
        int[] ranges = new int[4];
        keys.forEachKey(a -> {
            if (a.tenant() == 0) {
                ranges[a.range().ordinal()]++;
            }
        });
        assertEquals(0.5, ranges[0] / 2000.0, 0.04, "gold's keys in range 1");
        assertEquals(0, ranges[3], "gold has no best-effort keys");
        assertEquals(6000, keys.distinctKeys());
    }

    @Test
    void traceKeysMapObjectTypeToTenantAndReplayFromStaggeredPositions() {
        long type17 = (17L << 27) | 5;
        long type3 = (3L << 27) | 9;
        TraceKeys trace = TraceKeys.of("cache2k-test", new long[] {type17, type3, type17, type17}, true);
        assertEquals(
                List.of("type-17", "type-3"),
                trace.tenants().stream().map(TenantProfile::name).toList());
        assertEquals(0.75, trace.tenants().get(0).share(), 1e-9);
        Access a = trace.access(type17);
        assertEquals(0, a.tenant());
        assertTrue(a.key().startsWith("type-17:" + a.range().code() + ":" + Long.toHexString(type17)), a.key());
        assertEquals(a, trace.access(type17), "a key always maps the same way");
        KeySource.Cursor s1 = trace.cursor(1, 2, 0);
        assertEquals(type17, keyOf(s1.next()), "stream 1 of 2 starts at position 2");
        assertEquals(type17, keyOf(s1.next()));
        assertEquals(type17, keyOf(s1.next()), "wraps to position 0");
        assertEquals(type3, keyOf(s1.next()));
        long[] distinct = new long[2];
        int[] n = {0};
        trace.forEachKey(x -> distinct[n[0]++] = keyOf(x));
        assertEquals(2, n[0]);
        TraceKeys scarab = TraceKeys.of("scarab-test", new long[] {-1L, 7L}, false);
        assertEquals(
                List.of("scarab"),
                scarab.tenants().stream().map(TenantProfile::name).toList());
        assertThrows(IllegalArgumentException.class, () -> TraceKeys.read(Path.of("other.trace.xz"), 10));
    }

    @Test
    void realTraceReadsWithTypesAsTenants() throws IOException {
        Path orm = Path.of(System.getProperty("locus.data.dir", "../data"), "kv", "cache2k-orm-busy.trace.xz");
        TraceKeys trace = TraceKeys.read(orm, 20_000);
        assertEquals(20_000, trace.size());
        assertTrue(trace.tenants().size() >= 5, "orm-busy has several object types: " + trace.tenants());
        assertEquals("type-17", trace.tenants().get(0).name(), "type 17 is orm-busy's most frequent (47 %)");
        assertTrue(trace.tenants().stream().allMatch(t -> t.name().startsWith("type-")));
        assertTrue(trace.distinctKeys() > 100 && trace.distinctKeys() < 20_000, "distinct " + trace.distinctKeys());
    }

    @Test
    void opStatsCountsDeadlinesMetOnlyForTimelyHits() {
        OpStats s = new OpStats();
        long d = 2_000_000;
        s.recordGet(1_000_000, OpStats.Reply.HIT, DeadlineRange.R1, d); // met
        s.recordGet(3_000_000, OpStats.Reply.HIT, DeadlineRange.R1, d); // late
        s.recordGet(500_000, OpStats.Reply.MISS, DeadlineRange.R1, d); // a miss is no answer
        s.recordGet(100_000, OpStats.Reply.REJECTED, DeadlineRange.R2, d);
        s.recordGet(9_000_000, OpStats.Reply.HIT, DeadlineRange.BEST_EFFORT, -1);
        s.recordSet(400_000, OpStats.Reply.STORED);
        assertEquals(5, s.gets);
        assertEquals(3, s.hits);
        assertEquals(1, s.rejected);
        assertEquals(6, s.ops());
        assertEquals(1.0 / 3, s.metRatio(DeadlineRange.R1), 1e-9);
        assertEquals(0.0, s.metRatio(DeadlineRange.R2), 1e-9);
        assertTrue(Double.isNaN(s.metRatio(DeadlineRange.R3)));
        assertEquals(0.25, s.metRatio(), 1e-9, "best-effort gets are not counted");
        assertEquals(1.0 / 6, s.rejectRatio(), 1e-9);
        assertEquals(9.0, s.latencyMillis(100), 0.01);
        assertEquals(0.5, s.latencyMillis(50), 0.01);
        OpStats merged = new OpStats();
        merged.add(s);
        merged.add(s);
        assertEquals(12, merged.ops());
        assertEquals(0.25, merged.metRatio(), 1e-9);
        assertEquals(12, merged.latencyMicros.getTotalCount());
        OpStats slow = new OpStats();
        slow.recordSet(Long.MAX_VALUE / 2, OpStats.Reply.STORED);
        assertEquals(
                OpStats.MAX_MICROS / 1000.0,
                slow.latencyMillis(100),
                OpStats.MAX_MICROS / 1000.0 * 0.01,
                "latencies beyond the histogram are clamped, not lost");
    }

    @Test
    void shimFramesWholeRepliesAndQueuesServiceTimes() throws IOException {
        String stream = "VALUE a 0 3\r\nabc\r\nVALUE b 0 2\r\n\r\n\r\nEND\r\nSTORED\r\nVA 4 f0\r\nVA\r\n\r\nEN\r\n"
                + "STAT pid 1\r\nEND\r\n";
        ByteArrayInputStream in = new ByteArrayInputStream(stream.getBytes(StandardCharsets.US_ASCII));
        List<String> replies = new ArrayList<>();
        ByteArrayOutputStream reply = new ByteArrayOutputStream();
        while (SlowShim.readReply(in, reply)) {
            replies.add(reply.toString(StandardCharsets.US_ASCII));
            reply.reset();
        }
        assertEquals(
                List.of(
                        "VALUE a 0 3\r\nabc\r\nVALUE b 0 2\r\n\r\n\r\nEND\r\n",
                        "STORED\r\n",
                        "VA 4 f0\r\nVA\r\n\r\n",
                        "EN\r\n",
                        "STAT pid 1\r\nEND\r\n"),
                replies);

        try (SlowShim shim =
                SlowShim.start("t", new java.net.InetSocketAddress("127.0.0.1", 1), Emulation.CAPACITY, 3)) {
            long first = shim.schedule(1_000_000_000L);
            long second = shim.schedule(1_000_000_000L);
            assertTrue(first > 1_000_000_000L && second > first, "one server: the second waits for the first");
            long idle = shim.schedule(second + 5_000_000_000L);
            assertTrue(idle > second + 5_000_000_000L, "an idle server starts at arrival");
            assertEquals(3, shim.counters()[0]);
        }
        try (SlowShim slow =
                SlowShim.start("t", new java.net.InetSocketAddress("127.0.0.1", 1), Emulation.CAPACITY, 4_000_000, 3)) {
            long total = 0;
            for (int i = 0; i < 2000; i++) {
                total = slow.schedule(0);
            }
            // 2000 back-to-back requests at a 4 ms mean: the server is busy about 8 s (a 250 us mean gives 0.5 s).
            assertEquals(8e9, total, 8e9 * 0.1);
        }
    }

    @Test
    void emulationMeansMatchTheirProfiles() {
        for (Emulation e : List.of(Emulation.SCALED10, Emulation.DISK, Emulation.CAPACITY)) {
            SplittableRandom random = new SplittableRandom(5);
            double sum = 0;
            int n = 200_000;
            for (int i = 0; i < n; i++) {
                sum += e.serviceNanos(random);
            }
            assertEquals(e.meanServiceNanos(), sum / n, e.meanServiceNanos() * 0.02, e.name());
            // A moved mean (proxy-balance's --capacity) keeps the shape: the mean follows, so does the spread.
            SplittableRandom again = new SplittableRandom(5);
            double moved = 0;
            double movedSquares = 0;
            double base = 0;
            double baseSquares = 0;
            SplittableRandom baseRandom = new SplittableRandom(5);
            for (int i = 0; i < n; i++) {
                double x = e.serviceNanos(again, 2_000_000);
                moved += x;
                movedSquares += x * x;
                double y = e.serviceNanos(baseRandom);
                base += y;
                baseSquares += y * y;
            }
            assertEquals(2_000_000, moved / n, 2_000_000 * 0.02, e.name() + " moved mean");
            double cvMoved = Math.sqrt(movedSquares / n - (moved / n) * (moved / n)) / (moved / n);
            double cvBase = Math.sqrt(baseSquares / n - (base / n) * (base / n)) / (base / n);
            assertEquals(cvBase, cvMoved, 0.001, e.name() + " coefficient of variation");
        }
        assertThrows(IllegalArgumentException.class, () -> Emulation.CAPACITY.serviceNanos(new SplittableRandom(1), 0));
        assertEquals(0, Emulation.NONE.serviceNanos(new SplittableRandom(1), 1_000));
        assertEquals(2.0, Emulation.SCALED10.deadlineMillis(DeadlineRange.R1));
        assertThrows(IllegalArgumentException.class, () -> Emulation.DISK.deadlineMillis(DeadlineRange.BEST_EFFORT));
    }

    @Test
    void tableHasEveryRowAndRatios() {
        List<TenantProfile> tenants = TenantProfile.defaults();
        LoadGenerator.Result fast = result(tenants, 1_000_000, 2000);
        LoadGenerator.Result slow = result(tenants, 4_000_000, 1000);
        List<RowResult> rows = List.of(
                new RowResult("direct", "d", fast, Double.NaN, null),
                new RowResult("twemproxy", "t", slow, Double.NaN, null),
                new RowResult("locus-dlc", "l", null, Double.NaN, "not available yet: test"));
        String text = ResultTable.text(rows, tenants);
        assertTrue(
                text.contains("direct") && text.contains("twemproxy") && text.contains("not available yet: test"),
                text);
        assertTrue(
                text.lines().anyMatch(l -> l.startsWith("twemproxy") && l.contains("0.50x") && l.contains("4.00x")),
                text);
        String csv = ResultTable.csv(rows, tenants);
        int columns = csv.lines().findFirst().orElseThrow().split(",", -1).length;
        assertTrue(csv.lines().allMatch(l -> l.split(",", -1).length == columns), csv);
        assertEquals(1 + 2 * 4 + 1, csv.lines().count());
    }

    @Test
    void badSettingsAreRefusedWithTheValue() {
        IllegalArgumentException e = assertThrows(
                IllegalArgumentException.class, () -> new LoadGenerator.Settings(0, 0, 0.9, 1, 0, 1, Emulation.NONE));
        assertTrue(e.getMessage().contains("connections 0"), e.getMessage());
        assertThrows(IllegalArgumentException.class, () -> new TenantProfile("a b", 1, 0, 0, 0, "gold", 1));
        assertThrows(IllegalArgumentException.class, () -> new TenantProfile("a", 1, 0.6, 0.6, 0, "gold", 1));
        assertThrows(IllegalArgumentException.class, () -> new ScrambledZipf(0));
    }

    private static LoadGenerator.Result result(List<TenantProfile> tenants, long latencyNanos, int gets) {
        List<OpStats> per = new ArrayList<>();
        for (int t = 0; t < tenants.size(); t++) {
            OpStats s = new OpStats();
            for (int i = 0; i < gets; i++) {
                s.recordGet(latencyNanos, OpStats.Reply.HIT, DeadlineRange.R2, 3_000_000);
            }
            per.add(s);
        }
        return new LoadGenerator.Result(per, 1.0);
    }

    private static long keyOf(Access access) {
        return Long.parseUnsignedLong(access.key().substring(access.key().lastIndexOf(':') + 1), 16);
    }

    private static long[] draw(ScrambledZipf zipf, SplittableRandom random, int n) {
        long[] out = new long[n];
        for (int i = 0; i < n; i++) {
            out[i] = zipf.next(random);
        }
        return out;
    }
}
