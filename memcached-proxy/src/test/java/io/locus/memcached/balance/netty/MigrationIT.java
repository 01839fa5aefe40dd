package io.locus.memcached.balance.netty;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.locus.memcached.balance.VirtualBucketTable;
import io.locus.memcached.fixture.MemcachedConfig;
import io.locus.memcached.fixture.MemcachedServers;
import io.locus.memcached.fixture.MemcachedText;
import io.locus.memcached.testing.ProxyUnderTest;
import io.locus.memcached.testing.RawClient;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.SplittableRandom;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.condition.EnabledIfSystemProperty;

/**
 * Phase 3 in the proxy against 4 real memcached servers: virtual buckets move between servers while writers and
 * readers run through the proxy. No reader ever misses a key, no writer reads a value older than its own last write,
 * and memcached's own {@code stats} ({@code curr_items}, {@code cmd_get}) show the buckets' items and reads on the
 * new servers, with nothing of them left on the old ones.
 */
class MigrationIT {
    static final Path DIR = Path.of("target", "it", "migration");
    static final int KEYS = 3000;
    static final int WRITERS = 4;
    static final Duration TIMEOUT = Duration.ofSeconds(5);
    static MemcachedServers backends;

    @BeforeAll
    static void start() {
        backends = MemcachedServers.start(4, MemcachedConfig.DEFAULTS.withThreads(1), DIR);
    }

    @AfterAll
    static void stop() {
        if (backends != null) {
            backends.close();
        }
    }

    /**
     * Phase 3 on, with a capacity no backend reaches here, so only this test's moves happen; the copy throttled to
     * 4 KiB/s so that the copies of the ~10 KiB moved run for seconds under the concurrent load.
     */
    /** Write-then-read checks the writers make at least, before and during the moves and after them. */
    static final long MIN_CHECKS = 400;

    static final String LB =
            "lb:\n  enabled: true\n  epoch: 100ms\n  capacity: 10000000\n  phases: p3\n" + "  copy_rate: 4k\n";

