package io.locus.memcached.deadline;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.locus.memcached.fixture.MemcachedConfig;
import io.locus.memcached.fixture.MemcachedServer;
import io.locus.memcached.fixture.MemcachedServers;
import io.locus.memcached.server.TransparencyIT;
import io.locus.memcached.testing.ProxyUnderTest;
import io.locus.memcached.testing.RawClient;
import java.net.InetSocketAddress;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * The full proxy (in-proxy deadline cache, schedulers, admission) in front of real memcached servers: hits never reach
 * the backend, replies are byte-identical to memcached's, writes through the proxy invalidate, quotas evict the
 * tenant over quota first, and the per-tenant statistics add up.
 */
public class DeadlineCacheIT {
    static MemcachedServers servers;
    static final Path DIR = Path.of("target", "it", "deadline-cache");

    @BeforeAll
    static void start() {
        // 0: direct reference, 1: backend of the byte-exactness proxy, 2..5: one backend per remaining test.
        servers = MemcachedServers.start(6, MemcachedConfig.DEFAULTS, DIR);
    }

    @AfterAll
    static void stop() {
        servers.close();
    }

    private static long stat(MemcachedServer s, String name) {
        return Long.parseLong(s.stats().get(name));
    }

    @Test
    void everyScript_sameBytesAsDirect_withTheCacheOn() throws Exception {
        // The scripts of TransparencyIT, plus reads repeated so the second one is a hit, on a fresh pair of servers.
        // A hard deadline may be refused while the latency model still remembers cold-start samples (first connects,
        // JIT); refusals are OverloadIT's subject, so the one hard mg of the scripts becomes best-effort here.
        List<byte[]> scripts = new java.util.ArrayList<>();
        for (byte[] s : TransparencyIT.scripts()) {
            scripts.add(RawClient.bytes(new String(s, StandardCharsets.ISO_8859_1).replace("L20ms", "L~20ms")));
        }
        String reads =
                "get a\r\nget a nokey a\r\nmg a v\r\nmg a\r\nmg a v f k s Oxy\r\nmg a q v\r\nmg a s q\r\nmg a k q\r\n"
                        + "mg nokey v k Oab\r\nmg nokey q v\r\nmg nokey v\r\nmg a f v\r\nget b\r\nmg b v f t\r\nmg a k k\r\n";
        scripts.add(RawClient.bytes("set a 4294967295 0 5\r\nhello\r\nset b 0 100 0\r\n\r\n" + reads + reads));
        // Fills that overlap a write are not kept, so hits come from batches without writes.
        scripts.add(RawClient.bytes(reads));
        scripts.add(RawClient.bytes(reads));
        scripts.add(RawClient.bytes("set a 1 0 1\r\nx\r\n" + reads + "set a 2 0 2\r\nyy\r\n" + reads
                + "append a 0 0 1\r\nz\r\n" + reads + "delete a\r\n" + reads + "ms a 2 F9\r\nmm\r\n" + reads
                + "ma a\r\n" + reads + "flush_all\r\n" + reads));
        try (ProxyUnderTest proxy =
                ProxyUnderTest.withDeadlines(List.of(servers.get(1).address()), "")) {
            for (byte[] script : scripts) {
                byte[] direct = run(servers.get(0).address(), script);
                byte[] proxied = run(proxy.address, script);
                assertSameBytes(direct, proxied, script);
            }
            long hits = Long.parseLong(proxy.stats().get("locus_tenant:default:hits"));
            System.out.println("byte-exact scripts with the cache on: " + hits + " local hits");
            assertTrue(hits > 0, "some repeated reads hit");
        }
    }

    /** {@code script} sent to memcached directly and through the proxy gets the same bytes back. */
    public static void assertSameReplies(InetSocketAddress direct, InetSocketAddress proxy, String script)
            throws Exception {
        byte[] bytes = RawClient.bytes(script);
        assertEquals(
                new String(run(direct, bytes), StandardCharsets.ISO_8859_1),
                new String(run(proxy, bytes), StandardCharsets.ISO_8859_1),
                "script " + RawClient.preview(bytes));
    }

    /** Sends the script and a final miss with a unique key; scripts contain their own {@code mn}. */
    public static byte[] run(InetSocketAddress address, byte[] script) throws Exception {
        try (RawClient c = new RawClient(address)) {
            byte[] end = RawClient.bytes("mg zz:end:of:script k\r\n");
            byte[] all = java.util.Arrays.copyOf(script, script.length + end.length);
            System.arraycopy(end, 0, all, script.length, end.length);
            c.send(all);
            return c.readUntilEndsWith(RawClient.bytes("EN kzz:end:of:script\r\n"));
        }
    }

