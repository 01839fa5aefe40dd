package io.locus.memcached.server;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.locus.memcached.fixture.MemcachedConfig;
import io.locus.memcached.fixture.MemcachedServers;
import io.locus.memcached.testing.ProxyUnderTest;
import io.locus.memcached.testing.RawClient;
import java.net.InetSocketAddress;
import java.nio.file.Path;
import java.util.Arrays;
import org.junit.jupiter.api.Test;

/**
 * Sequential 100-byte gets, direct to memcached and through the proxy, on one raw connection each (1,000 warm-up and
 * 5,000 measured per path): every reply is the stored value, and the proxy adds no stall of its own. The bar is a
 * ratio to the direct path measured in the same test with a wide margin (median at most 25 times direct's): a
 * batching delay such as Nagle's algorithm against delayed ACKs costs tens of milliseconds per request, hundreds of
 * times a loopback round trip, while scheduling noise on a busy machine hits both paths. How much the proxy adds is a
 * benchmark ({@code ./locus bench proxy-latency}), not a test.
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
            long[] directAgain = measure(servers.get(0).address());
            // The better of two direct runs, one on each side of the proxy's: a stall of the machine during one of
            // them does not lower the bar.
            if (directAgain[0] > direct[0]) {
                direct = directAgain;
            }
            System.out.printf(
                    "latency (us) direct p50 %.1f p99 %.1f; proxy p50 %.1f p99 %.1f; proxy/direct p50 %.2f%n",
                    direct[0] / 1e3,
                    direct[1] / 1e3,
                    viaProxy[0] / 1e3,
                    viaProxy[1] / 1e3,
                    (double) viaProxy[0] / direct[0]);
            assertTrue(
                    viaProxy[0] <= 25 * direct[0],
                    "median round trip through the proxy " + viaProxy[0] / 1e3 + " us, direct " + direct[0] / 1e3
                            + " us (expected: at most 25 times direct)");
        }
    }

    private static long[] measure(InetSocketAddress address) throws Exception {
        try (RawClient c = new RawClient(address)) {
            String value = "v".repeat(100);
            assertEquals("STORED\r\n", c.exchange("set lat 0 0 100\r\n" + value + "\r\n"));
            byte[] get = RawClient.bytes("get lat\r\n");
            byte[] end = RawClient.bytes("END\r\n");
            byte[] expected = RawClient.bytes("VALUE lat 0 100\r\n" + value + "\r\nEND\r\n");
            for (int i = 0; i < 1000; i++) {
                c.send(get);
                c.readUntilEndsWith(end);
            }
            long[] nanos = new long[5_000];
            int right = 0;
            for (int i = 0; i < nanos.length; i++) {
                long t = System.nanoTime();
                c.send(get);
                byte[] reply = c.readUntilEndsWith(end);
                nanos[i] = System.nanoTime() - t;
                right += Arrays.equals(expected, reply) ? 1 : 0;
            }
            assertEquals(nanos.length, right, "gets that returned the stored value via " + address);
            Arrays.sort(nanos);
            return new long[] {nanos[nanos.length / 2], nanos[nanos.length * 99 / 100]};
        }
    }
}
