package io.locus.memcached.server;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.locus.memcached.deadline.DeadlineCacheIT;
import io.locus.memcached.fixture.MemcachedConfig;
import io.locus.memcached.fixture.MemcachedServers;
import io.locus.memcached.testing.ProxyUnderTest;
import io.locus.memcached.testing.RawClient;
import java.io.ByteArrayOutputStream;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.List;
import java.util.Random;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * The same command stream sent to a memcached server directly and through the proxy gets the same bytes back.
 *
 * <p>Four columns, as memcached's t/proxyunits.t: the client sends a script; the backend receives it (with hint
 * tokens removed); the backend replies; the client receives byte-identical replies. Servers start empty, so cas
 * values (a per-server counter) match too when the proxy has a single backend.
 */
public class TransparencyIT {
    static MemcachedServers servers;
    static final Path DIR = Path.of("target", "it", "transparency");

    @BeforeAll
    static void start() {
        // 0: direct reference for the single-backend proxy, 1: its backend, 2: direct reference for the pool, 3..5:
        // pool.
        servers = MemcachedServers.start(6, MemcachedConfig.DEFAULTS, DIR);
    }

    @AfterAll
    static void stop() {
        servers.close();
    }

    /**
     * Scripts contain their own {@code mn}, so reading until the first {@code MN} could stop early on one side only;
     * {@link DeadlineCacheIT#run} ends each script with a miss on a unique key instead.
     */
    private static byte[] run(InetSocketAddress address, byte[] script) throws Exception {
        return DeadlineCacheIT.run(address, script);
    }

    private static void assertSameBytes(InetSocketAddress direct, InetSocketAddress proxy, byte[] script)
            throws Exception {
        String expected = new String(run(direct, script), StandardCharsets.ISO_8859_1);
        String actual = new String(run(proxy, script), StandardCharsets.ISO_8859_1);
        if (!expected.equals(actual)) {
            int i = 0;
            while (i < Math.min(expected.length(), actual.length()) && expected.charAt(i) == actual.charAt(i)) {
                i++;
            }
            assertEquals(
                    RawClient.preview(RawClient.bytes(expected.substring(Math.max(0, i - 80)))),
                    RawClient.preview(RawClient.bytes(actual.substring(Math.max(0, i - 80)))),
                    "first difference at byte " + i + " of " + expected.length());
        }
    }

    /** Scripts, each sent on a fresh connection (memcached's noreply state can leak into later error replies). */
    public static List<byte[]> scripts() {
        ByteArrayOutputStream s = new ByteArrayOutputStream();
        java.util.ArrayList<byte[]> scripts = new java.util.ArrayList<>();
        byte[] big = new byte[1_000_000];
        new Random(7).nextBytes(big);
        byte[] binary = new byte[256];
        for (int i = 0; i < binary.length; i++) {
            binary[i] = (byte) i;
        }
        String[] lines = {
            "set a 1 0 3\r\nabc\r\n",
            "get a\r\n",
            "gets a\r\n",
            "cas a 0 0 1 999\r\nx\r\n",
            "gets a\r\n",
            "cas a 5 0 2 2\r\nxy\r\n",
            "cas a 5 0 2 2\r\nzz\r\n",
            "cas nokey 0 0 1 1\r\nx\r\n",
            "get a\r\n",
            "add a 0 0 1\r\nq\r\n",
            "add b 0 0 1\r\nq\r\n",
            "replace c 0 0 1\r\nq\r\n",
            "replace b 3 0 2\r\nqq\r\n",
            "append b 0 0 3\r\n123\r\n",
            "prepend b 0 0 3\r\n000\r\n",
            "append nokey 0 0 1\r\nx\r\n",
            "get b\r\n",
            "incr n 1\r\n",
            "set n 0 0 2\r\n10\r\n",
            "incr n 5\r\n",
            "decr n 100\r\n",
            "incr n abc\r\n",
            "incr b 1\r\n",
            "incr n 18446744073709551615\r\n",
            "touch a 100\r\n",
            "touch nokey 100\r\n",
            "gat 100 a b nokey\r\n",
            "gats 0 a\r\n",
            "delete b\r\n",
            "delete b\r\n",
            "delete a 0\r\n",
            "delete a 5\r\n",
            "set q 0 0 1 noreply\r\nq\r\n",
            "get q\r\n",
            "delete q noreply\r\n",
            "incr q 1 noreply\r\n",
            "get q\r\n",
            "--",
            // errors the proxy answers itself, with memcached's words
            // memcached 1.6.18 drops the replies to earlier pipelined commands when a get has a too-long key: alone.
            "get " + "k".repeat(251) + "\r\n",
            "--",
            "mg " + "k".repeat(251) + " v\r\n",
            "--",
            "foo\r\n",
            "\r\n",
            "get\r\n",
            "set k 0 0 x\r\n",
            "set " + "k".repeat(251) + " 0 0 1\r\na\r\n",
            "set k 0 0 1\r\nab\r\n",
            "set k 0 0 1 noreply\r\nabc\r\n",
            "set k 0 0 2000000\r\n" + "x".repeat(2_000_000) + "\r\n",
            "incr k\r\n",
            "touch k\r\n",
            "verbosity 1\r\n",
            "verbosity\r\n",
            "cas k 0 0 1\r\na\r\n",
            "--",
            // meta protocol
            "ms m 3 T0 F7\r\nabc\r\n",
            "mg m v f\r\n",
            "mg m s v k O123\r\n",
            "mg missing v\r\n",
            "mg missing v q\r\n",
            "mg m v q k\r\n",
            "ms m 2 I\r\nxy\r\n",
            "ms m 2 MA\r\nzz\r\n",
            "mg m v\r\n",
            "md m q\r\n",
            "md m q\r\n",
            "md m\r\n",
            "ma cnt N0 J13 v\r\n",
            "ma cnt v\r\n",
            "ma cnt MD D5 v\r\n",
            "ma missing q\r\n",
            "mg m Zbad\r\n",
            "mn\r\n",
            "ms k\r\n",
            "ms k S1\r\na\r\n",
            "ms k 2 T0\r\nabc\r\n",
            "ms k 1 Z\r\na\r\n",
            "me cnt\r\n",
            "mg m v Pshop L20ms\r\n",
        };
        for (String l : lines) {
            if (l.equals("--")) {
                scripts.add(s.toByteArray());
                s.reset();
            } else {
                s.writeBytes(RawClient.bytes(l));
            }
        }
        scripts.add(s.toByteArray());
        s.reset();
        s.writeBytes(RawClient.bytes("set big 0 0 " + big.length + "\r\n"));
        s.writeBytes(big);
        s.writeBytes(RawClient.bytes("\r\nget big\r\nset bin 0 0 256\r\n"));
        s.writeBytes(binary);
        s.writeBytes(RawClient.bytes("\r\nget bin big bin\r\nmg bin v\r\n"));
        scripts.add(s.toByteArray());
        return scripts;
    }