    static void assertSameBytes(byte[] direct, byte[] proxied, byte[] script) {
        String expected = new String(direct, StandardCharsets.ISO_8859_1);
        String actual = new String(proxied, StandardCharsets.ISO_8859_1);
        if (!expected.equals(actual)) {
            int i = 0;
            while (i < Math.min(expected.length(), actual.length()) && expected.charAt(i) == actual.charAt(i)) {
                i++;
            }
            assertEquals(
                    RawClient.preview(RawClient.bytes(expected.substring(Math.max(0, i - 60)))),
                    RawClient.preview(RawClient.bytes(actual.substring(Math.max(0, i - 60)))),
                    "first difference at byte " + i + " of " + expected.length() + " in script "
                            + RawClient.preview(script));
        }
    }

    @Test
    void cachedHit_neverReachesTheBackend() throws Exception {
        MemcachedServer backend = servers.get(2);
        try (ProxyUnderTest proxy = ProxyUnderTest.withDeadlines(List.of(backend.address()), "");
                RawClient c = new RawClient(proxy.address)) {
            assertEquals("STORED\r\n", c.exchange("set hot 3 0 5\r\nvalue\r\n"));
            assertEquals("VALUE hot 3 5\r\nvalue\r\nEND\r\n", c.exchange("get hot\r\n")); // miss: fills
            long cmdGet = stat(backend, "cmd_get");
            long getHits = stat(backend, "get_hits");
            for (int i = 0; i < 100; i++) {
                assertEquals("VALUE hot 3 5\r\nvalue\r\nEND\r\n", c.exchange("get hot\r\n"));
                assertEquals("VA 5 f3\r\nvalue\r\n", c.exchange("mg hot v f L50ms\r\n"));
            }
            assertEquals(cmdGet, stat(backend, "cmd_get"), "backend cmd_get after 200 cached reads");
            assertEquals(getHits, stat(backend, "get_hits"), "backend get_hits after 200 cached reads");
            Map<String, String> st = proxy.stats();
            assertEquals("200", st.get("locus_tenant:default:hits"));
            assertEquals("1", st.get("locus_tenant:default:misses"));
            long met = Long.parseLong(st.get("locus_tenant:default:deadlines_met"));
            long missed = Long.parseLong(st.get("locus_tenant:default:deadlines_missed"));
            assertEquals(100, met + missed, "the 100 mg with L50ms are counted");
            assertTrue(met >= 95, "hits meet a 50 ms deadline (a stalled build machine may miss a few): " + met);
            assertEquals("1", st.get("locus_local_items"));
            System.out.println("cached hit: backend cmd_get stayed at " + cmdGet + " over 200 proxy reads; proxy stats "
                    + st.entrySet().stream()
                            .filter(e -> e.getKey().startsWith("locus_tenant"))
                            .toList());
        }
    }

    @Test
    void writesThroughTheProxy_invalidate_directWritesAreStaleUntilMaxTtl() throws Exception {
        MemcachedServer backend = servers.get(3);
        try (ProxyUnderTest proxy =
                        ProxyUnderTest.withDeadlines(List.of(backend.address()), "local:\n  max_ttl: 1s\n");
                RawClient c = new RawClient(proxy.address);
                RawClient direct = new RawClient(backend.address())) {
            String[][] writes = {
                {"set k 0 0 2\r\nv2\r\n", "v2"},
                {"append k 0 0 1\r\n3\r\n", "v23"},
                {"prepend k 0 0 1\r\n_\r\n", "_v23"},
                {"replace k 0 0 1\r\nr\r\n", "r"},
                {"ms k 2\r\nms\r\n", "ms"},
                {"set k 0 0 1\r\n5\r\nincr k 2\r\n", "7"},
                {"decr k 1\r\n", "6"},
                {"ma k\r\n", "7"},
                {"delete k\r\n", null},
                {"ms k 1\r\nx\r\n", "x"},
                {"md k\r\n", null},
                {"set k 0 0 1\r\ny\r\n", "y"},
                {"flush_all\r\n", null},
                {"add k 0 0 1\r\nz\r\n", "z"},
                {"touch k -1\r\n", null}
            };
            c.exchange("set k 0 0 2\r\nv1\r\n");
            for (String[] w : writes) {
                c.exchange("get k\r\n"); // cache the current value
                c.exchange(w[0]);
                String expected =
                        w[1] == null ? "END\r\n" : "VALUE k 0 " + w[1].length() + "\r\n" + w[1] + "\r\nEND\r\n";
                assertEquals(
                        expected, c.exchange("get k\r\n"), "get after " + RawClient.preview(RawClient.bytes(w[0])));
            }
            // A write straight to the backend: the proxy may serve its local copy until local.max_ttl (1 s) runs out.
            c.exchange("set d 0 0 3\r\nold\r\n");
            long cached = System.nanoTime();
            assertEquals("VALUE d 0 3\r\nold\r\nEND\r\n", c.exchange("get d\r\n"));
            direct.exchange("set d 0 0 3\r\nnew\r\n");
            String second = c.exchange("get d\r\n");
            // The stale copy is only promised while local.max_ttl lasts: a machine that stalled past it has a right
            // to the new value, so the stale one is required only when the second get came well within it.
            if (System.nanoTime() - cached < 800_000_000L) {
                assertEquals("VALUE d 0 3\r\nold\r\nEND\r\n", second, "stale within local.max_ttl");
            } else {
                assertTrue(second.matches("VALUE d 0 3\r\n(old|new)\r\nEND\r\n"), second);
            }
            Thread.sleep(1100); // a lower bound: past local.max_ttl however slow the machine
            assertEquals("VALUE d 0 3\r\nnew\r\nEND\r\n", c.exchange("get d\r\n"), "fresh after local.max_ttl");
        }
    }

