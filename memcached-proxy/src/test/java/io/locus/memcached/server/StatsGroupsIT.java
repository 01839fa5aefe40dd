package io.locus.memcached.server;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.locus.memcached.fixture.MemcachedConfig;
import io.locus.memcached.fixture.MemcachedServers;
import io.locus.memcached.testing.ProxyUnderTest;
import io.locus.memcached.testing.RawClient;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * {@code stats tenants} and {@code stats deadline} against real memcached servers, and {@code mode: pass_through}
 * (no cache: every get reaches a backend; no deadline statistics); {@code stats lb}'s memory lines, polled from the
 * backends for Phase 3's memory check.
 */
class StatsGroupsIT {
    static final Path DIR = Path.of("target", "it", "stats-groups");
    static final String TENANTS = "tenants:\n"
            + "  - {id: shop, prefixes: [\"shop:\"], weight: 2, level: gold, default_deadline: 50ms}\n"
            + "  - {id: batch, prefixes: [\"an:\"], weight: 1, level: bronze}\n";

    @Test
    void fullProxy_groupsAgreeWithPlainStats() throws Exception {
        try (MemcachedServers servers = MemcachedServers.start(2, MemcachedConfig.DEFAULTS, DIR);
                ProxyUnderTest proxy = ProxyUnderTest.withDeadlines(servers.addresses(), TENANTS);
                RawClient client = new RawClient(proxy.address)) {
            client.exchange("set shop:1 0 0 2\r\nab\r\nset an:1 0 0 1\r\nz\r\n");
            for (int i = 0; i < 5; i++) {
                assertEquals("VALUE shop:1 0 2\r\nab\r\nEND\r\n", client.exchange("get shop:1\r\n"));
            }
            assertEquals("VA 1\r\nz\r\n", client.exchange("mg an:1 v\r\n"));
            assertEquals("END\r\n", client.exchange("get shop:missing\r\n"));

            Map<String, String> plain = proxy.stats();
            Map<String, String> tenants = group(client, "tenants");
            assertEquals("7", tenants.get("shop:requests"), tenants.toString()); // 1 set + 5 gets + 1 miss
            assertEquals(plain.get("locus_tenant:shop:requests"), tenants.get("shop:requests"));
            assertEquals("4", tenants.get("shop:hits"), tenants.toString()); // the first get fills, four hit
            assertEquals("2", tenants.get("shop:misses"), tenants.toString());
            // The six gets carry the tenant's 50 ms (the set is a best-effort write, not counted); on a loaded machine
            // a
            // cold first fill may miss it.
            assertEquals(
                    6,
                    Long.parseLong(tenants.get("shop:deadlines_met"))
                            + Long.parseLong(tenants.get("shop:deadlines_missed")),
                    tenants.toString());
            assertEquals("0", tenants.get("shop:rejected"), tenants.toString());
            assertEquals("2", tenants.get("batch:requests"), tenants.toString());
            assertEquals("0", tenants.get("batch:deadlines_met"), tenants.toString()); // best-effort: no deadline
            assertEquals(plain.get("locus_local:shop:bytes"), tenants.get("shop:local_bytes"));
            assertTrue(Long.parseLong(tenants.get("shop:local_bytes")) > 0, tenants.toString());
            assertTrue(
                    tenants.containsKey("shop:latency_p99_us") && tenants.containsKey("batch:local_quota_bytes"),
                    tenants.toString());

            Map<String, String> deadline = group(client, "deadline");
            assertEquals("9", deadline.get("requests"), deadline.toString());
            long met = Long.parseLong(deadline.get("deadlines_met"));
            assertEquals(tenants.get("shop:deadlines_met"), deadline.get("deadlines_met"), deadline.toString());
            assertEquals(6 - met, Long.parseLong(deadline.get("deadlines_missed")), deadline.toString());
            assertEquals(
                    String.format(java.util.Locale.ROOT, "%.1f", 100.0 * met / 6),
                    deadline.get("deadlines_met_percent"),
                    deadline.toString());
            assertEquals("3", deadline.get("misses"), deadline.toString());
            assertEquals(plain.get("locus_local_items"), deadline.get("local_items"));
            assertEquals(plain.get("locus_reissues"), deadline.get("reissues"));
            assertTrue(
                    deadline.containsKey("backend:0:kappa") && deadline.containsKey("backend:1:service_mean_us"),
                    deadline.toString());
            assertEquals("ERROR\r\n", client.exchange("stats nosuchgroup\r\n"));
        }
    }

