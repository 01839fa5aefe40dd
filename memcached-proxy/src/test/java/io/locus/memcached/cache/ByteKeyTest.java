package io.locus.memcached.cache;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.charset.StandardCharsets;
import org.junit.jupiter.api.Test;

/** A key is its bytes: equal bytes are one key, a prefix is tested on bytes, the text form is only for printing. */
class ByteKeyTest {
    private static ByteKey key(String s) {
        return new ByteKey(s.getBytes(StandardCharsets.ISO_8859_1));
    }

    @Test
    void equalBytes_equalKeysAndHashes_everyByteCounts() {
        assertEquals(key("k\u00e9\u00ff\u0080"), key("k\u00e9\u00ff\u0080"));
        assertEquals(
                key("k\u00e9\u00ff\u0080").hashCode(),
                key("k\u00e9\u00ff\u0080").hashCode());
        assertNotEquals(key("k\u00e9\u00ff\u0080"), key("k\u00e9\u00ff\u0081"));
        assertNotEquals(key("k\u00e9"), key("k\u00e9\u0000"));
    }

    @Test
    void startsWith_onBytes_andToStringPrintsOneCharPerByte() {
        byte[] prefix = "__dlp:".getBytes(StandardCharsets.US_ASCII);
        assertTrue(key("__dlp:r:\u00ff").startsWith(prefix));
        assertTrue(key("__dlp:").startsWith(prefix));
        assertFalse(key("__dlp").startsWith(prefix));
        assertFalse(key("x__dlp:").startsWith(prefix));
        assertEquals("a\u00ff\u0080 b", key("a\u00ff\u0080 b").toString());
    }

    @Test
    void hash_everyBytePositionCounts_andLowBitsSpreadKeysOverPartitions() {
        byte[] base = new byte[64];
        java.util.Arrays.fill(base, (byte) 'k');
        java.util.Set<Integer> hashes = new java.util.HashSet<>();
        for (int i = 0; i < base.length; i++) {
            byte[] b = base.clone();
            b[i] = 'j';
            hashes.add(new ByteKey(b).hashCode());
            hashes.add(new ByteKey(java.util.Arrays.copyOf(base, i + 1)).hashCode());
        }
        assertEquals(128, hashes.size());
        int[] partitions = new int[4];
        for (int i = 0; i < 40_000; i++) {
            partitions[Math.floorMod(key("memtier-" + i).hashCode(), partitions.length)]++;
        }
        for (int p : partitions) {
            assertTrue(p > 9_500 && p < 10_500, java.util.Arrays.toString(partitions));
        }
    }
}
