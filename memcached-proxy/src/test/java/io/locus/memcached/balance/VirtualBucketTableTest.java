package io.locus.memcached.balance;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import io.locus.memcached.backend.KetamaRing;
import io.locus.memcached.balance.VirtualBucketTable.RingServer;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;

class VirtualBucketTableTest {
    private static final long SEED = 5;

    private static List<RingServer> ring(int n) {
        List<RingServer> out = new ArrayList<>();
        for (int i = 0; i < n; i++) {
            out.add(new RingServer("10.0.0." + (i + 1), 1 + i % 2));
        }
        return out;
    }

    @Test
    void placement_equalsKetamaRing_forRandomKeys() {
        // Contract with the proxy's nutcracker-compatible ring (checked there against a real nutcracker): until a
        // bucket moves, every key has the same owner. Weights 1 and 2 alternate to cover the weighted point count.
        for (int n : new int[] {1, 3, 4, 7}) {
            List<KetamaRing.Server> servers = new ArrayList<>();
            for (int i = 0; i < n; i++) {
                servers.add(new KetamaRing.Server("10.0.0." + (i + 1), 11211, 1 + i % 2, null));
            }
            KetamaRing ketama = new KetamaRing(servers);
            VirtualBucketTable table = new VirtualBucketTable(ring(n), 16);
            assertEquals(ketama.pointCount(), table.arcCount(), "points for " + n + " servers");
            SplittableRandom r = new SplittableRandom(SEED);
            for (int i = 0; i < 20_000; i++) {
                byte[] key = new byte[1 + r.nextInt(40)];
                for (int j = 0; j < key.length; j++) {
                    key[j] = (byte) r.nextInt(256); // bytes >= 0x80 exercise the sign-extension quirk
                }
                assertEquals(
                        ketama.serverFor(key),
                        table.ownerOf(key),
                        "servers " + n + " key #" + i + " (seed " + SEED + ")");
            }
        }
    }

    @Test
    void buckets_partitionTheRing_andBelongToTheirHome() {
        VirtualBucketTable table = new VirtualBucketTable(ring(4), 16);
        assertEquals(64, table.bucketCount());
        double sum = 0;
        for (int k = 0; k < table.bucketCount(); k++) {
            sum += table.ringShare(k);
            assertEquals(k / 16, table.home(k));
            assertEquals(table.home(k), table.owner(k));
        }
        assertEquals(1.0, sum, 1e-9);
        for (int arc = 0; arc < table.arcCount(); arc++) {
            assertEquals(table.serverOfArc(arc), table.home(table.bucketOfArc(arc)), "arc " + arc);
        }
    }

    @Test
    void setOwner_movesEveryKeyOfTheBucket_only() {
        VirtualBucketTable table = new VirtualBucketTable(ring(4), 16);
        byte[] key = "user42".getBytes(StandardCharsets.ISO_8859_1);
        int bucket = table.bucketOf(key);
        int other = (table.owner(bucket) + 1) % 4;
        table.setOwner(bucket, other);
        assertEquals(other, table.ownerOf(key));
        assertEquals(
                table.home(bucket) == other ? 16 : 15,
                table.bucketsOwnedBy(table.home(bucket)).size());
    }

    @Test
    void badArguments_areRejected() {
        VirtualBucketTable table = new VirtualBucketTable(ring(2), 4);
        assertEquals(
                "virtual bucket 8 (expected: 0..7)",
                assertThrows(IllegalArgumentException.class, () -> table.setOwner(8, 0))
                        .getMessage());
        assertEquals(
                "backend 2 (expected: 0..1)",
                assertThrows(IllegalArgumentException.class, () -> table.setOwner(0, 2))
                        .getMessage());
        assertEquals(
                "ketama ring with 0 servers (expected: 1..65535)",
                assertThrows(IllegalArgumentException.class, () -> new VirtualBucketTable(List.of(), 4))
                        .getMessage());
        assertEquals(
                "lb.cachelets_per_backend: 0 (expected: >= 1)",
                assertThrows(IllegalArgumentException.class, () -> new VirtualBucketTable(ring(2), 0))
                        .getMessage());
        assertEquals(
                "server weight 0 for a (expected: >= 1)",
                assertThrows(IllegalArgumentException.class, () -> new RingServer("a", 0))
                        .getMessage());
    }
}
