package io.locus.memcached.server;

import static org.junit.jupiter.api.Assertions.assertTrue;

import io.locus.memcached.deadline.DeadlineCacheIT;
import io.locus.memcached.fixture.MemcachedConfig;
import io.locus.memcached.fixture.MemcachedServers;
import io.locus.memcached.testing.ProxyUnderTest;
import io.locus.memcached.testing.RawClient;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * Keys whose bytes are not ASCII (0x80..0xff, no space or control byte, so memcached takes them as they are) travel
 * as the client's bytes: through {@code mg} hits and misses with {@code k}, multi-gets ({@code get}, {@code gat}) over
 * two backends, the cache's fills and the hint-token removal of {@code mg} and {@code ms}, meta commands with flags
 * ({@code mg key v f t k O123 q}, {@code ms} with {@code F T I q k O}, {@code ma}), base64 keys ({@code b}), and meta
 * flags memcached refuses (unknown, repeated, overlong, bad numbers, too many). The proxy answers byte for byte what
 * memcached answers, in pass-through and in full mode, and the backends hold the items under the client's exact key.
 */
class BinaryKeysIT {
    private static final String K1 = "bin:\u00e9\u00ff\u0080\u00a0x";
    private static final String K2 = "\u00c3\u00a9\u00fe\u0081";
    private static final String K3 = "\u00ff\u00fe:ms";
    private static final String ABSENT = "nokey\u00e9\u0099";
    /** A key written and read only with base64 ({@code b}), holding a space and a control byte besides 0x80..0xff. */
    private static final String B64 = base64("bin \u0001\u00ff\u0080key");

    private static final Path DIR = Path.of("target", "it", "binary-keys");

    private static MemcachedServers servers;

    @BeforeAll
    static void start() {
        // 0: direct reference, 1-2: pass-through's backends, 3-4: the full proxy's.
        servers = MemcachedServers.start(5, MemcachedConfig.DEFAULTS, DIR);
    }

    @AfterAll
    static void stop() {
        servers.close();
    }

    /** Reads of the keys {@link #writes} stores: classic single and multi-gets, {@code mg} hits and misses. */
    private static String reads() {
        String multi = "get " + K1 + " " + ABSENT + " " + K2 + " " + K1 + "\r\n";
        return "get " + K1 + "\r\n" + "get " + K1 + "\r\n" + multi + multi
                + "mg " + K1 + " v f k s Oxy\r\n" + "mg " + ABSENT + " v k Oab\r\n" + "mg " + K2 + " k f\r\n"
                + "mg " + K2 + " s v k Pshop L~20ms\r\n" + "mg " + ABSENT + " q k v\r\n"
                + "mg " + K1 + " v f t k O123 q\r\n" + "mg " + ABSENT + " v f t k O123 q\r\n"
                + "mg " + K1 + " k O" + "9".repeat(31) + " s\r\n" + "mg " + B64 + " b v f k O7\r\n"
                + "mg " + base64(K1) + " b k v\r\n" + "mg " + base64(ABSENT) + " b k Oz\r\n" + hostileFlags();
    }

    /** Flags memcached refuses, each with its own error; the full proxy's cache answers these itself. */
    private static String hostileFlags() {
        return "mg " + K1 + " v x\r\n" + "mg " + K1 + " v O" + "9".repeat(32) + "\r\n" + "mg " + K1 + " v Tab\r\n"
                + "mg " + K1 + " v T\r\n" + "mg " + K1 + " v v\r\n" + "mg " + K1 + " k \u00e9\r\n"
                + "mg " + K1 + " v F Jx q\r\n" + "mg " + K1 + " v f t k s c h l u q O1 T1 N1 R1 I C1 J1 D1\r\n"
                + "md " + K2 + " Z q\r\n" + "ma " + K2 + " Dx\r\n" + "ms " + K2 + " 2 Fx\r\nzz\r\n";
    }

    private static String base64(String key) {
        return java.util.Base64.getEncoder().encodeToString(key.getBytes(StandardCharsets.ISO_8859_1));
    }

    private static String writes() {
        return "set " + K1 + " 0 0 5\r\nhello\r\n" + "set " + K2 + " 4294967295 0 3\r\nabc\r\n"
                + "ms " + K3 + " 2 T60 Pshop\r\nzz\r\n" + "mg " + K3 + " v k\r\n" + "get " + K3 + " " + K1 + "\r\n"
                + "md " + K3 + " q\r\n" + "mn\r\n" + "gat 0 " + K1 + " " + ABSENT + " " + K2 + "\r\n"
                + "ms " + B64 + " 3 b F5 T0 k O1 Pshop\r\nxyz\r\n" + "ms " + K3 + " 4 F9 T0 I q k Oq\r\nmeta\r\n"
                + "mg " + K3 + " s v f k t\r\n" + "ma " + K3 + " N0 J5 v k\r\n";
    }

    @Test
    void passThrough_sameBytesAsDirect_itemsUnderTheClientsKeys() throws Exception {
        try (ProxyUnderTest proxy = new ProxyUnderTest(
                List.of(servers.get(1).address(), servers.get(2).address()), "")) {
            check(proxy, 1);
        }
    }

    @Test
    void fullMode_sameBytesAsDirect_hitsAndFillsKeepTheKeysBytes() throws Exception {
        try (ProxyUnderTest proxy = ProxyUnderTest.withDeadlines(
                List.of(servers.get(3).address(), servers.get(4).address()), "")) {
            check(proxy, 3);
            long hits = Long.parseLong(proxy.stats().get("locus_tenant:default:hits"));
            long misses = Long.parseLong(proxy.stats().get("locus_tenant:default:misses"));
            assertTrue(hits > 0, "repeated reads of the binary keys hit the in-proxy cache: " + hits);
            assertTrue(misses > 0, "first reads were filled from the backends: " + misses);
        }
    }

    /**
     * The writes with reads behind them, then reads alone (fills that overlap a write are not kept, so the cache's
     * hits come from the batches without writes), through the proxy and directly; then each key read straight from
     * the proxy's backends.
     */
    private static void check(ProxyUnderTest proxy, int firstBackend) throws Exception {
        for (String s : List.of(writes() + reads(), reads(), reads())) {
            DeadlineCacheIT.assertSameReplies(servers.get(0).address(), proxy.address, s);
        }
        String held = "";
        for (int b = firstBackend; b < firstBackend + 2; b++) {
            try (RawClient c = new RawClient(servers.get(b).address())) {
                held += c.exchange("get " + K1 + " " + K2 + "\r\n");
            }
        }
        assertTrue(held.contains("VALUE " + K1 + " 0 5\r\nhello\r\n"), RawClient.preview(RawClient.bytes(held)));
        assertTrue(held.contains("VALUE " + K2 + " 4294967295 3\r\nabc\r\n"), RawClient.preview(RawClient.bytes(held)));
    }
}
