package io.locus.memcached.server;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.locus.memcached.fixture.MemcachedConfig;
import io.locus.memcached.fixture.MemcachedServers;
import io.locus.memcached.testing.ProxyUnderTest;
import java.io.IOException;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * libmemcached's conformance client, {@code memccapable -a} (Debian's libmemcached-tools), passes through the proxy
 * in both modes, with one backend and with two: every ASCII test memcached itself passes, by name.
 */
class MemccapableIT {
    static final Path DIR = Path.of("target", "it", "memccapable");
    static MemcachedServers servers;
    static List<String> reference;

    @BeforeAll
    static void start() throws Exception {
        // 0: direct reference; 1: single backend; 2, 3: a pool of two.
        servers = MemcachedServers.start(4, MemcachedConfig.DEFAULTS, DIR);
        reference = memccapable(servers.get(0).address());
        assertTrue(reference.size() >= 20, "memccapable against memcached itself ran too few tests: " + reference);
    }

    @AfterAll
    static void stop() {
        if (servers != null) {
            servers.close();
        }
    }

    @Test
    void passThrough_oneBackend() throws Exception {
        try (ProxyUnderTest proxy = new ProxyUnderTest(List.of(servers.get(1).address()), "mode: pass_through\n")) {
            assertEquals(reference, memccapable(proxy.address));
        }
    }

    @Test
    void passThrough_twoBackends() throws Exception {
        try (ProxyUnderTest proxy = new ProxyUnderTest(
                List.of(servers.get(2).address(), servers.get(3).address()), "mode: pass_through\n")) {
            assertEquals(reference, memccapable(proxy.address));
        }
    }

    @Test
    void fullMode_oneBackend() throws Exception {
        try (ProxyUnderTest proxy =
                ProxyUnderTest.withDeadlines(List.of(servers.get(1).address()), "")) {
            assertEquals(reference, memccapable(proxy.address));
        }
    }

    @Test
    void fullMode_twoBackends() throws Exception {
        try (ProxyUnderTest proxy = ProxyUnderTest.withDeadlines(
                List.of(servers.get(2).address(), servers.get(3).address()), "")) {
            assertEquals(reference, memccapable(proxy.address));
        }
    }

    /** The names of the tests that passed; fails, with memccapable's output, unless every test passed. */
    static List<String> memccapable(InetSocketAddress address) throws IOException, InterruptedException {
        Process p = new ProcessBuilder(
                        "memccapable", "-a", "-t", "10", "-h", "127.0.0.1", "-p", String.valueOf(address.getPort()))
                .redirectErrorStream(true)
                .start();
        p.getOutputStream().close();
        String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        assertTrue(p.waitFor(120, TimeUnit.SECONDS), "memccapable did not end:\n" + out);
        assertEquals(0, p.exitValue(), "memccapable -a against " + address + " failed:\n" + out);
        assertTrue(out.contains("All tests passed"), out);
        List<String> passed = out.lines()
                .filter(l -> l.endsWith("[pass]"))
                .map(l -> l.substring(0, l.length() - "[pass]".length()).strip())
                .toList();
        assertEquals(
                out.lines().filter(l -> l.startsWith("ascii ")).count(),
                passed.size(),
                "every test memccapable ran passed:\n" + out);
        return passed;
    }
}
