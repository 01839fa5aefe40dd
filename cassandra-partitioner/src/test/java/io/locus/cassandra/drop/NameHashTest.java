package io.locus.cassandra.drop;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.math.BigInteger;
import java.nio.charset.StandardCharsets;
import java.util.Random;
import org.junit.jupiter.api.Test;

class NameHashTest {
    private static final BigInteger TWO_64 = BigInteger.ONE.shiftLeft(64);

    @Test
    void hash32_equalsTheDefinition_forEveryLengthUpTo100_atAnyOffset() {
        Random random = new Random(44);
        for (int len = 0; len <= 100; len++) {
            for (int rep = 0; rep < 20; rep++) {
                byte[] data = new byte[len + 5];
                random.nextBytes(data);
                assertEquals(definition(data, 5, len), NameHash.hash32(data, 5, len), "len " + len + " rep " + rep);
            }
        }
    }

    /** Values from an independent Python implementation of the definition (pinned: the token format depends on them). */
    @Test
    void hash32_matchesPinnedVectors() {
        assertEquals(0xD02437D8, h32(""));
        assertEquals(0xC8ECF40A, h32("a"));
        assertEquals(0x03B290C5, h32("usr"));
        assertEquals(0xEA659235, h32("bin"));
        assertEquals(0x87037B64, h32("abcdefgh"));
        assertEquals(0x9349DDF9, h32("changelog.Debian.gz"));
        byte[] ff = new byte[9];
        java.util.Arrays.fill(ff, (byte) 0xFF);
        assertEquals(0x5F5253CD, NameHash.hash32(ff, 0, 9));
    }

    private static int h32(String s) {
        byte[] b = s.getBytes(StandardCharsets.UTF_8);
        return NameHash.hash32(b, 0, b.length);
    }

    /** The class comment's definition, word by word in unsigned BigInteger arithmetic modulo 2^64. */
    private static int definition(byte[] data, int offset, int length) {
        BigInteger m1 = new BigInteger("9E3779B97F4A7C15", 16);
        BigInteger m2 = new BigInteger("D6E8FEB86659FD93", 16);
        BigInteger h = BigInteger.valueOf(0x44524F50L);
        for (int word = 0; word <= length / 8; word++) {
            BigInteger w = BigInteger.ZERO;
            for (int i = 7; i >= 0; i--) {
                int at = 8 * word + i;
                w = w.shiftLeft(8).or(BigInteger.valueOf(at < length ? data[offset + at] & 0xFF : 0));
            }
            h = h.xor(w).multiply(m1).mod(TWO_64);
            h = h.xor(h.shiftRight(32));
        }
        BigInteger x = h.xor(BigInteger.valueOf(length));
        x = x.xor(x.shiftRight(29)).multiply(m2).mod(TWO_64);
        return x.shiftRight(32).intValue();
    }
}
