package io.locus.gluster.virtcache.hotblock;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;

import org.junit.jupiter.api.Test;

class Murmur3Test {
    /**
     * The vectors the translator's C test (gluster-virtcache-xlator/src/vc_core_test.c) checks too; they equal Guava's
     * {@code Hashing.murmur3_128(0x56434246).hashLong(key)} read as two little-endian longs.
     */
    @Test
    void matchesTheTranslatorsVectors() {
        long[][] v = {
            {0, 0xd1b63eb8aed4c321L, 0x167af69f0a64a0d6L},
            {1, 0xc12aa54b059d2389L, 0x567467d057dfb233L},
            {2, 0x134b1cb947711735L, 0x3d97586ec1898f16L},
            {3, 0x36d3d3cdd366f14bL, 0x758906bfffc95597L},
        };
        for (long[] row : v) {
            assertArrayEquals(new long[] {row[1], row[2]}, Murmur3.hash128(row[0], Murmur3.SEED), "key " + row[0]);
        }
    }
}
