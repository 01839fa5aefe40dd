package io.locus.memcached.deadline;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.locus.memcached.fixture.MemcachedConfig;
import io.locus.memcached.fixture.MemcachedServers;
import io.locus.memcached.testing.ProxyUnderTest;
import io.locus.memcached.testing.RawClient;
import io.locus.memcached.testing.SlowRelay;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * A refused meta read is re-issued in the background (its reply dropped); that re-issue must not count as its client
 * connection's queued request. If it did, the connection's next read would inherit the deadline of the connection's
 * last write (the write's nominal best-effort deadline) and wait behind every read due earlier than that, though
 * nothing of its own connection is ahead of it. Real memcached behind a {@link SlowRelay} (one request at a time, 50 ms
 * each) and a window of one, so requests queue in the proxy; the order in which requests reach memcached is the
 * scheduler's.
 */
class ReissueOrderIT {
    private static final Path DIR = Path.of("target", "reissue-order-it");

    @Test
    void readAfterARefusal_keepsItsOwnDeadline_whileTheReissueIsQueued() throws Exception {
        String yaml = "io_threads: 1\nbackend:\n  conns: 1\nlocal:\n  mode: \"off\"\nsched:\n  window: 1\n"
                + "be:\n  nominal_deadline: 10s\n";
        try (MemcachedServers servers = MemcachedServers.start(1, MemcachedConfig.DEFAULTS, DIR);
                SlowRelay relay = new SlowRelay(servers.get(0).address(), 50_000_000);
                ProxyUnderTest proxy = ProxyUnderTest.withDeadlines(List.of(relay.address()), yaml);
                RawClient a = new RawClient(proxy.address);
                RawClient b = new RawClient(proxy.address)) {
            try (RawClient direct = new RawClient(servers.get(0).address())) {
                direct.exchange("set b1 0 0 1\r\nx\r\nset b2 0 0 1\r\nx\r\nset b3 0 0 1\r\nx\r\n"
                        + "set a2 0 0 1\r\nx\r\nset a3 0 0 1\r\nx\r\n");
            }
            // A's write: its best-effort deadline (10 s) is the floor A's later reads get while A has a queued request.
            assertEquals("STORED\r\n", a.exchange("set a1 0 0 1\r\nx\r\n"));
            b.send("mg b1 v L5s\r\nmg b2 v L5s\r\nmg b3 v L5s\r\nmn\r\n"); // b1 in flight, b2 and b3 queued
            Map<String, String> queued = waitForQueue(proxy, 2);
            assertEquals("2", queued.get("backend:0:queue"), queued.toString());
            String refused = a.exchange("mg a2 v L1ms\r\n");
            assertTrue(!refused.startsWith("VA"), "a 1 ms read behind a 50 ms backend is refused: " + refused);
            assertEquals("1", proxy.stats().get("locus_reissues"), "the refusal was re-issued in the background");
            String a3 = a.exchange("mg a3 v L2s\r\n");
            assertEquals("VA 1\r\nx\r\n", a3);
            String bReplies = new String(b.readUntilEndsWith(RawClient.bytes("MN\r\n")), StandardCharsets.ISO_8859_1);
            assertEquals(3, bReplies.split("VA 1", -1).length - 1, bReplies);
            String upstream = new String(relay.upstream(), StandardCharsets.ISO_8859_1);
            int a3At = upstream.indexOf("mg a3 ");
            int b2At = upstream.indexOf("mg b2 ");
            assertTrue(a3At >= 0 && b2At >= 0, upstream);
            assertTrue(
                    a3At < b2At,
                    "a3 (due in 2 s) reaches memcached before b2 (due in 5 s), not behind it with A's write's 10 s: "
                            + upstream);
        }
    }

    private static Map<String, String> waitForQueue(ProxyUnderTest proxy, int depth) throws Exception {
        Map<String, String> s = Map.of();
        for (int i = 0; i < 200; i++) {
            s = ProxyUnderTest.stats(proxy.address, "deadline");
            if (String.valueOf(depth).equals(s.get("backend:0:queue"))) {
                return s;
            }
            Thread.sleep(5);
        }
        return s;
    }
}
