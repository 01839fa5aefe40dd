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
 * {@code sched.enabled: false} (the thesis's "DLC" configuration: the deadline cache without scheduler or admission)
 * in front of a real memcached slowed to 2 ms per request: hard 1 ms reads that cannot be met are all forwarded and
 * answered, none refused, and they count as missed; the cache still serves the repeats. The same reads with the
 * scheduler on are refused once the latency model has seen the backend.
 */
class DlcOnlyIT {
    static MemcachedServers servers;
    static final Path DIR = Path.of("target", "it", "dlc-only");

    @BeforeAll
    static void start() {
        servers = MemcachedServers.start(1, MemcachedConfig.DEFAULTS, DIR);
    }

    @AfterAll
    static void stop() {
        servers.close();
    }

    private static String script(String prefix, int keys) {
        StringBuilder sb = new StringBuilder();
        for (int i = 0; i < keys; i++) {
            sb.append("mg ").append(prefix).append(i).append(" v L1ms\r\n");
        }
        return sb.toString();
    }

    private static void preload(String prefix, int keys) throws Exception {
        StringBuilder sets = new StringBuilder();
        for (int i = 0; i < keys; i++) {
            sets.append("set ").append(prefix).append(i).append(" 0 0 2\r\nok\r\n");
        }
        try (RawClient direct = new RawClient(servers.get(0).address())) {
            direct.exchange(sets.toString());
        }
    }

    @Test
    void withoutScheduler_everyHardReadIsAnswered_noneRefused() throws Exception {
        preload("d", 200);
        String yaml = "io_threads: 1\nbackend:\n  conns: 1\nsched:\n  enabled: false\n";
        try (SlowRelay relay = new SlowRelay(servers.get(0).address(), 2_000_000);
                ProxyUnderTest proxy = ProxyUnderTest.withDeadlines(List.of(relay.address()), yaml);
                RawClient c = new RawClient(proxy.address)) {
            String first = c.exchange(script("d", 200));
            assertEquals("VA 2\r\nok\r\n".repeat(200), first, "every miss forwarded and answered");
            String again = c.exchange(script("d", 200));
            assertEquals("VA 2\r\nok\r\n".repeat(200), again);
            Map<String, String> s = proxy.stats();
            assertEquals("0", s.get("locus_tenant:default:rejected"));
            assertTrue(Long.parseLong(s.get("locus_tenant:default:hits")) >= 200, "repeats are local hits: " + s);
            assertTrue(
                    Long.parseLong(s.get("locus_tenant:default:deadlines_missed")) > 0,
                    "2 ms per backend read cannot meet 1 ms, and is counted: " + s);
        }
    }

    @Test
    void withScheduler_theSameReadsAreRefused() throws Exception {
        preload("s", 200);
        String yaml = "io_threads: 1\nbackend:\n  conns: 1\n";
        try (SlowRelay relay = new SlowRelay(servers.get(0).address(), 2_000_000);
                ProxyUnderTest proxy = ProxyUnderTest.withDeadlines(List.of(relay.address()), yaml);
                RawClient c = new RawClient(proxy.address)) {
            String got = c.exchange(script("s", 200));
            assertTrue(got.contains("SERVER_ERROR deadline reject"), "admission refuses what 2 ms cannot meet");
            assertTrue(Long.parseLong(proxy.stats().get("locus_tenant:default:rejected")) > 0);
        }
    }
}