    @Test
    void passThroughMode_forwardsEveryGet_andHasNoDeadlineStats() throws Exception {
        try (MemcachedServers servers = MemcachedServers.start(1, MemcachedConfig.DEFAULTS, DIR);
                ProxyUnderTest proxy =
                        ProxyUnderTest.withDeadlines(servers.addresses(), "mode: pass_through\n" + TENANTS);
                RawClient client = new RawClient(proxy.address)) {
            client.exchange("set shop:1 0 0 2\r\nab\r\n");
            long before = Long.parseLong(servers.get(0).stats().get("cmd_get"));
            for (int i = 0; i < 5; i++) {
                assertEquals("VALUE shop:1 0 2\r\nab\r\nEND\r\n", client.exchange("get shop:1\r\n"));
            }
            assertEquals(before + 5, Long.parseLong(servers.get(0).stats().get("cmd_get")), "no in-proxy cache");
            assertEquals("STAT mode pass_through\r\nEND\r\n", client.exchange("stats deadline\r\n"));
            assertEquals("END\r\n", client.exchange("stats tenants\r\n"));
            assertTrue(proxy.stats().keySet().stream().noneMatch(k -> k.startsWith("locus_tenant:")));
        }
    }

    @Test
    void statsLb_reportsEachBackendsMemory_asMemcachedCountsIt() throws Exception {
        MemcachedConfig small = new MemcachedConfig(16, 2, 1024 * 1024, java.util.List.of());
        try (MemcachedServers servers = MemcachedServers.start(2, small, DIR);
                ProxyUnderTest proxy = ProxyUnderTest.withDeadlines(
                        servers.addresses(), "lb:\n  enabled: true\n  memory_poll: 100ms\n");
                RawClient client = new RawClient(proxy.address)) {
            StringBuilder sets = new StringBuilder();
            for (int i = 0; i < 200; i++) {
                sets.append("set m:")
                        .append(i)
                        .append(" 0 0 1000 noreply\r\n")
                        .append("x".repeat(1000))
                        .append("\r\n");
            }
            client.exchange(sets.toString());
            long deadline = System.nanoTime() + 60_000_000_000L;
            Map<String, String> lb;
            do {
                Thread.sleep(200);
                lb = group(client, "lb");
            } while (System.nanoTime() < deadline && !memoryMatches(lb, servers));
            for (int b = 0; b < 2; b++) {
                assertEquals(
                        servers.get(b).stats().get("limit_maxbytes"), lb.get("lb:backend:" + b + ":limit_maxbytes"));
                assertEquals(servers.get(b).stats().get("bytes"), lb.get("lb:backend:" + b + ":bytes"), "backend " + b);
            }
            assertEquals(String.valueOf(16L << 20), lb.get("lb:backend:0:limit_maxbytes"));
            assertTrue(
                    Long.parseLong(lb.get("lb:backend:0:bytes")) + Long.parseLong(lb.get("lb:backend:1:bytes"))
                            >= 200_000,
                    "200 values of 1000 bytes are counted: " + lb);
        }
    }

    private static boolean memoryMatches(Map<String, String> lb, MemcachedServers servers) {
        for (int b = 0; b < 2; b++) {
            if (!servers.get(b).stats().get("bytes").equals(lb.get("lb:backend:" + b + ":bytes"))) {
                return false;
            }
        }
        return true;
    }

    private static Map<String, String> group(RawClient client, String name) throws Exception {
        client.send("stats " + name + "\r\n");
        String all = new String(client.readUntilEndsWith(RawClient.bytes("END\r\n")), StandardCharsets.ISO_8859_1);
        Map<String, String> m = new LinkedHashMap<>();
        for (String line : all.split("\r\n")) {
            String[] p = line.split(" ", 3);
            if (p.length == 3 && p[0].equals("STAT")) {
                m.put(p[1], p[2]);
            }
        }
        return m;
    }
}
