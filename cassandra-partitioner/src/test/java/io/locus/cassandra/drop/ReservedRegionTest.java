package io.locus.cassandra.drop;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.charset.StandardCharsets;
import java.util.List;
import org.junit.jupiter.api.Test;

class ReservedRegionTest {
    @Test
    void tokenAt_andPosition_roundTrip_andNonPathKeysLandInside() {
        for (double f : new double[] {1e-9, 0.25, 0.5, 0.75, 0.999999}) {
            assertEquals(f, ReservedRegion.position(ReservedRegion.tokenAt(f)), 1e-15);
        }
        assertEquals(1.0, ReservedRegion.position(TokenMath.maximum()));
        byte[] uuid = PathEncoder.encode("7f0c3a2e-1f7e-4a39-8d0b-3f6b1c2d4e5f".getBytes(StandardCharsets.UTF_8));
        assertTrue(ReservedRegion.contains(uuid));
        IllegalArgumentException e = assertThrows(
                IllegalArgumentException.class,
                () -> ReservedRegion.position(PathEncoder.encode("/usr".getBytes(StandardCharsets.UTF_8))));
        assertTrue(e.getMessage().endsWith("is not in the reserved region (expected: starting ffff)"), e.getMessage());
    }

    @Test
    void owners_splitTheRegionAtTheRingTokens_andWrapTheRestToTheFirst() {
        byte[] path = PathEncoder.encode("/usr/bin/ls".getBytes(StandardCharsets.UTF_8));
        Ring ring =
                new Ring(List.of(path, ReservedRegion.tokenAt(0.25), ReservedRegion.tokenAt(0.75)), List.of(0, 1, 2));
        assertArrayEquals(new double[] {0.25, 0.25, 0.5}, ReservedRegion.owners(ring, 3), 1e-12);
        Ring pathsOnly = new Ring(List.of(path), List.of(0));
        assertArrayEquals(new double[] {1.0, 0.0}, ReservedRegion.owners(pathsOnly, 2), 1e-12);
    }
}
