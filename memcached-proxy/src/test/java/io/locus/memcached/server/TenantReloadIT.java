package io.locus.memcached.server;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeFalse;

import io.locus.fixture.HostProcess;
import io.locus.fixture.Ports;
import io.locus.memcached.config.ConfigLoader;
import io.locus.memcached.fixture.MemcachedConfig;
import io.locus.memcached.fixture.MemcachedServers;
import io.locus.memcached.testing.RawClient;
import java.net.InetSocketAddress;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * Tenants change while the proxy runs, on a file change and on SIGHUP: a connection opened before the reload keeps
 * working, and its next requests resolve to the new tenant; an invalid file is refused and the old tenants stay.
 */
class TenantReloadIT {
    static MemcachedServers servers;
    static final Path DIR = Path.of("target", "it", "reload");

    @BeforeAll
    static void start() throws Exception {
        Files.createDirectories(DIR);
        servers = MemcachedServers.start(1, MemcachedConfig.DEFAULTS, DIR);
    }

    @AfterAll
    static void stop() {
        servers.close();
    }

    private String yaml(int port, String tenants, String extra) {
        return "listen: 127.0.0.1:" + port + "\npool:\n  servers: [\""
                + servers.get(0).hostPort() + ":1\"]\n" + extra + tenants;
    }

    private static Map<String, String> stats(InetSocketAddress proxy) throws Exception {
        try (RawClient c = new RawClient(proxy)) {
            String all = c.exchange("stats\r\n");
            Map<String, String> m = new java.util.HashMap<>();
            for (String line : all.split("\r\n")) {
                String[] p = line.split(" ", 3);
                if (p.length == 3) {
                    m.put(p[1], p[2]);
                }
            }
            return m;
        }
    }

    /** Sends a get on {@code c} until the proxy counts a request for {@code tenant}, or a minute passes. */
    private static boolean awaitTenant(RawClient c, InetSocketAddress proxy, String tenant) throws Exception {
        long end = System.nanoTime() + 60_000_000_000L;
        while (System.nanoTime() < end) {
            assertEquals(
                    "VALUE new:1 0 1\r\nv\r\nEND\r\n", c.exchange("get new:1\r\n"), "the old connection still works");
            if (stats(proxy).containsKey("locus_tenant:" + tenant + ":requests")) {
                return true;
            }
            Thread.sleep(100);
        }
        return false;
    }

    @Test
    void fileChange_newTenantTakesEffect_onAnOpenConnection() throws Exception {
        Path file = DIR.resolve("watched.yaml");
        Files.writeString(file, yaml(0, "", "reload:\n  interval: 100ms\n"));
        ProxyServer server = new ProxyServer(ConfigLoader.load(file));
        InetSocketAddress address = server.start().get(0);
        try (server;
                TenantReloader reloader = new TenantReloader(file, server, 100_000);
                RawClient c = new RawClient(address)) {
            assertEquals("STORED\r\n", c.exchange("set new:1 0 0 1\r\nv\r\n"));
            assertEquals("VALUE new:1 0 1\r\nv\r\nEND\r\n", c.exchange("get new:1\r\n"));
            assertFalse(stats(address).containsKey("locus_tenant:fresh:requests"));
            Files.writeString(
                    file,
                    yaml(
                            0,
                            "tenants:\n  - {id: fresh, prefixes: [\"new:\"], default_deadline: 50ms}\n",
                            "reload:\n  interval: 100ms\n"));
            assertTrue(awaitTenant(c, address, "fresh"), "tenant fresh took effect");
            // The new tenant's default deadline (50 ms, hard) applies: its gets count as met or missed.
            c.exchange("get new:1\r\n");
            Map<String, String> st = stats(address);
            assertTrue(
                    Long.parseLong(st.get("locus_tenant:fresh:deadlines_met"))
                                    + Long.parseLong(st.get("locus_tenant:fresh:deadlines_missed"))
                            >= 1,
                    st.toString());
            // A broken file is refused; the running tenants stay.
            Files.writeString(file, "pool: [this is not a pool\n");
            assertFalse(reloader.reload());
            long before = Long.parseLong(stats(address).get("locus_tenant:fresh:requests"));
            c.exchange("get new:1\r\n");
            assertEquals(before + 1, Long.parseLong(stats(address).get("locus_tenant:fresh:requests")));
        }
    }

