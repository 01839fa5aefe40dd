package io.locus.memcached.backend;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.locus.memcached.fixture.MemcachedConfig;
import io.locus.memcached.fixture.MemcachedServers;
import io.locus.memcached.testing.ProxyUnderTest;
import io.locus.memcached.testing.RawClient;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

/**
 * Ejection in the full proxy (deadline cache off, schedulers on) of a memcached frozen with SIGSTOP: its requests time
 * out, two timeouts eject it, its keys are then served by the ring of the live servers without an error, and once
 * resumed it takes its keys back after {@code backend.server_retry_timeout}. The pass-through's ejection of a killed
 * server, compared with a real nutcracker, is {@code NutcrackerFileIT}'s.
 */
class EjectionIT {
    private static final Path DIR = Path.of("target", "it", "ejection");

    @Test
    void frozenBackend_ejectedAfterTwoTimeouts_keysServedByTheLiveRing_thenBackAfterTheRetryTimeout() throws Exception {
        try (MemcachedServers servers = MemcachedServers.start(3, MemcachedConfig.DEFAULTS, DIR);
                ProxyUnderTest proxy = ProxyUnderTest.withDeadlines(
                        servers.addresses(),
                        "backend: {timeout: 200ms, auto_eject_hosts: true, server_failure_limit: 2,"
                                + " server_retry_timeout: 10s}\nlocal: {mode: \"off\"}\n");
                RawClient client = new RawClient(proxy.address)) {
            List<KetamaRing.Server> ring = new ArrayList<>();
            for (int i = 0; i < servers.size(); i++) {
                ring.add(new KetamaRing.Server("127.0.0.1", servers.get(i).port(), 1, null));
            }
            KetamaRing live = new KetamaRing(List.of(ring.get(0), ring.get(2)));
            List<String> onFrozen = new ArrayList<>();
            for (int i = 0; onFrozen.size() < 100; i++) {
                String k = "f:" + Integer.toHexString(i * 0x9E3779B1);
                if (proxy.server.ring().serverFor(k) == 1) {
                    onFrozen.add(k);
                }
            }
            signal("STOP", servers.get(1).pid());
            try {
                long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(60);
                int timeouts = 0;
                while (proxy.server.ring().ejects() == 0) {
                    assertTrue(System.nanoTime() < deadline, "no ejection within 60 s");
                    String reply = client.exchange("get " + onFrozen.get(0) + "\r\n");
                    timeouts += reply.equals("SERVER_ERROR backend timeout\r\n") ? 1 : 0;
                }
                assertEquals(2, timeouts, "one timed-out request per failure counted");
                for (String k : onFrozen) {
                    assertEquals("STORED\r\n", client.exchange("set " + k + " 0 0 1\r\nx\r\n"), k);
                }
                int[] onServer = new int[3];
                for (int s : new int[] {0, 2}) {
                    try (RawClient direct = new RawClient(servers.get(s).address())) {
                        for (String k : onFrozen) {
                            if (direct.exchange("get " + k + "\r\n").startsWith("VALUE ")) {
                                onServer[s]++;
                                assertEquals(s, live.serverFor(k) == 0 ? 0 : 2, k + " on the live ring's server");
                            }
                        }
                    }
                }
                assertEquals(onFrozen.size(), onServer[0] + onServer[2], "every key stored on a live server");
            } finally {
                signal("CONT", servers.get(1).pid());
            }
            long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(70);
            boolean back = false;
            String probe = onFrozen.get(1);
            while (!back && System.nanoTime() < deadline) {
                client.exchange("set " + probe + " 0 0 1\r\ny\r\n");
                try (RawClient direct = new RawClient(servers.get(1).address())) {
                    back = direct.exchange("get " + probe + "\r\n").startsWith("VALUE ");
                }
                if (!back) {
                    Thread.sleep(200);
                }
            }
            assertTrue(back, "the resumed server takes its keys back after the retry timeout");
            assertEquals("1", proxy.stats().get("server_ejects"));
        }
    }

    private static void signal(String name, long pid) throws Exception {
        Process p = new ProcessBuilder("kill", "-" + name, Long.toString(pid)).start();
        assertEquals(0, p.waitFor(), "kill -" + name + " " + pid);
    }
}
