package io.locus.memcached.server;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.locus.memcached.fixture.MemcachedConfig;
import io.locus.memcached.fixture.MemcachedServers;
import io.locus.memcached.testing.RawClient;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * 10,000 idle client connections on the full proxy (the runnable jar, heap capped at 256 MB) keep its memory
 * bounded: the resident set grows by less than 16 KiB per connection, and the proxy still serves.
 */
class IdleConnectionsIT {
    static final Path DIR = Path.of("target", "it", "idle");
    static final int CONNECTIONS = 10_000;

    @Test
    void tenThousandIdleConnections_memoryStaysBounded() throws Exception {
        Files.createDirectories(DIR);
        try (MemcachedServers servers = MemcachedServers.start(1, MemcachedConfig.DEFAULTS, DIR);
                RunnableProxy proxy =
                        RunnableProxy.start("locus-proxy-idle", DIR, servers.addresses(), "", List.of("-Xmx256m"))) {
            InetSocketAddress address = proxy.address;
            try (RawClient c = new RawClient(address)) {
                for (int i = 0; i < 200; i++) { // warm up: JIT, pools, the cache path
                    c.exchange("set k" + i + " 0 0 3\r\nabc\r\nget k" + i + "\r\n");
                }
            }
            long before = proxy.rssKib();
            List<Socket> idle = new ArrayList<>(CONNECTIONS);
            try {
                for (int i = 0; i < CONNECTIONS; i++) {
                    Socket s = new Socket();
                    s.connect(address, 60_000);
                    idle.add(s);
                }
                String curr = null;
                // Bounded only against a proxy that never counts them all; a slow machine just takes longer.
                long end = System.nanoTime() + 120_000_000_000L;
                while (System.nanoTime() < end) {
                    try (RawClient c = new RawClient(address)) {
                        String stats = c.exchange("stats\r\n");
                        curr = stats.replaceAll("(?s).*STAT curr_connections ([0-9]+).*", "$1");
                        if (Long.parseLong(curr) >= CONNECTIONS + 1) {
                            assertEquals("VALUE k1 0 3\r\nabc\r\nEND\r\n", c.exchange("get k1\r\n"), "still serving");
                            break;
                        }
                    }
                    Thread.sleep(100);
                }
                long after = proxy.rssKib();
                double perConnection = (after - before) * 1024.0 / CONNECTIONS;
                System.out.printf(
                        "idle connections: %d open (curr_connections %s), proxy RSS %d KiB -> %d KiB,"
                                + " %.0f bytes per connection%n",
                        idle.size(), curr, before, after, perConnection);
                assertTrue(Long.parseLong(curr) >= CONNECTIONS + 1, "the proxy holds them all: " + curr);
                assertTrue(perConnection < 16 * 1024, "RSS per idle connection: " + perConnection + " bytes");
            } finally {
                for (Socket s : idle) {
                    s.close();
                }
            }
        }
    }
}