    @Test
    void bucketsMoveUnderConcurrentReadersAndWriters_noMissNoStaleRead_memcachedStatsFollow() throws Exception {
        try (BalanceIT.Proxy proxy = BalanceIT.Proxy.start(backends, LB)) {
            BalancingServices services = proxy.server().balancing();
            VirtualBucketTable table = services.balancer().table();
            String[] keys = new String[KEYS];
            int[] bucketOfKey = new int[KEYS];
            for (int i = 0; i < KEYS; i++) {
                keys[i] = BalanceIT.key(i);
                bucketOfKey[i] = table.bucketOf(keys[i].getBytes(StandardCharsets.ISO_8859_1));
            }
            // Two buckets of each backend, each to the next backend: 8 moves, every server both source and target.
            List<int[]> moves = new ArrayList<>();
            for (int b = 0; b < 4; b++) {
                List<Integer> owned = table.bucketsOwnedBy(b);
                moves.add(new int[] {owned.get(0), (b + 1) % 4});
                moves.add(new int[] {owned.get(1), (b + 1) % 4});
            }
            boolean[] moving = new boolean[table.bucketCount()];
            for (int[] m : moves) {
                moving[m[0]] = true;
            }
            List<Integer> movingKeys = new ArrayList<>();
            for (int i = 0; i < KEYS; i++) {
                if (moving[bucketOfKey[i]]) {
                    movingKeys.add(i);
                }
            }
            assertTrue(movingKeys.size() > 100, "enough keys in the moved buckets: " + movingKeys.size());
            try (RawClient c = new RawClient(proxy.address())) {
                for (int from = 0; from < KEYS; from += 100) {
                    StringBuilder sb = new StringBuilder();
                    for (int i = from; i < from + 100; i++) {
                        sb.append("set ")
                                .append(keys[i])
                                .append(" 0 0 ")
                                .append(("v" + i).length())
                                .append("\r\nv")
                                .append(i)
                                .append("\r\n");
                    }
                    assertEquals("STORED\r\n".repeat(100), c.exchange(sb.toString()), "preload");
                }
            }
            long[] itemsBefore = stat("curr_items");

            // Writer w owns keys i % WRITERS == w; half of its writes go to keys of the moving buckets.
            String[] lastWritten = new String[KEYS];
            for (int i = 0; i < KEYS; i++) {
                lastWritten[i] = "v" + i;
            }
            AtomicBoolean stop = new AtomicBoolean();
            AtomicLong checks = new AtomicLong();
            AtomicLong reads = new AtomicLong();
            ExecutorService pool = Executors.newFixedThreadPool(WRITERS + 2);
            List<Future<String>> workers = new ArrayList<>();
            for (int w = 0; w < WRITERS; w++) {
                int me = w;
                workers.add(pool.submit(() -> writer(proxy, me, movingKeys, keys, lastWritten, stop, checks)));
            }
            for (int r = 0; r < 2; r++) {
                int seed = 40 + r;
                workers.add(pool.submit(() -> reader(proxy, seed, movingKeys, keys, stop, reads, services)));
            }
            long running = System.nanoTime() + BalanceIT.AWAIT_NANOS;
            while (checks.get() < 50 && System.nanoTime() < running) { // the writers are at work
                Thread.sleep(10);
            }
            long t0 = System.nanoTime();
            List<CompletableFuture<Void>> copies = new ArrayList<>();
            for (int[] m : moves) {
                copies.add(services.migrate(m[0], m[1]));
            }
            CompletableFuture.allOf(copies.toArray(CompletableFuture[]::new))
                    .get(BalanceIT.AWAIT_NANOS, TimeUnit.NANOSECONDS);
            long copiedMillis = (System.nanoTime() - t0) / 1_000_000;
            long movedBytes =
                    movingKeys.stream().mapToLong(i -> keys[i].length() + 2).sum(); // values are >= 2 bytes
            // A lower bound only (the throttle may not let the copy go faster), which a slow machine cannot break.
            assertTrue(
                    copiedMillis >= 1000 * movedBytes / 4096 / 2,
                    "lb.copy_rate throttles the copy: " + movedBytes + " bytes in " + copiedMillis + " ms");
            long deadline = System.nanoTime() + BalanceIT.AWAIT_NANOS;
            while (moves.stream().anyMatch(m -> services.balancer().migrationOf(m[0]) != null)
                    && System.nanoTime() < deadline) {
                Thread.sleep(20);
            }
            long doneMillis = (System.nanoTime() - t0) / 1_000_000;
            for (int[] m : moves) {
                assertEquals(null, services.balancer().migrationOf(m[0]), "migration of bucket " + m[0] + " finished");
                assertEquals(m[1], table.owner(m[0]), "bucket " + m[0] + " owned by its target");
            }
            // Keep the load on the finished buckets for another 100 checks (counted, not timed).
            long enough = Math.max(MIN_CHECKS, checks.get() + 100);
            while (checks.get() < enough && System.nanoTime() < deadline) {
                Thread.sleep(20);
            }
            stop.set(true);
            List<String> violations = new ArrayList<>();
            for (Future<String> f : workers) {
                String v = f.get(30, TimeUnit.SECONDS);
                if (v != null) {
                    violations.add(v);
                }
            }
            pool.shutdown();
            Map<String, String> lb = BalanceIT.lb(proxy);
            assertEquals(List.of(), violations);
            assertTrue(checks.get() >= MIN_CHECKS, "enough write-then-read checks: " + checks.get());
            assertTrue(Long.parseLong(lb.get("lb:migration_writes")) > 0, "writes hit migrating buckets: " + lb);
            assertEquals(String.valueOf(moves.size()), lb.get("lb:buckets_moved"), lb.toString());

            // Every key reads its latest value through the proxy, and sits on its owner only.
            int[] expectedItems = new int[4];
            try (RawClient c = new RawClient(proxy.address())) {
                for (int i = 0; i < KEYS; i++) {
                    String got = BalanceIT.exchange(c, "get " + keys[i] + "\r\n", "END\r\n");
                    String v = lastWritten[i];
                    assertEquals("VALUE " + keys[i] + " 0 " + v.length() + "\r\n" + v + "\r\nEND\r\n", got, keys[i]);
                    expectedItems[table.owner(bucketOfKey[i])]++;
                }
            }
            long[] items = stat("curr_items");
            System.out.println("LOCUS-IT migration: " + moves.size() + " buckets (" + movingKeys.size() + " of " + KEYS
                    + " keys) moved in " + copiedMillis + " ms (copy) / " + doneMillis + " ms (done) under " + WRITERS
                    + " writers and 2 readers: " + checks.get() + " write-then-read checks, " + reads.get()
                    + " reads, 0 violations; curr_items " + Arrays.toString(itemsBefore) + " -> "
                    + Arrays.toString(items)
                    + "; " + lb);
            for (int b = 0; b < 4; b++) {
                assertEquals(
                        expectedItems[b], items[b], "backend " + b + " holds exactly the keys of the buckets it owns");
            }
            for (int i : movingKeys) {
                int owner = table.owner(bucketOfKey[i]);
                int home = table.home(bucketOfKey[i]);
                assertTrue(
                        MemcachedText.get(backends.get(owner).address(), keys[i], TIMEOUT)
                                .isPresent(),
                        keys[i]);
                Optional<byte[]> old = MemcachedText.get(backends.get(home).address(), keys[i], TIMEOUT);
                assertTrue(old.isEmpty(), keys[i] + " deleted at its old server");
            }

            // Reads of the moved keys now reach the new servers only (memcached's own cmd_get).
            long[] before = stat("cmd_get");
            int[] expectedGets = new int[4];
            try (RawClient c = new RawClient(proxy.address())) {
                for (int i : movingKeys) {
                    BalanceIT.exchange(c, "get " + keys[i] + "\r\n", "END\r\n");
                    expectedGets[table.owner(bucketOfKey[i])]++;
                }
            }
            long[] gets = BalanceIT.minus(stat("cmd_get"), before);
            System.out.println("LOCUS-IT migration: cmd_get of the moved keys per backend " + Arrays.toString(gets));
            for (int b = 0; b < 4; b++) {
                assertEquals(
                        expectedGets[b], gets[b], "backend " + b + " served exactly the gets of the buckets it owns");
            }
        }
    }

