package io.locus.memcached.deadline;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.locus.memcached.fixture.MemcachedConfig;
import io.locus.memcached.fixture.MemcachedServers;
import io.locus.memcached.testing.ProxyUnderTest;
import io.locus.memcached.testing.RawClient;
import io.locus.memcached.testing.SlowRelay;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * Single-flight fills (DEADLINES.md, "In the proxy") against a real memcached slowed to 2 ms per request, so a fill is
 * still on its way when the next misses of the same key arrive: they wait for it instead of sending their own,
 * memcached's own {@code cmd_get} counts one read, and a read after the connection's own write through the proxy never
 * waits for a fill that started before the write.
 */
class SingleFlightIT {
    static MemcachedServers servers;
    static final Path DIR = Path.of("target", "it", "single-flight");
    static final String YAML = "io_threads: 1\nbackend:\n  conns: 1\n";

    @BeforeAll
    static void start() {
        servers = MemcachedServers.start(1, MemcachedConfig.DEFAULTS, DIR);
    }

    @AfterAll
    static void stop() {
        servers.close();
    }

    private static long cmdGet() {
        return Long.parseLong(servers.get(0).stats().get("cmd_get"));
    }

    @Test
    void pipelinedMissesOfOneKey_oneBackendRead() throws Exception {
        try (RawClient direct = new RawClient(servers.get(0).address())) {
            direct.exchange("set hot 7 0 5\r\nhello\r\n");
        }
        try (SlowRelay relay = new SlowRelay(servers.get(0).address(), 2_000_000);
                ProxyUnderTest proxy = ProxyUnderTest.withDeadlines(List.of(relay.address()), YAML);
                RawClient c = new RawClient(proxy.address)) {
            long before = cmdGet();
            String reads = "mg hot v f\r\n".repeat(20) + "get hot\r\n".repeat(5);
            String got = c.exchange(reads);
            assertEquals("VA 5 f7\r\nhello\r\n".repeat(20) + "VALUE hot 7 5\r\nhello\r\nEND\r\n".repeat(5), got);
            long backendReads = cmdGet() - before;
            Map<String, String> stats = proxy.stats();
            System.out.println("single-flight: 25 pipelined misses of one key -> " + backendReads
                    + " memcached get(s), fills_coalesced " + stats.get("locus_fills_coalesced") + ", local hits "
                    + stats.get("locus_tenant:default:hits"));
            assertEquals(1, backendReads, "one fill for the whole pipeline");
            // The misses in flight with the fill wait for it; those the client handler dispatches after it (it holds a
            // pipeline's later requests back until it knows the reply sizes) hit the value it stored.
            long coalesced = Long.parseLong(stats.get("locus_fills_coalesced"));
            long hits = Long.parseLong(stats.get("locus_tenant:default:hits"));
            assertTrue(coalesced >= 10, "misses waited for the fill: " + coalesced);
            assertEquals(24, coalesced + hits, "every other read waited for the one fill or hit what it stored");
        }
    }

    @Test
    void readAfterOwnWrite_doesNotWaitForAnOlderFill() throws Exception {
        try (RawClient direct = new RawClient(servers.get(0).address())) {
            direct.exchange("set ryw 0 0 3\r\nold\r\n");
        }
        try (SlowRelay relay = new SlowRelay(servers.get(0).address(), 2_000_000);
                ProxyUnderTest proxy = ProxyUnderTest.withDeadlines(List.of(relay.address()), YAML);
                RawClient c = new RawClient(proxy.address)) {
            String got = c.exchange("mg ryw v\r\n".repeat(3) + "ms ryw 3\r\nnew\r\n" + "mg ryw v\r\n".repeat(3));
            assertEquals("VA 3\r\nold\r\n".repeat(3) + "HD\r\n" + "VA 3\r\nnew\r\n".repeat(3), got);
            long coalesced = Long.parseLong(proxy.stats().get("locus_fills_coalesced"));
            assertTrue(coalesced >= 2, "the reads before the write shared a fill (" + coalesced + ")");
        }
    }
}
