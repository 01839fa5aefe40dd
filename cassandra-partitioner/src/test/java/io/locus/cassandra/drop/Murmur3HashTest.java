package io.locus.cassandra.drop;

import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.Random;

import com.google.common.hash.HashCode;
import com.google.common.hash.Hashing;
import org.junit.jupiter.api.Test;

import static org.junit.jupiter.api.Assertions.assertEquals;

class Murmur3HashTest {
    @Test
    void hash128_equalsGuavaMurmur3_128_forEveryLengthUpTo100() {
        Random random = new Random(42);
        byte[] out = new byte[20];
        for (int len = 0; len <= 100; len++) {
            for (int rep = 0; rep < 20; rep++) {
                byte[] data = new byte[len + 3];
                random.nextBytes(data);
                HashCode expected = Hashing.murmur3_128(TokenLayout.SEED).hashBytes(data, 3, len);
                Arrays.fill(out, (byte) 0x5A);
                long h1 = Murmur3Hash.hash128(data, 3, len, TokenLayout.SEED, out, 2);
                ByteBuffer le = ByteBuffer.wrap(expected.asBytes()).order(java.nio.ByteOrder.LITTLE_ENDIAN);
                assertEquals(le.getLong(0), h1, "h1, len " + len + " seed 42 rep " + rep);
                assertEquals(le.getLong(0), ByteBuffer.wrap(out).getLong(2), "h1 bytes, len " + len + " rep " + rep);
                assertEquals(le.getLong(8), ByteBuffer.wrap(out).getLong(10), "h2 bytes, len " + len + " rep " + rep);
                assertEquals(0x5A5A, ByteBuffer.wrap(out).getShort(0), "bytes before outOffset untouched");
                assertEquals(0x5A5A, ByteBuffer.wrap(out).getShort(18), "bytes after the 16 untouched");
                assertEquals(h1, Murmur3Hash.hash128First(data, 3, len, TokenLayout.SEED));
            }
        }
    }

    @Test
    void hash32_equalsGuavaMurmur3_32Fixed_forEveryLengthUpTo100_andEverySignOfTailBytes() {
        Random random = new Random(43);
        for (int len = 0; len <= 100; len++) {
            for (int rep = 0; rep < 20; rep++) {
                byte[] data = new byte[len + 5];
                random.nextBytes(data);
                int seed = rep == 0 ? TokenLayout.SEED : random.nextInt();
                int expected = Hashing.murmur3_32_fixed(seed).hashBytes(data, 5, len).asInt();
                assertEquals(expected, Murmur3Hash.hash32(data, 5, len, seed), "len " + len + " seed " + seed + " rep " + rep);
            }
        }
    }

    /** Published MurmurHash3_x86_32 vectors (SMHasher's algorithm; the usual cross-language test set). */
    @Test
    void hash32_matchesPublishedVectors() {
        assertEquals(0, Murmur3Hash.hash32(new byte[0], 0, 0, 0));
        assertEquals(0x514E28B7, Murmur3Hash.hash32(new byte[0], 0, 0, 1));
        assertEquals(0x81F16F39, Murmur3Hash.hash32(new byte[0], 0, 0, 0xFFFFFFFF));
        assertEquals(0x76293B50, Murmur3Hash.hash32(new byte[]{-1, -1, -1, -1}, 0, 4, 0));
        assertEquals(0xF55B516B, Murmur3Hash.hash32(new byte[]{0x21, 0x43, 0x65, (byte) 0x87}, 0, 4, 0));
        assertEquals(0x2362F9DE, Murmur3Hash.hash32(new byte[4], 0, 4, 0));
        int seed = 0x9747B28C;
        assertEquals(0x7FA09EA6, h32("a", seed));
        assertEquals(0x5D211726, h32("aa", seed));
        assertEquals(0x283E0130, h32("aaa", seed));
        assertEquals(0x5A97808A, h32("aaaa", seed));
        assertEquals(0x24884CBA, h32("Hello, world!", seed));
        assertEquals(0x2FA826CD, h32("The quick brown fox jumps over the lazy dog", seed));
    }

    private static int h32(String s, int seed) {
        byte[] b = s.getBytes(StandardCharsets.UTF_8);
        return Murmur3Hash.hash32(b, 0, b.length, seed);
    }
}
