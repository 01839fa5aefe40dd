package io.locus.cassandra.drop;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.math.BigInteger;
import java.util.Random;
import org.junit.jupiter.api.Test;

class TokenMathTest {
    private static final Random RANDOM = new Random(11);

    private static byte[] random() {
        byte[] t = new byte[48];
        RANDOM.nextBytes(t);
        return t;
    }

    @Test
    void bigIntegerRoundTrip_keepsEveryByte() {
        for (int i = 0; i < 1000; i++) {
            byte[] t = random();
            assertArrayEquals(t, TokenMath.fromBigInteger(TokenMath.toBigInteger(t)));
        }
        assertArrayEquals(TokenMath.minimum(), TokenMath.fromBigInteger(TokenMath.RING_SIZE));
    }

    @Test
    void midpoint_ofWholeRingFromMinimum_isHalfTheRing() {
        byte[] mid = TokenMath.midpoint(TokenMath.minimum(), TokenMath.minimum());
        assertEquals(TokenMath.RING_SIZE.shiftRight(1), TokenMath.toBigInteger(mid));
    }

    @Test
    void midpoint_ofAdjacentTokens_isTheRightOne() {
        byte[] a = random();
        byte[] b = TokenMath.increment(a);
        assertArrayEquals(b, TokenMath.midpoint(a, b));
    }

    @Test
    void split_atZeroAndOne_givesTheEnds_andRejectsRatiosOutside() {
        byte[] a = random();
        byte[] b = random();
        assertArrayEquals(a, TokenMath.split(a, b, 0));
        assertArrayEquals(b, TokenMath.split(a, b, 1));
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> TokenMath.split(a, b, 1.5));
        assertEquals("ratioToLeft 1.5 (expected: within [0, 1])", e.getMessage());
    }

    @Test
    void split_isExactOver384Bits_soEveryPartEndsInsideItsRange_wrappingOrNot() {
        // A 384-bit width has 116 decimal digits: rounding the product to fewer (DECIMAL128 has 34) put the end of
        // Cassandra's last split part (ratio 1.0) past the range's right token.
        for (int i = 0; i < 2000; i++) {
            byte[] a = random();
            byte[] b = random();
            BigInteger width = TokenMath.width(a, b);
            assertArrayEquals(b, TokenMath.split(a, b, 1.0), "ratio 1, range " + i);
            double ratio = RANDOM.nextDouble();
            BigInteger offset = TokenMath.toBigInteger(TokenMath.split(a, b, ratio))
                    .subtract(TokenMath.toBigInteger(a))
                    .mod(TokenMath.RING_SIZE);
            assertTrue(offset.compareTo(width) <= 0, "split at " + ratio + " beyond the range, range " + i);
            assertEquals(
                    new java.math.BigDecimal(width)
                            .multiply(new java.math.BigDecimal(ratio))
                            .toBigInteger(),
                    offset,
                    "split at " + ratio + ", range " + i);
        }
    }

    @Test
    void incrementAndDecrement_wrapAtTheEnds() {
        assertArrayEquals(TokenMath.minimum(), TokenMath.increment(TokenMath.maximum()));
        assertArrayEquals(TokenMath.maximum(), TokenMath.decrement(TokenMath.minimum()));
        byte[] t = random();
        assertArrayEquals(t, TokenMath.decrement(TokenMath.increment(t)));
        assertEquals(
                TokenMath.toBigInteger(t).add(BigInteger.ONE).mod(TokenMath.RING_SIZE),
                TokenMath.toBigInteger(TokenMath.increment(t)));
    }

    @Test
    void hex_roundTrips_andBadTextGivesClearMessages() {
        byte[] t = random();
        assertArrayEquals(t, TokenMath.fromHex(TokenMath.toHex(t)));
        assertArrayEquals(t, TokenMath.fromHex("0x" + TokenMath.toHex(t).toUpperCase()));
        IllegalArgumentException shortText =
                assertThrows(IllegalArgumentException.class, () -> TokenMath.fromHex("abc"));
        assertEquals(
                "DROP token \"abc\" has 3 hex digits (expected: exactly 96, optionally prefixed by 0x)",
                shortText.getMessage());
        String bad = "g" + TokenMath.toHex(t).substring(1);
        IllegalArgumentException nonHex = assertThrows(IllegalArgumentException.class, () -> TokenMath.fromHex(bad));
        assertTrue(nonHex.getMessage().contains("non-hex character 'g' at index 0"), nonHex.getMessage());
    }

    @Test
    void ringFraction_ofEqualTokens_isOne_andHalvesAddUp() {
        byte[] a = random();
        assertEquals(1.0, TokenMath.ringFraction(a, a));
        byte[] mid = TokenMath.midpoint(a, a);
        assertEquals(1.0, TokenMath.ringFraction(a, mid) + TokenMath.ringFraction(mid, a), 1e-12);
    }

    @Test
    void randomBoundary_isNeverMinimum_andCutsNoDeeperThanLevel2() {
        Random r = new Random(3);
        for (int i = 0; i < 1000; i++) {
            byte[] t = TokenMath.randomBoundary(r);
            assertTrue(TokenLayout.levelCode(t, 1) >= 1 && TokenLayout.levelCode(t, 1) <= 0xFFFE);
            assertEquals(2, TokenLayout.parentDepth(t));
            assertEquals(0, TokenLayout.readInt(t, TokenLayout.NAME_OFFSET));
        }
    }
}
