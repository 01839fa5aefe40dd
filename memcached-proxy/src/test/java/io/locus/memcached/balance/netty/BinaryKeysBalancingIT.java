package io.locus.memcached.balance.netty;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.locus.memcached.deadline.DeadlineCacheIT;
import io.locus.memcached.fixture.MemcachedConfig;
import io.locus.memcached.fixture.MemcachedServers;
import io.locus.memcached.testing.ProxyUnderTest;
import io.locus.memcached.testing.RawClient;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.Base64;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * Balancing mode (MBal's Phase 1) with a key whose bytes are 0x80..0xff: read until the balancer replicates it, its
 * reads are then served by its shadow copy, and a write through the proxy reaches the shadow; every reply is byte for
 * byte what a memcached holding the same items answers, and the shadow holds the copy under the reserved prefix
 * followed by the client's exact key bytes, which clients cannot read.
 */
class BinaryKeysBalancingIT {
    private static final String HOT = "hot:\u00e9\u00ff\u0080\u00a0\u00c3";
    private static final String OTHER = "\u00fe\u0081cold";
    private static final Path DIR = Path.of("target", "it", "binary-keys-balancing");
    /** Short epochs and a small capacity, so a key read in a loop is hot within seconds; sampled on every request. */
    private static final String LB = "backend:\n  timeout: 10s\nlb:\n  enabled: true\n  epoch: 250ms\n  capacity: 500\n"
            + "  replicas_max: 2\n  lease_p1: 40\n  sample_rate: 1\n  phases: p1\n";

    @Test
    void hotBinaryKey_replicatedAndReadAtItsShadow_sameBytesAsDirect() throws Exception {
        // 0: direct reference, 1-2: the proxy's backends.
        try (MemcachedServers servers = MemcachedServers.start(3, MemcachedConfig.DEFAULTS, DIR);
                ProxyUnderTest proxy = new ProxyUnderTest(
                        List.of(servers.get(1).address(), servers.get(2).address()), LB)) {
            String load = "set " + HOT + " 7 0 5\r\nhello\r\n" + "set " + OTHER + " 0 0 1\r\nx\r\n";
            assertSame(servers, proxy, load);
            try (RawClient c = new RawClient(proxy.address)) {
                long deadline = System.nanoTime() + BalanceIT.AWAIT_NANOS;
                String burst = ("get " + HOT + "\r\n").repeat(200);
                while (!replicatedAndRead(proxy) && System.nanoTime() < deadline) {
                    c.exchange(burst);
                }
            }
            Map<String, String> before = ProxyUnderTest.stats(proxy.address, "lb");
            assertTrue(Long.parseLong(before.get("lb:copies")) > 0, "the hot key was copied to a shadow: " + before);
            String reads = ("get " + HOT + "\r\n" + "mg " + HOT + " v f s\r\n").repeat(50)
                    + "get " + HOT + " " + OTHER + "\r\n" + "mg " + HOT + " v f t k O123 q\r\n" + "mg " + HOT
                    + " k v\r\n"
                    + "mg " + base64(HOT) + " b v f k\r\n";
            assertSame(servers, proxy, reads);
            Map<String, String> after = ProxyUnderTest.stats(proxy.address, "lb");
            assertTrue(
                    Long.parseLong(after.get("lb:shadow_reads")) > Long.parseLong(before.get("lb:shadow_reads")),
                    "reads of the replicated key were served by its shadow: " + before + " then " + after);
            assertSame(servers, proxy, "set " + HOT + " 9 0 3\r\nnew\r\n" + reads);
            String shadowKey = base64("__dlp:r:" + HOT); // the reserved prefix, then the client's key bytes
            String held = "";
            long deadline = System.nanoTime() + BalanceIT.AWAIT_NANOS; // the shadow update may land after the reply
            while (!held.contains("VA 3 f9\r\nnew\r\n") && System.nanoTime() < deadline) {
                held = "";
                for (int b = 1; b <= 2; b++) {
                    try (RawClient c = new RawClient(servers.get(b).address())) {
                        held += c.exchange("mg " + shadowKey + " b v f\r\n");
                    }
                }
            }
            assertTrue(held.contains("VA 3 f9\r\nnew\r\n"), "the shadow holds the written value: " + held);
            try (RawClient c = new RawClient(proxy.address)) {
                assertEquals(
                        "CLIENT_ERROR reserved key prefix\r\n".repeat(2),
                        c.exchange("get __dlp:r:" + HOT + "\r\nmg " + base64("__dlp:\u00ff") + " b v\r\n"),
                        "the proxy's own keys, also base64, are not the clients'");
            }
        }
    }

    private static boolean replicatedAndRead(ProxyUnderTest proxy) throws Exception {
        Map<String, String> lb = ProxyUnderTest.stats(proxy.address, "lb");
        return Long.parseLong(lb.get("lb:copies")) > 0 && Long.parseLong(lb.get("lb:shadow_reads")) > 0;
    }

    private static void assertSame(MemcachedServers servers, ProxyUnderTest proxy, String script) throws Exception {
        DeadlineCacheIT.assertSameReplies(servers.get(0).address(), proxy.address, script);
    }

    private static String base64(String key) {
        return Base64.getEncoder().encodeToString(key.getBytes(StandardCharsets.ISO_8859_1));
    }
}