    /** Sets its own keys and reads each back at once; anything but its latest value is a violation. */
    static String writer(
            BalanceIT.Proxy proxy,
            int me,
            List<Integer> movingKeys,
            String[] keys,
            String[] lastWritten,
            AtomicBoolean stop,
            AtomicLong checks)
            throws Exception {
        SplittableRandom random = new SplittableRandom(me);
        long seq = 0;
        try (RawClient c = new RawClient(proxy.address())) {
            while (!stop.get()) {
                int i = random.nextBoolean() ? movingKeys.get(random.nextInt(movingKeys.size())) : random.nextInt(KEYS);
                i -= i % WRITERS;
                i += me;
                if (i >= KEYS) {
                    continue;
                }
                String value = me + ":" + (++seq);
                String k = keys[i];
                String stored =
                        BalanceIT.exchange(c, "set " + k + " 0 0 " + value.length() + "\r\n" + value + "\r\n", "\r\n");
                if (!stored.equals("STORED\r\n")) {
                    return "set " + k + " answered " + stored.trim();
                }
                lastWritten[i] = value;
                String got = BalanceIT.exchange(c, "get " + k + "\r\n", "END\r\n");
                checks.incrementAndGet();
                if (!got.equals("VALUE " + k + " 0 " + value.length() + "\r\n" + value + "\r\nEND\r\n")) {
                    return "writer " + me + " set " + k + " to " + value + " and then read " + got.trim();
                }
            }
        }
        return null;
    }

    /** Reads keys, mostly of the moving buckets; every key exists, so a miss is a violation. */
    static String reader(
            BalanceIT.Proxy proxy,
            int seed,
            List<Integer> movingKeys,
            String[] keys,
            AtomicBoolean stop,
            AtomicLong reads,
            BalancingServices services)
            throws Exception {
        SplittableRandom random = new SplittableRandom(seed);
        try (RawClient c = new RawClient(proxy.address())) {
            while (!stop.get()) {
                int i = random.nextInt(4) > 0
                        ? movingKeys.get(random.nextInt(movingKeys.size()))
                        : random.nextInt(KEYS);
                String got = BalanceIT.exchange(c, "get " + keys[i] + "\r\n", "END\r\n");
                reads.incrementAndGet();
                if (!got.startsWith("VALUE " + keys[i] + " ")) {
                    int bucket = services.balancer().bucketOf(ProxyUnderTest.byteKey(keys[i]));
                    var m = services.balancer().migrationOf(bucket);
                    StringBuilder where = new StringBuilder();
                    for (int b = 0; b < 4; b++) {
                        where.append(b)
                                .append('=')
                                .append(MemcachedText.get(backends.get(b).address(), keys[i], TIMEOUT)
                                        .map(x -> new String(x, StandardCharsets.ISO_8859_1))
                                        .orElse("-"))
                                .append(' ');
                    }
                    return "reader " + seed + " missed " + keys[i] + ": " + got.trim() + " bucket " + bucket + " owner "
                            + services.balancer().table().owner(bucket) + " home "
                            + services.balancer().table().home(bucket)
                            + " migration " + (m == null ? "none" : m.state() + " " + m.source() + "->" + m.target())
                            + "; now at "
                            + where;
                }
            }
        }
        return null;
    }

