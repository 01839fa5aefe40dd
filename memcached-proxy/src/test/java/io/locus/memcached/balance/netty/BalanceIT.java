package io.locus.memcached.balance.netty;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.locus.memcached.backend.RequestHandler;
import io.locus.memcached.fixture.MemcachedConfig;
import io.locus.memcached.fixture.MemcachedServers;
import io.locus.memcached.server.ProxyServer;
import io.locus.memcached.testing.ProxyUnderTest;
import io.locus.memcached.testing.RawClient;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.SplittableRandom;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * Phase 1 (hot-key replication) in the proxy, against 4 real memcached servers: the hot backend's load, measured by
 * memcached's own {@code cmd_get}, drops once hot keys are replicated; clients never read a value older than their
 * own last write through the proxy.
 */
public class BalanceIT {
    static final Path DIR = Path.of("target", "it", "balance");
    static final int KEYS = 2000;
    static final double THETA = 0.99;
    /** Write-then-read checks of the read-your-writes test, counted rather than timed. */
    static final long CHECKS = 2000;
    /** How long a wait for something that must happen may last: only its never happening fails a test. */
    public static final long AWAIT_NANOS = 120_000_000_000L;

    static MemcachedServers backends;

    /** Short epochs so that the 4-epoch persistence rule passes within a second; small capacity so load counts. */
    static String lbYaml(String phases) {
        return "lb:\n  enabled: true\n  epoch: 250ms\n  capacity: 1500\n  replicas_max: 3\n  lease_p1: 8\n"
                + "  sample_rate: 0.2\n  phases: " + phases + "\n";
    }

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

    /** A proxy in this JVM; the servers are named as nutcracker's, so placement does not depend on the ports. */
    record Proxy(ProxyServer server, java.net.InetSocketAddress address) implements AutoCloseable {
        static Proxy start(String lb) {
            return start(backends, lb);
        }

        static Proxy start(MemcachedServers backends, String lb) {
            List<String> servers = new ArrayList<>();
            for (int i = 0; i < backends.size(); i++) {
                servers.add("127.0.0.1:" + backends.get(i).port() + ":1 memcached-" + i);
            }
            // A generous backend timeout: this shared 2-core machine can stall a backend for over a second.
            String yaml = ProxyUnderTest.yaml("127.0.0.1:0", servers, "backend:\n  timeout: 10s\n" + lb);
            ProxyServer server = new ProxyServer(
                    io.locus.memcached.config.ConfigLoader.parse(yaml, "BalanceIT"),
                    RequestHandler.Factory.PASS_THROUGH);
            return new Proxy(server, server.start().get(0));
        }

        @Override
        public void close() {
            server.close();
        }
    }

    static String key(int rank) {
        long z = (rank + 1) * 0x9E3779B97F4A7C15L; // splitmix64: names spread on the ring like real keys
        z = (z ^ (z >>> 30)) * 0xBF58476D1CE4E5B9L;
        z = (z ^ (z >>> 27)) * 0x94D049BB133111EBL;
        return "user" + Long.toHexString(z ^ (z >>> 31));
    }

    @Test
    void phase1_takesLoadOffTheHotBackend_measuredByMemcachedsOwnCmdGet() throws Exception {
        long[] off;
        long[] on;
        try (Proxy proxy = Proxy.start(lbYaml("none"))) {
            preload(proxy);
            run(proxy, 4, 1500, 7); // warm-up of connections
            long[] before = cmdGets();
            run(proxy, 4, 3000, 11);
            off = minus(cmdGets(), before);
            assertEquals("0", lb(proxy).get("lb:replicated_keys"), "with lb.phases none nothing is replicated");
        }
        try (Proxy proxy = Proxy.start(lbYaml("p1"))) {
            // Bounded only against a balancer that never replicates; a slow machine just takes longer.
            long deadline = System.nanoTime() + AWAIT_NANOS;
            while (Long.parseLong(lb(proxy).get("lb:copies")) == 0 && System.nanoTime() < deadline) {
                run(proxy, 4, 500, 5);
            }
            run(proxy, 4, 1500, 7); // the same warm-up as above
            long[] before = cmdGets();
            run(proxy, 4, 3000, 11);
            on = minus(cmdGets(), before);
            java.util.Map<String, String> lb = lb(proxy);
            System.out.println("LOCUS-IT balance: cmd_get per backend without " + java.util.Arrays.toString(off)
                    + " (max/mean " + fmt(maxOverMean(off)) + "), with phase 1 " + java.util.Arrays.toString(on)
                    + " (max/mean " + fmt(maxOverMean(on)) + "); " + lb);
            assertTrue(Long.parseLong(lb.get("lb:replicated_keys")) > 0, "hot keys were replicated: " + lb);
            assertTrue(Long.parseLong(lb.get("lb:shadow_reads")) > 0, "reads went to shadows: " + lb);
        }
        int hot = argMax(off);
        assertTrue(maxOverMean(off) > 1.3, "Zipf 0.99 makes one backend hot: " + java.util.Arrays.toString(off));
        assertTrue(
                on[hot] < 0.8 * off[hot],
                "the hot backend's cmd_get dropped by over 20 %: " + off[hot] + " -> " + on[hot]);
        assertTrue(
                maxOverMean(on) < maxOverMean(off) - 0.2,
                "imbalance fell: " + fmt(maxOverMean(off)) + " -> " + fmt(maxOverMean(on)));
    }

