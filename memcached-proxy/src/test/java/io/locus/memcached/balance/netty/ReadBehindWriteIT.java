package io.locus.memcached.balance.netty;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.locus.memcached.fixture.MemcachedConfig;
import io.locus.memcached.fixture.MemcachedServers;
import io.locus.memcached.testing.ProxyUnderTest;
import io.locus.memcached.testing.RawClient;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * Read-your-writes for a client that pipelines {@code set k} and {@code get k} of a replicated key, against 2 real
 * memcached servers. The set travels to the home over the replication thread's connection; the test holds that thread
 * while the get is routed, which is the race a loaded machine produces by chance, made certain. A get sent over the
 * I/O thread's own connection reaches the home first and returns the value the set replaces; the proxy must send it
 * behind the set instead ({@code lb:reads_behind_writes}).
 */
class ReadBehindWriteIT {
    static final Path DIR = Path.of("target", "it", "read-behind-write");
    static MemcachedServers servers;

    @BeforeAll
    static void start() {
        servers = MemcachedServers.start(2, MemcachedConfig.DEFAULTS.withThreads(1), DIR);
    }

    @AfterAll
    static void stop() {
        if (servers != null) {
            servers.close();
        }
    }

    /** Phases off: the test makes the replica set itself, and no epoch changes it. */
    static final String YAML =
            "io_threads: 1\nbackend:\n  timeout: 10s\n" + "lb:\n  enabled: true\n  replicas_max: 2\n  phases: none\n";

    @Test
    void pipelinedGet_readsTheSetBeforeIt_passThrough() throws Exception {
        List<InetSocketAddress> backends =
                List.of(servers.get(0).address(), servers.get(1).address());
        try (ProxyUnderTest proxy = new ProxyUnderTest(backends, YAML)) {
            check(
                    proxy,
                    "rbw-p",
                    key -> proxy.server
                            .balancing()
                            .balancer()
                            .directory()
                            .add(ProxyUnderTest.byteKey(key), 0, new int[] {1}, System.nanoTime() + 600_000_000_000L));
        }
    }

    /**
     * A key of a virtual bucket moved from backend 0 to 1 and still migrating (reads fall back to 0): the set goes to
     * the new owner over the replication thread's connection, the get asks the new owner first, which holds the copied
     * old value until the set lands. A 60 s epoch keeps the finished copy in its fallback epochs (2) for the test.
     */
    @Test
    void pipelinedGet_readsTheSetBeforeIt_migratingBucket() throws Exception {
        List<InetSocketAddress> backends =
                List.of(servers.get(0).address(), servers.get(1).address());
        try (ProxyUnderTest proxy = new ProxyUnderTest(backends, YAML + "  epoch: 60s\n")) {
            BalancingServices lb = proxy.server.balancing();
            check(
                    proxy,
                    "rbw-m",
                    key -> lb.migrate(lb.balancer().bucketOf(ProxyUnderTest.byteKey(key)), 1)
                            .get());
        }
    }

    /** The full proxy: the get is a fill of the in-proxy cache, scheduled by the home's deadline scheduler. */
    @Test
    void pipelinedGet_readsTheSetBeforeIt_deadlinePath() throws Exception {
        List<InetSocketAddress> backends =
                List.of(servers.get(0).address(), servers.get(1).address());
        try (ProxyUnderTest proxy = ProxyUnderTest.withDeadlines(backends, YAML)) {
            check(
                    proxy,
                    "rbw-d",
                    key -> proxy.server
                            .balancing()
                            .balancer()
                            .directory()
                            .add(ProxyUnderTest.byteKey(key), 0, new int[] {1}, System.nanoTime() + 600_000_000_000L));
        }
    }

    interface Setup {
        /** Makes {@code key}, homed on backend 0 and holding {@code v0}, one whose writes go to the replication thread. */
        void prepare(String key) throws Exception;
    }

    private static void check(ProxyUnderTest proxy, String prefix, Setup setup) throws Exception {
        BalancingServices lb = proxy.server.balancing();
        String key = proxy.keyHomedOn(0, prefix);
        try (RawClient c = new RawClient(proxy.address)) {
            assertEquals("STORED\r\n", c.exchange("set " + key + " 0 0 2\r\nv0\r\n"));
            setup.prepare(key);
            CountDownLatch held = new CountDownLatch(1);
            CountDownLatch release = new CountDownLatch(1);
            lb.loop().execute(() -> {
                held.countDown();
                awaitQuietly(release);
            });
            held.await();
            try {
                long backendGets = backendGets();
                c.send("set " + key + " 0 0 2\r\nv1\r\nget " + key + "\r\n");
                // Until the get was routed: sent to a backend at once, or queued behind the held set.
                long until = System.nanoTime() + BalanceIT.AWAIT_NANOS;
                while (backendGets() == backendGets && behind(proxy) == 0 && System.nanoTime() < until) {
                    Thread.sleep(10);
                }
            } finally {
                release.countDown();
            }
            String got = new String(c.readUntilEndsWith(RawClient.bytes("END\r\n")), StandardCharsets.ISO_8859_1);
            assertEquals("STORED\r\nVALUE " + key + " 0 2\r\nv1\r\nEND\r\n", got, "read after own pipelined write");
            assertTrue(behind(proxy) >= 1, "the get went behind the set: " + behind(proxy));
        }
    }

    private static long behind(ProxyUnderTest proxy) throws java.io.IOException {
        return Long.parseLong(ProxyUnderTest.stats(proxy.address, "lb").getOrDefault("lb:reads_behind_writes", "0"));
    }

    private static long backendGets() {
        return Long.parseLong(servers.get(0).stats().get("cmd_get"))
                + Long.parseLong(servers.get(1).stats().get("cmd_get"));
    }

    private static void awaitQuietly(CountDownLatch latch) {
        try {
            latch.await();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }
}
