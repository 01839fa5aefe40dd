package io.locus.cassandra.drop;

import java.util.Random;

import com.google.common.hash.HashCode;
import com.google.common.hash.Hashing;
import org.junit.jupiter.api.Test;

import static org.junit.jupiter.api.Assertions.assertEquals;

class Murmur3HashTest {
    @Test
    void hash128_equalsGuavaMurmur3_128_forEveryLengthUpTo100() {
        Random random = new Random(42);
        long[] out = new long[2];
        for (int len = 0; len <= 100; len++) {
            for (int rep = 0; rep < 20; rep++) {
                byte[] data = new byte[len + 3];
                random.nextBytes(data);
                HashCode expected = Hashing.murmur3_128(TokenLayout.SEED).hashBytes(data, 3, len);
                Murmur3Hash.hash128(data, 3, len, TokenLayout.SEED, out);
                byte[] b = expected.asBytes();
                long h1 = java.nio.ByteBuffer.wrap(b, 0, 8).order(java.nio.ByteOrder.LITTLE_ENDIAN).getLong();
                long h2 = java.nio.ByteBuffer.wrap(b, 8, 8).order(java.nio.ByteOrder.LITTLE_ENDIAN).getLong();
                assertEquals(h1, out[0], "h1, len " + len + " seed 42 rep " + rep);
                assertEquals(h2, out[1], "h2, len " + len + " seed 42 rep " + rep);
                assertEquals(expected.asInt() & 0xFFFF_FFFFL, Murmur3Hash.low32(data, 3, len, TokenLayout.SEED));
            }
        }
    }
}
