package io.locus.memcached.server;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.locus.memcached.fixture.MemcachedConfig;
import io.locus.memcached.fixture.MemcachedServers;
import io.locus.memcached.testing.ProxyUnderTest;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.concurrent.TimeUnit;
import net.rubyeye.xmemcached.GetsResponse;
import net.rubyeye.xmemcached.MemcachedClient;
import net.rubyeye.xmemcached.XMemcachedClientBuilder;
import net.spy.memcached.CASResponse;
import net.spy.memcached.CASValue;
import net.spy.memcached.ConnectionFactoryBuilder;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/** Unmodified memcached clients (xmemcached, spymemcached, libmemcached's tools) work through the proxy. */
class ClientsIT {
    static final Path DIR = Path.of("target", "it", "clients");
    static MemcachedServers servers;
    static ProxyUnderTest proxy;

    @BeforeAll
    static void start() {
        servers = MemcachedServers.start(3, MemcachedConfig.DEFAULTS, DIR);
        proxy = new ProxyUnderTest(servers.addresses(), "");
    }

    @AfterAll
    static void stop() {
        if (proxy != null) {
            proxy.close();
        }
        servers.close();
    }

    static List<String> keys(String prefix, int n) {
        List<String> keys = new ArrayList<>();
        for (int i = 0; i < n; i++) {
            keys.add(Integer.toHexString(i * 0x9E3779B1) + prefix + i);
        }
        return keys;
    }

    @Test
    void xmemcached_setGetMultiGetCasIncrDeleteAndOneMegabyte() throws Exception {
        MemcachedClient c = new XMemcachedClientBuilder(List.of(proxy.address)).build();
        try {
            List<String> keys = keys(":x", 100);
            for (String k : keys) {
                assertTrue(c.set(k, 0, "v-" + k));
            }
            Map<String, Object> got = c.get(keys);
            assertEquals(100, got.size());
            for (String k : keys) {
                assertEquals("v-" + k, got.get(k));
            }
            GetsResponse<Object> gets = c.gets(keys.get(0));
            assertTrue(c.cas(keys.get(0), 0, "new", gets.getCas()));
            assertFalse(c.cas(keys.get(0), 0, "stale", gets.getCas()), "cas with an old token must fail (EXISTS)");
            assertEquals("new", c.get(keys.get(0)));
            assertEquals(5, c.incr("xcounter", 5, 5), "a missing counter starts at the initial value");
            assertEquals(10, c.incr("xcounter", 5));
            assertEquals(7, c.decr("xcounter", 3));
            byte[] big = new byte[1_000_000];
            new Random(1).nextBytes(big);
            assertTrue(c.set("xbig", 0, big));
            assertArrayEquals(big, (byte[]) c.get("xbig"));
            assertTrue(c.delete(keys.get(1)));
            assertNull(c.get(keys.get(1)));
            assertTrue(c.touch(keys.get(2), 100));
        } finally {
            c.shutdown();
        }
    }

    @Test
    void spymemcached_setGetBulkCasIncrDeleteAndOneMegabyte() throws Exception {
        net.spy.memcached.MemcachedClient c = new net.spy.memcached.MemcachedClient(
                new ConnectionFactoryBuilder().setOpTimeout(5000).build(), List.of(proxy.address));
        try {
            List<String> keys = keys(":s", 100);
            for (String k : keys) {
                assertTrue(c.set(k, 0, "v-" + k).get(5, TimeUnit.SECONDS));
            }
            Map<String, Object> got = c.getBulk(keys);
            assertEquals(100, got.size());
            for (String k : keys) {
                assertEquals("v-" + k, got.get(k));
            }
            CASValue<Object> cv = c.gets(keys.get(0));
            assertEquals(CASResponse.OK, c.cas(keys.get(0), cv.getCas(), "new"));
            assertEquals(CASResponse.EXISTS, c.cas(keys.get(0), cv.getCas(), "stale"));
            assertEquals(CASResponse.NOT_FOUND, c.cas("s-missing", 1, "x"));
            assertEquals(7, c.incr("scounter", 1, 7));
            assertEquals(9, c.incr("scounter", 2));
            byte[] big = new byte[1_000_000];
            new Random(2).nextBytes(big);
            assertTrue(c.set("sbig", 0, big).get(5, TimeUnit.SECONDS));
            assertArrayEquals(big, (byte[]) c.get("sbig"));
            assertTrue(c.delete(keys.get(1)).get(5, TimeUnit.SECONDS));
            assertNull(c.get(keys.get(1)));
            assertFalse(c.add(keys.get(2), 0, "x").get(5, TimeUnit.SECONDS), "add of an existing key is NOT_STORED");
        } finally {
            c.shutdown(5, TimeUnit.SECONDS);
        }
    }

    @Test
    void libmemcachedTools_memccpMemccatMemcrmMemcflush() throws Exception {
        Path dir = Files.createDirectories(DIR.resolve("tools"));
        Path file = dir.resolve("locus-tool-item.txt");
        Files.writeString(file, "copied by memccp\n");
        String servers = "--servers=" + proxy.hostPort();
        assertEquals(0, run(dir, "memccp", servers, file.getFileName().toString()).exit);
        Result cat = run(dir, "memccat", servers, "locus-tool-item.txt");
        assertEquals(0, cat.exit, cat.output);
        assertEquals("copied by memccp\n\n", cat.output, "memccat prints the value and a newline");
        assertEquals(0, run(dir, "memcrm", servers, "locus-tool-item.txt").exit);
        assertTrue(run(dir, "memccat", servers, "locus-tool-item.txt").exit != 0, "memccat of a removed key fails");
        assertEquals(0, run(dir, "memccp", servers, file.getFileName().toString()).exit);
        assertEquals(0, run(dir, "memcflush", servers).exit);
        assertTrue(run(dir, "memccat", servers, "locus-tool-item.txt").exit != 0, "memccat after memcflush fails");
    }

    record Result(int exit, String output) {}

    static Result run(Path dir, String... command) throws IOException, InterruptedException {
        Process p = new ProcessBuilder(command)
                .directory(dir.toFile())
                .redirectErrorStream(false)
                .start();
        byte[] out = p.getInputStream().readAllBytes();
        p.getErrorStream().readAllBytes();
        if (!p.waitFor(20, TimeUnit.SECONDS)) {
            p.destroyForcibly();
            throw new IllegalStateException(String.join(" ", command) + " did not finish in 20 s");
        }
        return new Result(p.exitValue(), new String(out, StandardCharsets.UTF_8));
    }
}