    static long[] stat(String name) {
        return stat(backends, name);
    }

    static long[] stat(MemcachedServers servers, String name) {
        long[] v = new long[servers.size()];
        for (int b = 0; b < v.length; b++) {
            v[b] = Long.parseLong(
                    MemcachedText.stats(servers.get(b).address(), "", TIMEOUT).get(name));
        }
        return v;
    }

    /**
     * The planner's own decision on real servers: 3 of 4 reads go to keys of backend 0, so it is the only server over
     * {@code lb.capacity} (set to 0.6 of its load measured by an observing proxy first, since this machine's rate
     * varies). Phase 3 moves some of its buckets away while the readers run; none of them misses, and afterwards every
     * server holds exactly the keys of the buckets it owns.
     *
     * <p>Opt-in ({@code -Dlocus.lb.plannerIT=true}, run by {@code ./locus bench proxy-balance-planner}): whether the
     * trigger fires depends on the offered rate, which swings 2-4x between the measuring and the measured phase on a
     * loaded 2-core machine (then the whole cluster is over capacity and the planner rightly moves nothing). Migration
     * correctness itself is checked in every build by the test above.
     */
    @Test
    @EnabledIfSystemProperty(named = "locus.lb.plannerIT", matches = "true")
    void planner_movesBucketsOffTheOverloadedServer_withoutAMiss() throws Exception {
        try (MemcachedServers servers =
                MemcachedServers.start(4, MemcachedConfig.DEFAULTS.withThreads(1), DIR.resolve("planner"))) {
            double load0;
            try (BalanceIT.Proxy observer = BalanceIT.Proxy.start(
                    servers, "lb:\n  enabled: true\n  epoch: 250ms\n  capacity: 10000000\n  phases: none\n")) {
                Skew skew = Skew.of(observer, 0);
                skew.preload(observer);
                AtomicBoolean stop = new AtomicBoolean();
                ExecutorService pool = Executors.newFixedThreadPool(2);
                List<Future<String>> readers = skew.readers(observer, pool, stop, new AtomicLong());
                Thread.sleep(1500);
                Map<String, String> lb = BalanceIT.lb(observer);
                stop.set(true);
                for (Future<String> f : readers) {
                    assertEquals(null, f.get(30, TimeUnit.SECONDS));
                }
                pool.shutdown();
                load0 = Double.parseDouble(lb.get("lb:backend:0:ops"));
                assertTrue(load0 > 0, lb.toString());
            }
            // Half the observed load: the rate here swings with whatever else runs on the machine, and the trigger
            // needs
            // backend 0 over capacity for lb.persistence epochs in a row; 250 ms epochs average out the short dips.
            long capacity = Math.max(1, (long) (0.5 * load0));
            try (BalanceIT.Proxy proxy = BalanceIT.Proxy.start(
                    servers,
                    "lb:\n  enabled: true\n  epoch: 250ms\n" + "  capacity: " + capacity + "\n  phases: p3\n")) {
                Skew skew = Skew.of(proxy, 0);
                AtomicBoolean stop = new AtomicBoolean();
                AtomicLong reads = new AtomicLong();
                ExecutorService pool = Executors.newFixedThreadPool(2);
                List<Future<String>> readers = skew.readers(proxy, pool, stop, reads);
                long deadline = System.nanoTime() + 40_000_000_000L; // left as soon as the moves are done
                Map<String, String> lb = BalanceIT.lb(proxy);
                while (System.nanoTime() < deadline
                        && (lb.get("lb:buckets_moved").equals("0")
                                || !lb.get("lb:migrations_running").equals("0"))) {
                    Thread.sleep(100);
                    lb = BalanceIT.lb(proxy);
                }
                Thread.sleep(300);
                stop.set(true);
                List<String> violations = new ArrayList<>();
                for (Future<String> f : readers) {
                    String v = f.get(30, TimeUnit.SECONDS);
                    if (v != null) {
                        violations.add(v);
                    }
                }
                pool.shutdown();
                // Without load no new move starts; one the planner began after the loop above finishes first.
                long drained = System.nanoTime() + 20_000_000_000L;
                while (!BalanceIT.lb(proxy).get("lb:migrations_running").equals("0") && System.nanoTime() < drained) {
                    Thread.sleep(50);
                }
                lb = BalanceIT.lb(proxy);
                VirtualBucketTable table = proxy.server().balancing().balancer().table();
                int[] expected = new int[4];
                try (RawClient c = new RawClient(proxy.address())) {
                    for (int i = 0; i < skew.keys.length; i++) {
                        String got = BalanceIT.exchange(c, "get " + skew.keys[i] + "\r\n", "END\r\n");
                        assertEquals(
                                "VALUE " + skew.keys[i] + " 0 " + ("v" + i).length() + "\r\nv" + i + "\r\nEND\r\n",
                                got);
                        expected[table.ownerOf(skew.keys[i].getBytes(StandardCharsets.ISO_8859_1))]++;
                    }
                }
                long[] items = stat(servers, "curr_items");
                System.out.println("LOCUS-IT migration planner: backend 0 measured at " + load0 + " ops/s, lb.capacity "
                        + capacity + "; " + reads.get() + " reads, violations " + violations + "; curr_items "
                        + Arrays.toString(items) + "; " + lb);
                assertEquals(List.of(), violations);
                assertTrue(Integer.parseInt(lb.get("lb:buckets_moved")) > 0, "the planner moved buckets: " + lb);
                assertEquals("0", lb.get("lb:migrations_running"), lb.toString());
                assertTrue(Long.parseLong(lb.get("lb:p3_triggers")) > 0, lb.toString());
                for (int b = 0; b < 4; b++) {
                    assertEquals(
                            expected[b], items[b], "backend " + b + " holds exactly the keys of the buckets it owns");
                }
            }
        }
    }

