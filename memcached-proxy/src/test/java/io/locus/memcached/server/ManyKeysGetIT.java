package io.locus.memcached.server;

import static org.junit.jupiter.api.Assertions.assertEquals;

import io.locus.memcached.fixture.MemcachedConfig;
import io.locus.memcached.fixture.MemcachedServers;
import io.locus.memcached.testing.ProxyUnderTest;
import io.locus.memcached.testing.RawClient;
import java.nio.file.Path;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * A get of 10,000 keys (a line of about 110 KB) is served with the default limits, in both modes, with the same bytes
 * a single memcached sends for it: memcached puts no bound on a get's keys.
 */
class ManyKeysGetIT {
    static final Path DIR = Path.of("target", "it", "many-keys");
    static final int KEYS = 10_000;

    @ParameterizedTest
    @ValueSource(strings = {"pass_through", "full"})
    void getOf10000Keys_answersLikeMemcached(String mode) throws Exception {
        try (MemcachedServers servers = MemcachedServers.start(3, MemcachedConfig.DEFAULTS, DIR.resolve(mode));
                ProxyUnderTest proxy = start(mode, servers);
                RawClient viaProxy = new RawClient(proxy.address);
                RawClient direct = new RawClient(servers.get(2).address())) {
            StringBuilder sets = new StringBuilder();
            StringBuilder get = new StringBuilder("get");
            for (int i = 0; i < KEYS; i++) {
                String key = "key:" + i;
                get.append(' ').append(key);
                if (i % 7 != 0) { // every seventh key is a miss
                    String value = "value-" + i;
                    sets.append("set ")
                            .append(key)
                            .append(" 0 0 ")
                            .append(value.length())
                            .append(" noreply\r\n")
                            .append(value)
                            .append("\r\n");
                }
            }
            get.append("\r\n");
            // Backends 0 and 1 behind the proxy; backend 2 alone, as the reference.
            assertEquals("", viaProxy.exchange(sets.toString()));
            assertEquals("", direct.exchange(sets.toString()));
            String expected = direct.exchange(get.toString());
            assertEquals(KEYS - (KEYS + 6) / 7, expected.split("VALUE ", -1).length - 1, "hits at the reference");
            assertEquals(
                    expected, viaProxy.exchange(get.toString()), mode + ": the proxy's reply to the 10,000-key get");
        }
    }

    private static ProxyUnderTest start(String mode, MemcachedServers servers) {
        var backends = servers.addresses().subList(0, 2);
        // A generous backend timeout: this shared 2-core machine can stall a backend for over a second, and the get
        // would then rightly answer SERVER_ERROR backend timeout (LargeMultiGetIT runs such gets at 500 ms).
        String yaml = "mode: " + mode + "\nbackend: {timeout: 30s}\n";
        return mode.equals("full") ? ProxyUnderTest.withDeadlines(backends, yaml) : new ProxyUnderTest(backends, yaml);
    }
}