    @Test
    void singleBackend_everyClassicAndMetaCommand_sameBytesAsDirect() throws Exception {
        try (ProxyUnderTest proxy = new ProxyUnderTest(List.of(servers.get(1).address()), "")) {
            for (byte[] script : scripts()) {
                assertSameBytes(servers.get(0).address(), proxy.address, script);
            }
        }
    }

    /** Keys that differ in their first bytes: fnv1a_64 spreads short keys that differ only at the end poorly. */
    static String poolKey(int i) {
        return Integer.toHexString(i * 0x9E3779B1) + ":item" + i;
    }

    @Test
    void pool_pipelinedMultiGetsAcrossBackends_sameBytesAsOneServer() throws Exception {
        try (ProxyUnderTest proxy = new ProxyUnderTest(
                List.of(
                        servers.get(3).address(),
                        servers.get(4).address(),
                        servers.get(5).address()),
                "")) {
            ByteArrayOutputStream s = new ByteArrayOutputStream();
            Random rnd = new Random(11);
            for (int i = 0; i < 200; i++) {
                int len = rnd.nextInt(3000);
                s.writeBytes(RawClient.bytes(
                        "set " + poolKey(i) + " " + i + " 0 " + len + (i % 7 == 0 ? " noreply" : "") + "\r\n"));
                byte[] v = new byte[len];
                rnd.nextBytes(v);
                s.writeBytes(v);
                s.writeBytes(RawClient.bytes("\r\n"));
            }
            for (int i = 0; i < 100; i++) {
                StringBuilder get = new StringBuilder(i % 2 == 0 ? "get" : "gat 0");
                for (int k = 0; k < 1 + rnd.nextInt(60); k++) {
                    get.append(' ').append(poolKey(rnd.nextInt(260))); // some misses, some repeats
                }
                s.writeBytes(RawClient.bytes(get.append("\r\n").toString()));
            }
            byte[] script = s.toByteArray();
            assertSameBytes(servers.get(2).address(), proxy.address, script);
            // The keys really are spread: every backend holds some.
            long[] items = new long[3];
            for (int b = 0; b < 3; b++) {
                items[b] = Long.parseLong(servers.get(3 + b).stats().get("curr_items"));
            }
            int[] byRing = new int[3];
            for (int i = 0; i < 200; i++) {
                byRing[proxy.server.ring().serverFor(poolKey(i))]++;
            }
            System.out.println("pool multi-get: items per backend " + java.util.Arrays.toString(items) + ", by ring "
                    + java.util.Arrays.toString(byRing));
            for (int b = 0; b < 3; b++) {
                assertEquals(byRing[b], items[b], "items on backend " + b);
                assertTrue(items[b] > 20, "backend " + b + " holds a share of the keys");
            }
        }
    }
}
