package io.locus.cassandra.drop;

import static org.junit.jupiter.api.Assertions.assertEquals;

import com.google.common.hash.HashCode;
import com.google.common.hash.Hashing;
import java.nio.ByteBuffer;
import java.util.Arrays;
import java.util.Random;
import org.junit.jupiter.api.Test;

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
}