    @Test
    void sighup_reloadsTenants_inTheRunnableJar() throws Exception {
        // The proxy inherits this JVM's signal dispositions, and an ignored SIGHUP (a build started under nohup) stays
        // ignored in it: then there is nothing to test here (sighupIgnoredAtStart_isSaidInTheLog covers that case).
        assumeFalse(TenantReloader.sighupIgnored(), "SIGHUP is ignored in this process, so in the proxy it starts");
        int port = Ports.freeLoopbackPort();
        Path file = DIR.resolve("sighup.yaml");
        Files.writeString(file, yaml(port, "", "reload:\n  interval: 0\n"));
        String java = Path.of(System.getProperty("java.home"), "bin", "java").toString();
        try (HostProcess proxy = HostProcess.start(
                "locus-proxy-sighup",
                List.of(java, "-jar", RunnableJarIT.jar().toString(), "--config", file.toString()),
                DIR.resolve("sighup-proxy.log"))) {
            Ports.awaitListening("127.0.0.1", port, Duration.ofSeconds(20), proxy);
            InetSocketAddress address = new InetSocketAddress("127.0.0.1", port);
            try (RawClient c = new RawClient(address)) {
                assertEquals("STORED\r\n", c.exchange("set new:1 0 0 1\r\nv\r\n"));
                Files.writeString(
                        file,
                        yaml(port, "tenants:\n  - {id: hup, prefixes: [\"new:\"]}\n", "reload:\n  interval: 0\n"));
                Thread.sleep(300);
                assertEquals("VALUE new:1 0 1\r\nv\r\nEND\r\n", c.exchange("get new:1\r\n"));
                assertFalse(stats(address).containsKey("locus_tenant:hup:requests"), "no polling with interval 0");
                Process kill = new ProcessBuilder("kill", "-HUP", Long.toString(proxy.pid()))
                        .inheritIO()
                        .start();
                assertEquals(0, kill.waitFor());
                assertTrue(awaitTenant(c, address, "hup"), "tenant hup took effect after SIGHUP");
                assertTrue(proxy.isAlive(), "SIGHUP does not stop the proxy");
            }
        }
    }

    @Test
    void sighupIgnoredAtStart_isSaidInTheLog() throws Exception {
        int port = Ports.freeLoopbackPort();
        Path file = DIR.resolve("nohup.yaml");
        Files.writeString(file, yaml(port, "", "reload:\n  interval: 0\n"));
        Path log = DIR.resolve("nohup-proxy.log");
        String java = Path.of(System.getProperty("java.home"), "bin", "java").toString();
        // What nohup does: SIGHUP ignored before the JVM starts, which the JVM then keeps.
        String command = "trap '' HUP; exec '" + java + "' -jar '" + RunnableJarIT.jar() + "' --config '" + file + "'";
        try (HostProcess proxy = HostProcess.start("locus-proxy-nohup", List.of("bash", "-c", command), log)) {
            Ports.awaitListening("127.0.0.1", port, Duration.ofSeconds(20), proxy);
            // The reloader is set up just after the listener opens, so the line may follow a moment later.
            String text = "";
            for (long end = System.nanoTime() + 20_000_000_000L;
                    System.nanoTime() < end && !text.contains("SIGHUP is ignored by this process"); ) {
                Thread.sleep(50);
                text = Files.readString(log);
            }
            assertTrue(text.contains("SIGHUP is ignored by this process"), text);
        }
    }
}
