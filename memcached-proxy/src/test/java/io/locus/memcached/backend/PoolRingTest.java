package io.locus.memcached.backend;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.locus.memcached.config.BackendSection;
import java.util.List;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.Test;

class PoolRingTest {
    private static final List<KetamaRing.Server> SERVERS = List.of(
            new KetamaRing.Server("127.0.0.1", 21001, 1, "a"),
            new KetamaRing.Server("127.0.0.1", 21002, 2, "b"),
            new KetamaRing.Server("127.0.0.1", 21003, 1, "c"));
    private static final long RETRY_MICROS = 30_000_000;

    private final AtomicLong clock = new AtomicLong(1_000);

    private PoolRing ring(boolean autoEject) {
        return new PoolRing(
                new KetamaRing(SERVERS), new BackendSection.Ejection(autoEject, 3, RETRY_MICROS), clock::get);
    }

    @Test
    void ejectedServer_keysGoWhereTheRingOfTheLiveServersPlacesThem() {
        PoolRing ring = ring(true);
        KetamaRing full = new KetamaRing(SERVERS);
        KetamaRing withoutB = new KetamaRing(List.of(SERVERS.get(0), SERVERS.get(2)));
        for (int i = 0; i < 3; i++) {
            ring.failure(1);
        }
        assertTrue(ring.isEjected(1));
        assertEquals(1, ring.ejects());
        assertEquals(2, ring.liveServers());
        int moved = 0;
        for (int k = 0; k < 5000; k++) {
            String key = "key:" + k;
            int expected = withoutB.serverFor(key) == 0 ? 0 : 2;
            assertEquals(expected, ring.serverFor(key), key);
            if (full.serverFor(key) == 1) {
                moved++;
            }
        }
        assertTrue(moved > 1000, "b held about half of the keys: " + moved);
    }

    @Test
    void replyBetweenFailures_resetsTheCount() {
        PoolRing ring = ring(true);
        ring.failure(0);
        ring.failure(0);
        ring.ok(0);
        ring.failure(0);
        ring.failure(0);
        assertFalse(ring.isEjected(0));
        ring.failure(0);
        assertTrue(ring.isEjected(0));
    }

    @Test
    void afterRetryTimeout_serverIsBackOnTheRing_andCountsAfresh() {
        PoolRing ring = ring(true);
        KetamaRing full = new KetamaRing(SERVERS);
        String bKey = firstKeyOf(full, 1);
        for (int i = 0; i < 3; i++) {
            ring.failure(1);
        }
        assertTrue(ring.serverFor(bKey) != 1);
        clock.addAndGet(RETRY_MICROS * 1000 - 1);
        assertTrue(ring.serverFor(bKey) != 1, "still out one nanosecond before the retry time");
        clock.addAndGet(1);
        assertEquals(1, ring.serverFor(bKey));
        assertEquals(3, ring.liveServers());
        ring.failure(1);
        ring.failure(1);
        assertFalse(ring.isEjected(1), "the failures before the ejection do not count again");
        ring.failure(1);
        assertTrue(ring.isEjected(1));
        assertEquals(2, ring.ejects());
    }

    @Test
    void everyServerEjected_keysGoHome() {
        PoolRing ring = ring(true);
        KetamaRing full = new KetamaRing(SERVERS);
        for (int s = 0; s < 3; s++) {
            for (int i = 0; i < 3; i++) {
                ring.failure(s);
            }
        }
        assertTrue(ring.isEjected(0) && ring.isEjected(1) && ring.isEjected(2));
        assertEquals("3", ring.statsLines().get("locus_servers_ejected"));
        for (int k = 0; k < 100; k++) {
            assertEquals(full.serverFor("k" + k), ring.serverFor("k" + k));
        }
    }

    @Test
    void autoEjectOff_failuresNeverEject() {
        PoolRing ring = ring(false);
        for (int i = 0; i < 100; i++) {
            ring.failure(2);
        }
        assertFalse(ring.isEjected(2));
        assertEquals(0, ring.ejects());
        assertEquals("0", ring.statsLines().get("server_ejects"));
    }

    private static String firstKeyOf(KetamaRing ring, int server) {
        for (int k = 0; ; k++) {
            if (ring.serverFor("key:" + k) == server) {
                return "key:" + k;
            }
        }
    }
}
