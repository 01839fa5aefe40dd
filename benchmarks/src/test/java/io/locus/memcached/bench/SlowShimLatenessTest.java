package io.locus.memcached.bench;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.net.InetSocketAddress;
import org.junit.jupiter.api.Test;

class SlowShimLatenessTest {
    @Test
    void reportsP99AndMaxOfLateReleases_thenStartsAgain() {
        try (SlowShim shim =
                SlowShim.start("memcached-0", new InetSocketAddress("127.0.0.1", 9), Emulation.SCALED10, 1)) {
            for (int i = 0; i < 99; i++) {
                shim.recordLate(100_000);
            }
            shim.recordLate(150_000_000);
            assertEquals("memcached-0 100 replies, late p99 0.1 ms, max 150.0 ms", shim.takeLateness());
            assertEquals("memcached-0 0 replies, late p99 0.0 ms, max 0.0 ms", shim.takeLateness());
        }
    }
}
