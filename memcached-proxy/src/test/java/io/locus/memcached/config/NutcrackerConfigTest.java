package io.locus.memcached.config;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/** One pool of the nutcracker files under {@code src/test/resources/nutcracker}, read as the proxy's configuration. */
class NutcrackerConfigTest {
    private static final Path DIR = Path.of("src", "test", "resources", "nutcracker");

    @Test
    void webPool_everyHonouredKeyBecomesTheProxysKey_andIgnoredKeysAreAccepted() {
        ProxyConfig c = NutcrackerConfig.load(DIR.resolve("memcached-pools.yml"), "web", null);
        assertEquals("127.0.0.1", c.listeners().get(0).host());
        assertEquals(22201, c.listeners().get(0).port());
        assertEquals(
                List.of(
                        new BackendAddress("127.0.0.1", 11301, 1, "web-a"),
                        new BackendAddress("127.0.0.1", 11302, 2, "web-b"),
                        new BackendAddress("127.0.0.1", 11303, 1, "web-c")),
                c.servers());
        assertEquals(400_000, c.backend().timeoutMicros());
        assertEquals(400_000, c.backend().connectTimeoutMicros());
        assertEquals(
                new BackendSection.Ejection(true, 2, 2_000_000), c.backend().ejection());
        assertEquals(ServerSection.Mode.PASS_THROUGH, c.server().mode(), "forwards as nutcracker does");
    }

    @Test
    void sessionsPool_serverConnections_andDefaultsWhereTheFileSaysNothing() {
        ProxyConfig c = NutcrackerConfig.load(DIR.resolve("memcached-pools.yml"), "sessions", null);
        assertEquals(2, c.backend().conns());
        assertEquals(250_000, c.backend().timeoutMicros());
        assertEquals(
                new BackendSection.Ejection(false, 2, 30_000_000), c.backend().ejection());
        assertEquals(
                new BackendAddress("127.0.0.1", 11311, 1, null), c.servers().get(0));
    }

    @Test
    void singlePool_isTaken_withoutPool_andHashAndDistributionDefaultAsInNutcracker() {
        NutcrackerConfig nc = NutcrackerConfig.load(DIR.resolve("single-pool.yml"), null);
        assertEquals("cache", nc.pool());
        assertEquals("fnv1a_64", nc.proxyKeys().get("pool.hash"));
        assertEquals("ketama", nc.proxyKeys().get("pool.distribution"));
        assertEquals(4, nc.toProxyConfig("", "").servers().size());
    }

    @Test
    void proxyFile_addsLocusSettings_andMayChooseTheFullMode() {
        NutcrackerConfig nc = NutcrackerConfig.load(DIR.resolve("single-pool.yml"), null);
        ProxyConfig c = nc.toProxyConfig("mode: full\nlocal:\n  mode: \"off\"\nio_threads: 1\n", "proxy.yaml");
        assertEquals(ServerSection.Mode.FULL, c.server().mode());
        assertFalse(c.localCache().enabled());
        assertEquals(1, c.server().ioThreads());
        assertEquals(1_000_000, c.backend().timeoutMicros());
    }

    @Test
    void proxyFile_settingAPoolKeyToo_isRefusedByName() {
        NutcrackerConfig nc = NutcrackerConfig.load(DIR.resolve("single-pool.yml"), null);
        ConfigException e =
                assertThrows(ConfigException.class, () -> nc.toProxyConfig("backend:\n  timeout: 2s\n", "proxy.yaml"));
        assertEquals(
                "proxy.yaml: backend.timeout: also set by " + DIR.resolve("single-pool.yml") + " pool \"cache\""
                        + " (expected: the pool's settings in the nutcracker file only)",
                e.getMessage());
    }

    @Test
    void proxyFile_badKey_isNamed_withBothFiles() {
        NutcrackerConfig nc = NutcrackerConfig.parse(
                "a:\n  listen: 127.0.0.1:1\n  servers: [\"127.0.0.1:2:1\"]\n", "nutcracker.yml", null);
        ConfigException e =
                assertThrows(ConfigException.class, () -> nc.toProxyConfig("sched:\n  window: 0\n", "proxy.yaml"));
        assertEquals(
                "nutcracker.yml with proxy.yaml: sched.window: 0 is out of range (expected: 1 .. 1024)",
                e.getMessage());
    }