    /** 2,000 keys; 3 of 4 reads go to those whose ring home is {@code hot}. */
    record Skew(String[] keys, int[] hotKeys) {
        static Skew of(BalanceIT.Proxy proxy, int hot) {
            VirtualBucketTable table = proxy.server().balancing().balancer().table();
            String[] keys = new String[2000];
            List<Integer> onHot = new ArrayList<>();
            for (int i = 0; i < keys.length; i++) {
                keys[i] = "p3:" + BalanceIT.key(i);
                if (table.home(table.bucketOf(keys[i].getBytes(StandardCharsets.ISO_8859_1))) == hot) {
                    onHot.add(i);
                }
            }
            return new Skew(keys, onHot.stream().mapToInt(Integer::intValue).toArray());
        }

        void preload(BalanceIT.Proxy proxy) throws Exception {
            try (RawClient c = new RawClient(proxy.address())) {
                for (int from = 0; from < keys.length; from += 100) {
                    StringBuilder sb = new StringBuilder();
                    for (int i = from; i < from + 100; i++) {
                        sb.append("set ")
                                .append(keys[i])
                                .append(" 0 0 ")
                                .append(("v" + i).length())
                                .append("\r\nv")
                                .append(i)
                                .append("\r\n");
                    }
                    assertEquals("STORED\r\n".repeat(100), c.exchange(sb.toString()), "preload");
                }
            }
        }

        List<Future<String>> readers(
                BalanceIT.Proxy proxy, ExecutorService pool, AtomicBoolean stop, AtomicLong reads) {
            List<Future<String>> out = new ArrayList<>();
            for (int t = 0; t < 2; t++) {
                SplittableRandom random = new SplittableRandom(t);
                out.add(pool.submit(() -> {
                    try (RawClient c = new RawClient(proxy.address())) {
                        while (!stop.get()) {
                            int i = random.nextInt(4) > 0
                                    ? hotKeys[random.nextInt(hotKeys.length)]
                                    : random.nextInt(keys.length);
                            String got = BalanceIT.exchange(c, "get " + keys[i] + "\r\n", "END\r\n");
                            reads.incrementAndGet();
                            if (!got.equals(
                                    "VALUE " + keys[i] + " 0 " + ("v" + i).length() + "\r\nv" + i + "\r\nEND\r\n")) {
                                return "read " + keys[i] + ": " + got.trim();
                            }
                        }
                    }
                    return null;
                }));
            }
            return out;
        }
    }
}
