package io.locus.memcached.backend;

import static org.junit.jupiter.api.Assertions.assertEquals;

import io.locus.memcached.fixture.MemcachedConfig;
import io.locus.memcached.fixture.MemcachedServers;
import io.locus.memcached.testing.ProxyUnderTest;
import io.locus.memcached.testing.RawClient;
import io.locus.memcached.testing.SlowRelay;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * Pass-through hands memcached the client's own bytes: a relay between the proxy and a real memcached records what
 * arrives there. Runs of spaces, a line ended by a bare {@code \n} and key bytes above 0x7f arrive as the client sent
 * them; a quiet request gets the {@code mn} the proxy needs to see its end, and nothing else is added.
 */
class ForwardedBytesIT {
    static final Path DIR = Path.of("target", "it", "forwarded-bytes");

    @Test
    void passThrough_forwardsTheClientsBytesUnchanged() throws Exception {
        String set = "set  k\u00e9y 7 0 3\r\nabc\r\n";
        String get = "get k\u00e9y\n";
        String quiet = "set k2 0 0 1 noreply\r\nx\r\n";
        String meta = "mg  k2 v f\r\n";
        try (MemcachedServers servers = MemcachedServers.start(1, MemcachedConfig.DEFAULTS, DIR);
                SlowRelay relay = new SlowRelay(servers.get(0).address(), 0);
                ProxyUnderTest proxy = new ProxyUnderTest(List.of(relay.address()), "mode: pass_through\n");
                RawClient client = new RawClient(proxy.address)) {
            assertEquals(
                    "STORED\r\nVALUE k\u00e9y 7 3\r\nabc\r\nEND\r\nVA 1 f0\r\nx\r\n",
                    client.exchange(set + get + quiet + meta),
                    "the replies are memcached's");
            assertEquals(
                    set + get + quiet + "mn\r\n" + meta,
                    new String(relay.upstream(), StandardCharsets.ISO_8859_1),
                    "what reached memcached");
        }
    }
}
