package io.locus.memcached.backend;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.locus.memcached.fixture.MemcachedConfig;
import io.locus.memcached.fixture.MemcachedServers;
import io.locus.memcached.testing.ProxyUnderTest;
import io.locus.memcached.testing.RawClient;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * Proxy tests in four columns (client sends / backend receives / backend replies / client receives), with a raw
 * mock backend for faults, and real memcached servers killed and restarted.
 */
class FailureIT {
    static final Path DIR = Path.of("target", "it", "failure");

    /** A well-behaved memcached stand-in for a few commands. */
    static byte[] normal(String line) {
        if (line.startsWith("mg ")) {
            return bytes(line.contains(" q") ? "" : "VA 1 f0\r\nx\r\n"); // a quiet miss says nothing
        }
        if (line.startsWith("ms ")) {
            return bytes(line.contains(" q") ? "" : "HD\r\n");
        }
        if (line.startsWith("mn")) {
            return bytes("MN\r\n");
        }
        if (line.startsWith("get ")) {
            return bytes("VALUE " + line.split(" ")[1].trim() + " 0 1\r\ny\r\nEND\r\n");
        }
        return null; // a data block line
    }

    static byte[] bytes(String s) {
        return s.getBytes(StandardCharsets.ISO_8859_1);
    }

    @Test
    void hintTokens_areStrippedBeforeForwarding_andRepliesRelayedExactly() throws Exception {
        try (MockBackend mock = new MockBackend(FailureIT::normal);
                ProxyUnderTest proxy = new ProxyUnderTest(List.of(mock.address()), "");
                RawClient client = new RawClient(proxy.address)) {
            String[][] cases = {
                // client sends, backend receives, client receives (the backend replies as normal() says)
                {"mg k v Pshop L20ms f\r\n", "mg k v f\r\n", "VA 1 f0\r\nx\r\n"},
                {"mg k Pshop v q\r\n", "mg k v q\r\nmn\r\n", ""},
                {"ms k 1 Pshop L~ T0\r\nx\r\n", "ms k 1 T0\r\nx\r\n", "HD\r\n"},
                {"ms k 1 q L5ms\r\nx\r\n", "ms k 1 q\r\nx\r\nmn\r\n", ""},
                {"mg k v Pa Pb\r\n", "", "CLIENT_ERROR duplicate flag\r\n"},
                {"mg k v L0\r\n", "", "CLIENT_ERROR bad token in command line format\r\n"},
                {"get k\r\n", "get k\r\n", "VALUE k 0 1\r\ny\r\nEND\r\n"},
            };
            for (String[] c : cases) {
                mock.clearReceived();
                String got = client.exchange(c[0]);
                assertEquals(c[2], got, "client receives, for " + c[0].trim());
                assertEquals(c[1], mock.receivedAtLeast(c[1].length()), "backend receives, for " + c[0].trim());
            }
        }
    }

    @Test
    void handlerFactory_wrapsThePassThrough_andSeesTenantAndDeadline() throws Exception {
        List<String> seen = new java.util.concurrent.CopyOnWriteArrayList<>();
        RequestHandler.Factory factory = backends -> (request, reply) -> {
            seen.add(request.resolution().tenant() + " " + request.resolution().deadline());
            if ("local".equals(request.request().key())) {
                request.request().release();
                reply.completeLine("EN"); // answered without touching a backend, as a cache hit would be
            } else {
                backends.handle(request, reply);
            }
        };
        try (MockBackend mock = new MockBackend(FailureIT::normal);
                ProxyUnderTest proxy = new ProxyUnderTest(List.of(mock.address()), "", factory);
                RawClient client = new RawClient(proxy.address)) {
            assertEquals("EN\r\nVA 1 f0\r\nx\r\n", client.exchange("mg local v Pshop L20ms\r\nmg remote v\r\n"));
            assertEquals("mg remote v\r\n", mock.received(), "only the second request reached the backend");
            assertEquals(List.of("shop 20000us", "default ~1000000us"), seen);
        }
    }

    @Test
    void garbageFromBackend_givesServerError_thenTheNextRequestWorks() throws Exception {
        try (MockBackend mock = new MockBackend(line -> bytes("HELLO GARBAGE\r\nMORE\r\n"));
                ProxyUnderTest proxy = new ProxyUnderTest(List.of(mock.address()), "");
                RawClient client = new RawClient(proxy.address)) {
            // LINE replies accept any line, so use a retrieval, whose reply must be VALUE ... or END.
            mock.responder(line -> line.startsWith("get") ? bytes("VALUE k 0 999999999\r\n") : null);
            assertEquals("SERVER_ERROR backend unavailable\r\n", client.exchange("get k\r\n"));
            mock.responder(FailureIT::normal);
            assertEquals(
                    "VALUE k 0 1\r\ny\r\nEND\r\n", client.exchange("get k\r\n"), "sanity round trip after the fault");
        }
    }

