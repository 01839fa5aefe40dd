package io.locus.memcached.balance;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.locus.memcached.balance.AvailabilityPlacement.WarmPlan;
import io.locus.memcached.balance.AvailabilityPlacement.WarmTask;
import io.locus.memcached.balance.VirtualBucketTable.RingServer;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import org.junit.jupiter.api.Test;

class AvailabilityPlacementTest {
    private static VirtualBucketTable table(int n) {
        List<RingServer> ring = new ArrayList<>();
        for (int i = 0; i < n; i++) {
            ring.add(new RingServer("10.0.0." + (i + 1), 1));
        }
        return new VirtualBucketTable(ring, 16);
    }

    private static byte[] key(int i) {
        return ("user" + i).getBytes(StandardCharsets.ISO_8859_1);
    }

    @Test
    void everyArc_hasNDistinctCopies_primaryIsTheOwner() {
        VirtualBucketTable t = table(5);
        AvailabilityPlacement p = new AvailabilityPlacement(t, 3);
        for (int arc = 0; arc < t.arcCount(); arc++) {
            int[] c = p.copiesOfArc(arc);
            assertEquals(3, Arrays.stream(c).distinct().count(), "arc " + arc + " copies " + Arrays.toString(c));
            assertEquals(t.owner(t.bucketOfArc(arc)), c[0], "arc " + arc);
        }
    }

    @Test
    void reads_goToPrimary_thenToTheNextUpCopy_andFailOnlyWhenAllAreDown() {
        AvailabilityPlacement p = new AvailabilityPlacement(table(4), 2);
        for (int i = 0; i < 1000; i++) {
            int[] c = p.copiesOf(key(i));
            assertEquals(c[0], p.readFrom(key(i), b -> true));
            assertEquals(c[1], p.readFrom(key(i), b -> b != c[0]));
            assertEquals(-1, p.readFrom(key(i), b -> b != c[0] && b != c[1]));
            assertArrayEquals(new int[] {c[1]}, p.writeTo(key(i), b -> b != c[0]));
        }
    }

    @Test
    void warmPlan_coversExactlyTheArcsTheReturningBackendHolds_fromAnUpCopy() {
        VirtualBucketTable t = table(4);
        AvailabilityPlacement p = new AvailabilityPlacement(t, 2);
        WarmPlan plan = p.warmPlan(1, b -> b != 1);
        assertTrue(plan.flushFirst());
        assertEquals(List.of(), plan.lostArcs());
        int expected = 0;
        for (int arc = 0; arc < t.arcCount(); arc++) {
            if (Arrays.stream(p.copiesOfArc(arc)).anyMatch(b -> b == 1)) {
                expected++;
            }
        }
        assertEquals(expected, plan.tasks().size());
        for (WarmTask task : plan.tasks()) {
            assertEquals(1, task.to());
            assertTrue(task.from() != 1, task.toString());
            assertTrue(Arrays.stream(p.copiesOfArc(task.arc())).anyMatch(b -> b == task.from()), task.toString());
        }
        // With its only partner also down, an arc has nothing to warm from.
        WarmPlan lonely = p.warmPlan(1, b -> b == 0);
        assertTrue(!lonely.lostArcs().isEmpty());
    }

    @Test
    void copies_followPhase3Moves() {
        VirtualBucketTable t = table(4);
        AvailabilityPlacement p = new AvailabilityPlacement(t, 1);
        int bucket = t.bucketOf(key(7));
        int to = (t.owner(bucket) + 2) % 4;
        t.setOwner(bucket, to);
        assertArrayEquals(new int[] {to}, p.copiesOf(key(7)));
    }

    @Test
    void replicationFactorAboveBackends_isRejected() {
        assertEquals(
                "replication_factor: 5 (expected: 1..4, the number of backends)",
                assertThrows(IllegalArgumentException.class, () -> new AvailabilityPlacement(table(4), 5))
                        .getMessage());
    }
}