    @Test
    void concurrentWritersAndReaders_neverReadOlderThanTheirOwnLastWrite() throws Exception {
        try (Proxy proxy = Proxy.start(lbYaml("p1") + "  shadow_updates: async\n")) {
            preload(proxy);
            AtomicBoolean stop = new AtomicBoolean();
            ExecutorService pool = Executors.newFixedThreadPool(6);
            List<Future<?>> readers = new ArrayList<>();
            for (int t = 0; t < 2; t++) {
                int seed = 100 + t;
                readers.add(pool.submit(() -> {
                    while (!stop.get()) {
                        run(proxy, 1, 200, seed);
                    }
                    return null;
                }));
            }
            long deadline = System.nanoTime() + AWAIT_NANOS;
            while (Long.parseLong(lb(proxy).get("lb:copies")) == 0 && System.nanoTime() < deadline) {
                Thread.sleep(100);
            }
            long shadowReadsBefore = Long.parseLong(lb(proxy).get("lb:shadow_reads"));
            int writers = 4;
            AtomicLong checks = new AtomicLong();
            List<Future<String>> results = new ArrayList<>();
            for (int w = 0; w < writers; w++) {
                int me = w;
                results.add(pool.submit(() -> writeThenRead(proxy, me, writers, CHECKS, checks)));
            }
            List<String> violations = new ArrayList<>();
            for (Future<String> f : results) {
                String v = f.get();
                if (v != null) {
                    violations.add(v);
                }
            }
            stop.set(true);
            for (Future<?> f : readers) {
                f.get();
            }
            pool.shutdown();
            java.util.Map<String, String> lb = lb(proxy);
            System.out.println("LOCUS-IT read-your-writes: " + checks.get() + " write-then-read checks, "
                    + (Long.parseLong(lb.get("lb:shadow_reads")) - shadowReadsBefore) + " shadow reads meanwhile; "
                    + lb);
            assertEquals(List.of(), violations);
            assertTrue(checks.get() >= CHECKS, "enough checks ran: " + checks.get());
            assertTrue(Long.parseLong(lb.get("lb:versioned_writes")) > 0, "writes to replicated keys happened: " + lb);
            assertTrue(Long.parseLong(lb.get("lb:shadow_reads")) > shadowReadsBefore, "shadows served reads: " + lb);
        }
    }

    /**
     * Writer {@code me} owns the hot ranks {@code r % writers == me}: it sets {@code me:seq} over one connection and
     * reads the key back over another; anything but its own latest value is a violation (nobody else writes it). The
     * writers stop once {@code minChecks} checks ran in all, however long that takes.
     */
    static String writeThenRead(Proxy proxy, int me, int writers, long minChecks, AtomicLong checks)
            throws IOException {
        try (RawClient w = new RawClient(proxy.address());
                RawClient r = new RawClient(proxy.address())) {
            long end = System.nanoTime() + AWAIT_NANOS;
            long seq = 0;
            while (checks.get() < minChecks && System.nanoTime() < end) {
                for (int rank = me; rank < 24; rank += writers) {
                    String value = me + ":" + (++seq);
                    String k = key(rank);
                    String stored =
                            exchange(w, "set " + k + " 0 0 " + value.length() + "\r\n" + value + "\r\n", "\r\n");
                    if (!stored.equals("STORED\r\n")) {
                        return "set " + k + " answered " + stored;
                    }
                    for (RawClient c : List.of(w, r)) {
                        String got = exchange(c, "get " + k + "\r\n", "END\r\n");
                        String expected = "VALUE " + k + " 0 " + value.length() + "\r\n" + value + "\r\nEND\r\n";
                        checks.incrementAndGet();
                        if (!got.equals(expected)) {
                            return "writer " + me + " wrote " + value + " to " + k + " and then read " + got.trim();
                        }
                    }
                }
            }
            return null;
        }
    }