    @Test
    void ejectionWithTheBalancer_isRefused() {
        NutcrackerConfig nc = NutcrackerConfig.load(DIR.resolve("memcached-pools.yml"), "web");
        ConfigException e =
                assertThrows(ConfigException.class, () -> nc.toProxyConfig("lb:\n  enabled: true\n", "proxy.yaml"));
        assertTrue(
                e.getMessage()
                        .endsWith(
                                "backend.auto_eject_hosts: true with lb.enabled or replication_factor"
                                        + " above 1 (expected: false; the balancer's replicas and moved buckets do not follow an ejection)"),
                e.getMessage());
    }

    @ParameterizedTest
    @CsvSource(
            delimiter = '|',
            value = {
                "redis         | redis: true is not supported (supported: false, memcached's protocol)",
                "tagged        | hash_tag: {} is not supported (supported: the whole key is hashed)",
                "murmur        | hash: murmur is not supported (supported: fnv1a_64)",
                "modula        | distribution: modula is not supported (supported: ketama)",
                "random        | distribution: random is not supported (supported: ketama)",
                "socket        | listen: /tmp/gamma is not supported (supported: host:port; not a unix socket)",
                "socket_server | servers[0]: /var/run/memcached/memcached.sock:1 is not supported"
                        + " (supported: host:port:weight [name]; not a unix socket)",
                "redis_db      | redis_db: 3 is not supported (supported: memcached pools, no redis keys)",
            })
    void unsupportedPool_isRefused_namingFilePoolKeyAndWhatIsSupported(String pool, String message) {
        ConfigException e = assertThrows(
                ConfigException.class, () -> NutcrackerConfig.load(DIR.resolve("unsupported-pools.yml"), pool));
        assertEquals(DIR.resolve("unsupported-pools.yml") + ": pool \"" + pool + "\": " + message, e.getMessage());
    }

    @ParameterizedTest
    @CsvSource(
            delimiter = '|',
            value = {
                "dns_resolve_interval: 30 | dns_resolve_interval: unknown nutcracker key (expected: one of listen, hash,"
                        + " distribution, timeout, redis, server_connections, auto_eject_hosts, server_retry_timeout,"
                        + " server_failure_limit, servers, client_connections, backlog, tcpkeepalive, preconnect)",
                "timeout: soon | timeout: \"soon\" (expected: a whole number 1 .. 3600000)",
                "server_failure_limit: 0 | server_failure_limit: \"0\" (expected: a whole number 1 .. 1000000)",
                "server_retry_timeout: -5 | server_retry_timeout: \"-5\" (expected: a whole number 1 .. 86400000)",
                "server_connections: 100 | server_connections: \"100\" (expected: a whole number 1 .. 64)",
                "auto_eject_hosts: sometimes | auto_eject_hosts: \"sometimes\" (expected: true or false)",
                "redis_auth: secret | redis_auth: secret is not supported (supported: memcached pools, no redis keys)",
            })
    void badKey_isRefusedByName(String line, String message) {
        String yaml = "alpha:\n  listen: 127.0.0.1:22121\n  " + line + "\n  servers:\n   - 127.0.0.1:11211:1\n";
        ConfigException e =
                assertThrows(ConfigException.class, () -> NutcrackerConfig.parse(yaml, "nutcracker.yml", null));
        assertEquals("nutcracker.yml: pool \"alpha\": " + message, e.getMessage());
    }

    @Test
    void badServerLine_andMissingListen_areNamed() {
        ConfigException server = assertThrows(
                ConfigException.class,
                () -> NutcrackerConfig.parse(
                        "alpha:\n  listen: 127.0.0.1:1\n  servers:\n   - 127.0.0.1:11211\n", "nutcracker.yml", null));
        assertEquals(
                "nutcracker.yml: pool \"alpha\": servers[0]: \"127.0.0.1:11211\" (expected: host:port:weight [name])",
                server.getMessage());
        ConfigException listen = assertThrows(
                ConfigException.class,
                () -> NutcrackerConfig.parse("alpha:\n  servers:\n   - 127.0.0.1:11211:1\n", "nutcracker.yml", null));
        assertEquals("nutcracker.yml: pool \"alpha\": listen: missing (expected: host:port)", listen.getMessage());
    }

    @Test
    void manyPools_withoutPool_orAnUnknownPool_areRefused_listingThePools() {
        Path file = DIR.resolve("memcached-pools.yml");
        ConfigException none = assertThrows(ConfigException.class, () -> NutcrackerConfig.load(file, null));
        assertEquals(
                file + ": 2 pools (web, sessions): choose one with --pool NAME (the proxy serves one pool)",
                none.getMessage());
        ConfigException unknown = assertThrows(ConfigException.class, () -> NutcrackerConfig.load(file, "db"));
        assertEquals(file + ": no pool \"db\" (pools: web, sessions)", unknown.getMessage());
    }
}
