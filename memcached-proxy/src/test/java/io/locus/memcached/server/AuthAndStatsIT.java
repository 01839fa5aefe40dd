package io.locus.memcached.server;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.locus.memcached.fixture.MemcachedConfig;
import io.locus.memcached.fixture.MemcachedServers;
import io.locus.memcached.testing.ProxyUnderTest;
import io.locus.memcached.testing.RawClient;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;

/** memcached-style text authentication, tenant anti-spoofing, the proxy's own commands and {@code stats}. */
class AuthAndStatsIT {
    static final Path DIR = Path.of("target", "it", "auth");

    @Test
    void textAuth_userIsTheTenant_otherTenantsOnlyIfAllowed() throws Exception {
        Files.createDirectories(DIR);
        Path authFile = DIR.resolve("auth.txt");
        Files.writeString(authFile, "alice:wonder\nbob:builder\n");
        try (MemcachedServers servers = MemcachedServers.start(1, MemcachedConfig.DEFAULTS, DIR);
                ProxyUnderTest proxy = new ProxyUnderTest(
                        servers.addresses(),
                        "auth: {enabled: true, file: \"" + authFile.toAbsolutePath()
                                + "\", allowed_tenants: {alice: [shop]}}\n");
                RawClient client = new RawClient(proxy.address)) {
            // Before authentication every command but the auth set is refused, mn included: no exchange() here.
            client.send("get k\r\nset auth 0 0 9\r\nalice bad\r\nset auth 0 0 12\r\nalice wonder\r\n");
            assertEquals(
                    "CLIENT_ERROR unauthenticated\r\nCLIENT_ERROR authentication failure\r\nSTORED\r\n",
                    new String(
                            client.readUntilEndsWith(RawClient.bytes("STORED\r\n")),
                            java.nio.charset.StandardCharsets.US_ASCII));
            assertEquals("HD\r\n", client.exchange("ms k 1 Pshop\r\nx\r\n"));
            assertEquals("CLIENT_ERROR tenant not allowed\r\n", client.exchange("mg k v Pbob\r\n"));
            assertEquals("VA 1\r\nx\r\n", client.exchange("mg k v Palice\r\n"));
            assertEquals("CLIENT_ERROR tenant not allowed\r\n", client.exchange("dlctx tenant=bob\r\n"));
            assertEquals("OK\r\n", client.exchange("dlctx tenant=shop deadline=20ms\r\n"));
        }
    }

    @Test
    void localCommands_andStatsCountWhatHappened() throws Exception {
        try (MemcachedServers servers = MemcachedServers.start(2, MemcachedConfig.DEFAULTS, DIR);
                ProxyUnderTest proxy = new ProxyUnderTest(servers.addresses(), "version: 1.6.99-locus\n");
                RawClient client = new RawClient(proxy.address)) {
            // exchange() itself ends with mn, so MN proves the proxy answers mn in order.
            assertEquals("VERSION 1.6.99-locus\r\nOK\r\n", client.exchange("version\r\nverbosity 1\r\n"));
            client.exchange("set a 0 0 1\r\n1\r\nset b 0 0 1\r\n2\r\nget a b c\r\nmg a v Pt L5ms\r\nbogus\r\n");
            assertEquals("OK\r\n", client.exchange("flush_all\r\n"));
            assertEquals("END\r\n", client.exchange("get a b\r\n"));
            String stats = client.exchange("stats\r\n");
            assertTrue(stats.endsWith("END\r\n"), stats);
            assertTrue(stats.contains("STAT cmd_get 5\r\n"), stats);
            assertTrue(stats.contains("STAT get_hits 2\r\n"), stats);
            assertTrue(stats.contains("STAT get_misses 3\r\n"), stats);
            assertTrue(stats.contains("STAT cmd_set 2\r\n"), stats);
            assertTrue(stats.contains("STAT locus_hint_tokens_stripped 2\r\n"), stats);
            assertTrue(stats.contains("STAT locus_client_errors 1\r\n"), stats);
            assertTrue(stats.contains("STAT curr_connections 1\r\n"), stats);
            String backends = client.exchange("stats backends\r\n");
            assertTrue(
                    backends.contains("STAT backend:0:state up\r\n") && backends.contains("STAT backend:1:addr "),
                    backends);
            client.send("quit\r\n");
            assertEquals(0, client.readAvailable(2000).length, "quit closes without a reply");
        }
    }
}