    @Test
    void stalledBackend_givesTimeout_thenTheNextRequestWorks() throws Exception {
        try (MockBackend mock = new MockBackend(line -> MockBackend.STALL);
                ProxyUnderTest proxy = new ProxyUnderTest(List.of(mock.address()), "backend: {timeout: 2s}\n");
                RawClient client = new RawClient(proxy.address)) {
            // Only a lower bound: the configured 2 s (not the 1 s default) must pass before the proxy gives up, which
            // holds on a machine of any speed. The client waits as long as it takes.
            client.readTimeout(120_000);
            long start = System.nanoTime();
            assertEquals(
                    "SERVER_ERROR backend timeout\r\nSERVER_ERROR backend timeout\r\n",
                    client.exchange("get k\r\nmg k v\r\n"));
            long millis = (System.nanoTime() - start) / 1_000_000;
            assertTrue(millis >= 1990, "timed out after " + millis + " ms (expected: not before the configured 2 s)");
            client.readTimeout(5000);
            mock.responder(FailureIT::normal);
            assertEquals(
                    "VALUE k 0 1\r\ny\r\nEND\r\n", client.exchange("get k\r\n"), "sanity round trip after the stall");
        }
    }

    @Test
    void backendClosingMidRequest_givesServerError() throws Exception {
        try (MockBackend mock = new MockBackend(line -> MockBackend.CLOSE);
                ProxyUnderTest proxy = new ProxyUnderTest(List.of(mock.address()), "");
                RawClient client = new RawClient(proxy.address)) {
            assertEquals("SERVER_ERROR backend unavailable\r\n", client.exchange("get k\r\n"));
            mock.responder(FailureIT::normal);
            assertEquals("VALUE k 0 1\r\ny\r\nEND\r\n", client.exchange("get k\r\n"));
        }
    }

    @Test
    void realBackendKilled_givesServerError_othersServe_andTheProxyRecoversWhenItReturns() throws Exception {
        try (MemcachedServers servers = MemcachedServers.start(2, MemcachedConfig.DEFAULTS, DIR);
                ProxyUnderTest proxy = new ProxyUnderTest(servers.addresses(), "backend: {retry_interval: 200ms}\n");
                RawClient client = new RawClient(proxy.address)) {
            String onDead = null;
            String onLive = null;
            for (int i = 0; onDead == null || onLive == null; i++) {
                String k = Integer.toHexString(i * 0x9E3779B1) + ":k";
                if (proxy.server.ring().serverFor(k) == 0) {
                    onDead = onDead == null ? k : onDead;
                } else {
                    onLive = onLive == null ? k : onLive;
                }
            }
            assertEquals(
                    "STORED\r\nSTORED\r\n",
                    client.exchange("set " + onDead + " 0 0 1\r\na\r\nset " + onLive + " 0 0 1\r\nb\r\n"));
            servers.get(0).kill();
            String reply = client.exchange("get " + onDead + "\r\n");
            assertEquals("SERVER_ERROR backend unavailable\r\n", reply);
            assertEquals("SERVER_ERROR backend unavailable\r\n", client.exchange("set " + onDead + " 0 0 1\r\na\r\n"));
            assertEquals("VALUE " + onLive + " 0 1\r\nb\r\nEND\r\n", client.exchange("get " + onLive + "\r\n"));
            // A multi-get spanning both backends answers the error for the dead one's keys, never a silent miss.
            assertEquals(
                    "SERVER_ERROR backend unavailable\r\n", client.exchange("get " + onDead + " " + onLive + "\r\n"));
            servers.get(0).restart();
            long deadline = System.nanoTime() + 60_000_000_000L;
            String after;
            do {
                Thread.sleep(100);
                after = client.exchange("set " + onDead + " 0 0 1\r\nc\r\n");
            } while (!after.equals("STORED\r\n") && System.nanoTime() < deadline);
            assertEquals("STORED\r\n", after, "proxy recovers when the backend returns");
            assertEquals("VALUE " + onDead + " 0 1\r\nc\r\nEND\r\n", client.exchange("get " + onDead + "\r\n"));
        }
    }
}