    @Test
    void tenantOverQuota_isEvictedFirst_andPrometheusShowsIt() throws Exception {
        MemcachedServer backend = servers.get(4);
        int port = io.locus.fixture.Ports.freeLoopbackPort();
        String yaml =
                "io_threads: 1\nlocal:\n  capacity_bytes: 256k\nfairness:\n  enabled: true\n  hard_over_quota: true\n"
                        + "metrics:\n  prometheus_port: " + port + "\n"
                        + "tenants:\n  - {id: calm, prefixes: [\"calm:\"]}\n  - {id: greedy, prefixes: [\"greedy:\"]}\n";
        String value = "v".repeat(1000);
        try (ProxyUnderTest proxy = ProxyUnderTest.withDeadlines(List.of(backend.address()), yaml);
                RawClient c = new RawClient(proxy.address)) {
            // calm caches about 40 % of the capacity (its quota is half of it) ...
            for (int i = 0; i < 100; i++) {
                c.exchange("set calm:" + i + " 0 0 1000\r\n" + value + "\r\n");
                c.exchange("get calm:" + i + "\r\n"); // on its own: a fill overlapping a write is not kept
            }
            // ... then greedy reads ten times the capacity.
            for (int i = 0; i < 2500; i++) {
                c.exchange("set greedy:" + i + " 0 0 1000\r\n" + value + "\r\n");
                c.exchange("get greedy:" + i + "\r\n");
            }
            long backendGets = stat(backend, "cmd_get");
            for (int i = 0; i < 100; i++) {
                assertEquals(
                        "VALUE calm:" + i + " 0 1000\r\n" + value + "\r\nEND\r\n",
                        c.exchange("get calm:" + i + "\r\n"));
            }
            Map<String, String> st = proxy.stats();
            assertEquals(backendGets, stat(backend, "cmd_get"), "calm's items are all still cached: " + st);
            assertEquals("0", st.get("locus_local:calm:evictions"));
            long greedyEvictions = Long.parseLong(st.get("locus_local:greedy:evictions"));
            assertTrue(greedyEvictions > 2000, "greedy lost its own items: " + greedyEvictions);
            assertTrue(Long.parseLong(st.get("locus_local_bytes")) <= 256 * 1024, "bounded bytes: " + st);
            String metrics = HttpClient.newHttpClient()
                    .send(
                            HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + port + "/metrics"))
                                    .build(),
                            HttpResponse.BodyHandlers.ofString())
                    .body();
            assertTrue(metrics.contains("locus_memcached_tenant_hits_total{tenant=\"calm\"} 100.0\n"), metrics);
            assertTrue(
                    metrics.contains(
                            "locus_memcached_local_evictions_total{tenant=\"greedy\"} " + greedyEvictions + ".0\n"),
                    metrics);
            System.out.println("quota: calm evictions 0, greedy evictions " + greedyEvictions + ", local bytes "
                    + st.get("locus_local_bytes") + " of " + st.get("locus_local_capacity_bytes"));
        }
    }
}
