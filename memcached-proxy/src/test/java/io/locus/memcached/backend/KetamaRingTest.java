package io.locus.memcached.backend;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

class KetamaRingTest {
    @Test
    void ringName_followsNutcracker_nameThenHostForDefaultPortThenHostPort() {
        assertEquals("cache-a", new KetamaRing.Server("10.0.0.1", 11211, 1, "cache-a").ringName());
        assertEquals("10.0.0.1", new KetamaRing.Server("10.0.0.1", 11211, 1, null).ringName());
        assertEquals("10.0.0.1:11212", new KetamaRing.Server("10.0.0.1", 11212, 1, null).ringName());
    }

    @Test
    void pointCount_is160PerServerForEqualWeights() {
        List<KetamaRing.Server> s = new ArrayList<>();
        for (int i = 0; i < 3; i++) {
            s.add(new KetamaRing.Server("127.0.0.1", 20000 + i, 1, null));
        }
        assertEquals(480, new KetamaRing(s).pointCount());
    }

    @Test
    void equalWeights_spreadKeysRoughlyEvenly_forManyPortTriples() {
        for (int base = 30000; base < 60000; base += 1111) {
            List<KetamaRing.Server> s = new ArrayList<>();
            for (int i = 0; i < 3; i++) {
                s.add(new KetamaRing.Server("127.0.0.1", base + 7 * i, 1, null));
            }
            KetamaRing ring = new KetamaRing(s);
            int[] n = new int[3];
            for (int k = 0; k < 30000; k++) {
                n[ring.serverFor("key" + k)]++;
            }
            for (int c : n) {
                assertTrue(c > 30000 / 3 / 2, "ports from " + base + ": " + java.util.Arrays.toString(n));
            }
        }
    }

    @Test
    void fnv1a64_isNutcrackers32BitVariant_withSignExtendedBytes() {
        assertEquals(0x84222325, KetamaRing.fnv1a64(new byte[0]));
        // One step by hand: (0x84222325 ^ 'a') * 0x1b3 mod 2^32.
        assertEquals((0x84222325 ^ 'a') * 0x1b3, KetamaRing.fnv1a64(new byte[] {'a'}));
        assertEquals((0x84222325 ^ 0xFFFFFF80) * 0x1b3, KetamaRing.fnv1a64(new byte[] {(byte) 0x80}));
    }

    @Test
    void noServers_isAnError() {
        assertEquals(
                "ketama ring with 0 servers (expected: 1..65535)",
                assertThrows(IllegalArgumentException.class, () -> new KetamaRing(List.of()))
                        .getMessage());
    }

    @Test
    void oneServer_ownsEveryKey() {
        KetamaRing ring = new KetamaRing(List.of(new KetamaRing.Server("127.0.0.1", 20000, 3, null)));
        for (int i = 0; i < 1000; i++) {
            assertEquals(0, ring.serverFor(("key-" + i).getBytes(java.nio.charset.StandardCharsets.US_ASCII)));
        }
    }
}
