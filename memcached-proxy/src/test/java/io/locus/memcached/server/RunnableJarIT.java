package io.locus.memcached.server;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeFalse;

import io.locus.memcached.fixture.MemcachedConfig;
import io.locus.memcached.fixture.MemcachedServers;
import io.locus.memcached.testing.PrometheusPage;
import io.locus.memcached.testing.RawClient;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.jar.JarEntry;
import java.util.jar.JarFile;
import org.junit.jupiter.api.Test;

/** {@code java -jar locus-memcached-proxy-<version>.jar --config proxy.yaml} starts, serves, and stops on SIGTERM. */
class RunnableJarIT {
    static final Path DIR = Path.of("target", "it", "jar");

    static Path jar() throws Exception {
        try (var files = Files.list(Path.of("target"))) {
            return files.filter(
                            p -> p.getFileName().toString().matches("locus-memcached-proxy-[^-]+(-SNAPSHOT)?\\.jar"))
                    .findFirst()
                    .orElseThrow(() -> new IllegalStateException("no shaded jar in target/ (run mvn package)"));
        }
    }

    @Test
    void shadedJar_servesClients_andStopsOnSigterm() throws Exception {
        Files.createDirectories(DIR);
        try (MemcachedServers servers = MemcachedServers.start(2, MemcachedConfig.DEFAULTS, DIR);
                RunnableProxy proxy = RunnableProxy.start("locus-proxy", DIR, servers.addresses(), "", List.of())) {
            try (RawClient c = new RawClient(proxy.address)) {
                assertEquals("STORED\r\nVALUE k 0 1\r\nv\r\nEND\r\n", c.exchange("set k 0 0 1\r\nv\r\nget k\r\n"));
            }
            proxy.close();
            assertFalse(proxy.process.isAlive());
            assertEquals(0, proxy.process.exitCode(), "exit code after SIGTERM");
        }
    }

    /** The jar's own process serves its Prometheus page with what it answered, the JVM's metrics, and OpenMetrics. */
    @Test
    void shadedJar_servesItsMetrics() throws Exception {
        int metricsPort = io.locus.fixture.Ports.freeLoopbackPort();
        try (MemcachedServers servers = MemcachedServers.start(1, MemcachedConfig.DEFAULTS, DIR.resolve("metrics"));
                RunnableProxy proxy = RunnableProxy.start(
                        "locus-proxy-metrics",
                        DIR.resolve("metrics"),
                        servers.addresses(),
                        "metrics:\n  prometheus_port: " + metricsPort + "\n",
                        List.of())) {
            try (RawClient c = new RawClient(proxy.address)) {
                assertEquals("STORED\r\nVALUE k 0 1\r\nv\r\nEND\r\n", c.exchange("set k 0 0 1\r\nv\r\nget k\r\n"));
            }
            var address = new java.net.InetSocketAddress("127.0.0.1", metricsPort);
            PrometheusPage text = PrometheusPage.scrape(address, null);
            assertEquals(1, text.value("locus_memcached_requests_total{command=\"get\",outcome=\"ok\"}"));
            assertEquals(1, text.value("locus_memcached_get_hits_total"));
            assertTrue(text.has("jvm_memory_used_bytes{"), "JVM metrics");
            PrometheusPage open = PrometheusPage.scrape(address, PrometheusPage.OPENMETRICS);
            assertTrue(open.contentType.startsWith("application/openmetrics-text"), open.contentType);
            assertEquals(
                    1,
                    open.value("locus_memcached_request_duration_seconds_count{command=\"set\",tenant=\"default\"}"));
        }
    }

    /**
     * A background job of a non-interactive shell starts with SIGINT ignored, and a JVM started from it would inherit
     * that and never see the signal; {@code env --default-signal=INT} restores the default before it executes the
     * JVM, as an interactive shell would have left it. Without such an {@code env} and with SIGINT ignored here, there
     * is nothing to test.
     */
    @Test
    void shadedJar_exitsWith0_onSigint() throws Exception {
        Files.createDirectories(DIR);
        List<String> launcher = List.of("env", "--default-signal=INT");
        if (new ProcessBuilder(concat(launcher, List.of("true"))).start().waitFor() != 0) {
            launcher = List.of();
            assumeFalse(
                    TenantReloader.ignores(Files.readString(Path.of("/proc/self/status")), 2),
                    "SIGINT is ignored in this process, so in the proxy it starts, and env cannot reset it");
        }
        try (MemcachedServers servers = MemcachedServers.start(1, MemcachedConfig.DEFAULTS, DIR);
                RunnableProxy proxy = RunnableProxy.start(
                        "locus-proxy-int", DIR.resolve("int"), servers.addresses(), "", List.of(), launcher)) {
            assertFalse(TenantReloader.ignores(proxy.status(), 2), "SIGINT is not ignored in the proxy");
            try (RawClient c = new RawClient(proxy.address)) {
                assertEquals("STORED\r\n", c.exchange("set k 0 0 1\r\nv\r\n"));
            }
            Process kill = new ProcessBuilder("kill", "-INT", Long.toString(proxy.process.pid()))
                    .inheritIO()
                    .start();
            assertEquals(0, kill.waitFor(), "kill -INT");
            long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(30);
            while (proxy.process.isAlive() && System.nanoTime() < deadline) {
                Thread.sleep(20);
            }
            assertFalse(proxy.process.isAlive(), "the proxy stops on SIGINT");
            assertEquals(0, proxy.process.exitCode(), "exit code after SIGINT");
        }
    }

    private static List<String> concat(List<String> a, List<String> b) {
        List<String> all = new java.util.ArrayList<>(a);
        all.addAll(b);
        return all;
    }

    /** The research simulator and what only it needs (Caffeine, xz) stay out of the jar users run. */
    @Test
    void shadedJar_holdsNoSimulator_norCaffeine_norXz() throws Exception {
        List<String> unwanted =
                List.of("io/locus/memcached/cache/sim/", "com/github/benmanes/caffeine/", "org/tukaani/");
        int entries = 0;
        try (JarFile jar = new JarFile(jar().toFile())) {
            for (JarEntry e : java.util.Collections.list(jar.entries())) {
                entries++;
                for (String prefix : unwanted) {
                    assertFalse(e.getName().startsWith(prefix), "the shaded jar holds " + e.getName());
                }
            }
            assertTrue(jar.getEntry("io/locus/memcached/cache/DeadlineCache.class") != null, "the cache is in the jar");
        }
        assertTrue(entries > 1000, "the shaded jar has its dependencies: " + entries + " entries");
    }

    @Test
    void badConfig_exitsWith2_andNamesTheKey() throws Exception {
        Files.createDirectories(DIR);
        Path config = DIR.resolve("bad.yaml");
        Files.writeString(config, "pool:\n  servers: [\"127.0.0.1:11211:1\"]\nbackend: {timeout: soon}\n");
        String java = Path.of(System.getProperty("java.home"), "bin", "java").toString();
        List<String> command = new java.util.ArrayList<>(List.of(java));
        command.addAll(io.locus.fixture.HostProcess.privateTmpJvmOption());
        command.addAll(List.of("-jar", jar().toString(), "--config", config.toString()));
        Process p = new ProcessBuilder(command).redirectErrorStream(true).start();
        String out = new String(p.getInputStream().readAllBytes());
        assertTrue(p.waitFor(30, TimeUnit.SECONDS));
        assertEquals(2, p.exitValue(), out);
        assertTrue(out.contains("backend.timeout: \"soon\" (expected: a duration such as 250us, 20ms or 1s)"), out);
    }
}