    static String exchange(RawClient c, String request, String terminator) throws IOException {
        c.send(request);
        return new String(c.readUntilEndsWith(RawClient.bytes(terminator)), StandardCharsets.ISO_8859_1);
    }

    static void preload(Proxy proxy) throws IOException {
        try (RawClient c = new RawClient(proxy.address())) {
            for (int from = 0; from < KEYS; from += 100) {
                StringBuilder sb = new StringBuilder();
                for (int rank = from; rank < Math.min(KEYS, from + 100); rank++) {
                    String v = "v" + rank;
                    sb.append("set ")
                            .append(key(rank))
                            .append(" 0 0 ")
                            .append(v.length())
                            .append("\r\n")
                            .append(v)
                            .append("\r\n");
                }
                String got = c.exchange(sb.toString());
                assertEquals("STORED\r\n".repeat(Math.min(KEYS, from + 100) - from), got, "preload");
            }
        }
    }

    /** {@code threads} clients, each {@code requests} Zipf gets one at a time; every reply must be a hit. */
    static void run(Proxy proxy, int threads, int requests, int seed) throws Exception {
        ExecutorService pool = Executors.newFixedThreadPool(threads);
        try {
            List<Future<?>> fs = new ArrayList<>();
            for (int t = 0; t < threads; t++) {
                SplittableRandom random = new SplittableRandom(seed * 31L + t);
                fs.add(pool.submit(() -> {
                    Zipf zipf = new Zipf(KEYS, THETA);
                    try (RawClient c = new RawClient(proxy.address())) {
                        for (int i = 0; i < requests; i++) {
                            int rank = zipf.next(random);
                            String got = exchange(c, "get " + key(rank) + "\r\n", "END\r\n");
                            if (!got.startsWith("VALUE " + key(rank) + " ")) {
                                throw new AssertionError("get " + key(rank) + " answered " + got.trim());
                            }
                        }
                    }
                    return null;
                }));
            }
            for (Future<?> f : fs) {
                f.get();
            }
        } finally {
            pool.shutdown();
        }
    }

    static java.util.Map<String, String> lb(Proxy proxy) throws IOException {
        return ProxyUnderTest.stats(proxy.address(), "lb");
    }

    static long[] cmdGets() {
        long[] n = new long[backends.size()];
        for (int i = 0; i < n.length; i++) {
            n[i] = Long.parseLong(backends.get(i).stats().get("cmd_get"));
        }
        return n;
    }

    static long[] minus(long[] a, long[] b) {
        long[] d = new long[a.length];
        for (int i = 0; i < a.length; i++) {
            d[i] = a[i] - b[i];
        }
        return d;
    }

    static double maxOverMean(long[] a) {
        long max = 0;
        long sum = 0;
        for (long x : a) {
            max = Math.max(max, x);
            sum += x;
        }
        return sum == 0 ? 0 : max / ((double) sum / a.length);
    }

    static int argMax(long[] a) {
        int best = 0;
        for (int i = 1; i < a.length; i++) {
            if (a[i] > a[best]) {
                best = i;
            }
        }
        return best;
    }

    static String fmt(double d) {
        return String.format(java.util.Locale.ROOT, "%.3f", d);
    }

    /** Zipf(theta) over ranks 0..n-1 by inverse CDF; rank 0 is the most popular. */
    static final class Zipf {
        private final double[] cdf;

        Zipf(int n, double theta) {
            cdf = new double[n];
            double sum = 0;
            for (int i = 0; i < n; i++) {
                sum += 1 / Math.pow(i + 1, theta);
                cdf[i] = sum;
            }
            for (int i = 0; i < n; i++) {
                cdf[i] /= sum;
            }
        }

        int next(SplittableRandom random) {
            int i = java.util.Arrays.binarySearch(cdf, random.nextDouble());
            return Math.min(cdf.length - 1, i < 0 ? -i - 1 : i);
        }
    }
}
