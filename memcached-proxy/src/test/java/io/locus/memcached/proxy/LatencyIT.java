package io.locus.memcached.proxy;

import static org.junit.jupiter.api.Assertions.assertEquals;

import io.locus.memcached.fixture.MemcachedConfig;
import io.locus.memcached.fixture.MemcachedServers;
import java.net.InetSocketAddress;
import java.nio.file.Path;
import java.util.Arrays;
import org.junit.jupiter.api.Test;

/**
 * Measures (prints, does not judge) the round-trip time of sequential 100-byte gets, direct to memcached and
 * through the proxy, on one raw connection each. Bounded: 1,000 warm-up and 5,000 measured gets per path.
 */
class LatencyIT {
    static final Path DIR = Path.of("target", "it", "latency");

    @Test
    void sequentialGets_directVersusProxy_printsPercentiles() throws Exception {
        io.netty.util.ResourceLeakDetector.setLevel(io.netty.util.ResourceLeakDetector.Level.SIMPLE); // Netty's default
        try (MemcachedServers servers = MemcachedServers.start(1, MemcachedConfig.DEFAULTS, DIR);
                ProxyUnderTest proxy = new ProxyUnderTest(servers.addresses(), "")) {
            long[] direct = measure(servers.get(0).address());
            long[] viaProxy = measure(proxy.address);
            System.out.printf(
                    "latency (us) direct p50 %.1f p99 %.1f; proxy p50 %.1f p99 %.1f; proxy/direct p50 %.2f%n",
                    direct[0] / 1e3,
                    direct[1] / 1e3,
                    viaProxy[0] / 1e3,
                    viaProxy[1] / 1e3,
                    (double) viaProxy[0] / direct[0]);
        }
    }

    private static long[] measure(InetSocketAddress address) throws Exception {
        try (RawClient c = new RawClient(address)) {
            String value = "v".repeat(100);
            assertEquals("STORED\r\n", c.exchange("set lat 0 0 100\r\n" + value + "\r\n"));
            byte[] get = RawClient.bytes("get lat\r\n");
            byte[] end = RawClient.bytes("END\r\n");
            for (int i = 0; i < 1000; i++) {
                c.send(get);
                c.readUntilEndsWith(end);
            }
            long[] nanos = new long[5_000];
            for (int i = 0; i < nanos.length; i++) {
                long t = System.nanoTime();
                c.send(get);
                c.readUntilEndsWith(end);
                nanos[i] = System.nanoTime() - t;
            }
            Arrays.sort(nanos);
            return new long[] {nanos[nanos.length / 2], nanos[nanos.length * 99 / 100]};
        }
    }
}
