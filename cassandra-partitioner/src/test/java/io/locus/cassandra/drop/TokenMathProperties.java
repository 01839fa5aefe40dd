package io.locus.cassandra.drop;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.math.BigDecimal;
import java.math.BigInteger;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.Assume;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;
import net.jqwik.api.Tuple;
import net.jqwik.api.constraints.DoubleRange;
import net.jqwik.api.constraints.IntRange;

/**
 * Laws of the ring arithmetic on 48-byte tokens, checked against {@link BigInteger} arithmetic modulo 2^384: the
 * midpoint and split points lie inside their range at the promised offset, and every token is owned by the range
 * {@code (previous, t]} of the first ring token at or after it, wrapping past the largest.
 */
class TokenMathProperties {
    private static final BigInteger RING = TokenMath.RING_SIZE;

    /** Clockwise offset of {@code t} from {@code left}, in [0, 2^384). */
    private static BigInteger offset(byte[] left, byte[] t) {
        return TokenMath.toBigInteger(t).subtract(TokenMath.toBigInteger(left)).mod(RING);
    }

    /** Whether {@code t} lies in {@code (left, right]}; the whole ring when they are equal. */
    private static boolean inRange(byte[] t, byte[] left, byte[] right) {
        return TokenMath.width(left, t).compareTo(TokenMath.width(left, right)) <= 0;
    }

    /** Random tokens, and tokens next to the ends of the ring and to each other (long equal prefixes). */
    @Provide
    Arbitrary<byte[]> token() {
        Arbitrary<byte[]> random = Arbitraries.bytes().array(byte[].class).ofSize(TokenLayout.TOKEN_BYTES);
        Arbitrary<byte[]> low = Arbitraries.bytes()
                .array(byte[].class)
                .ofSize(2)
                .map(tail -> {
                    byte[] t = new byte[TokenLayout.TOKEN_BYTES];
                    t[TokenLayout.TOKEN_BYTES - 2] = tail[0];
                    t[TokenLayout.TOKEN_BYTES - 1] = tail[1];
                    return t;
                });
        Arbitrary<byte[]> high = low.map(t -> {
            byte[] h = t.clone();
            Arrays.fill(h, 0, TokenLayout.TOKEN_BYTES - 2, (byte) 0xFF);
            return h;
        });
        return Arbitraries.frequencyOf(Tuple.of(4, random), Tuple.of(1, low), Tuple.of(1, high))
                .map(byte[]::clone);
    }

    @Property
    void bigIntegerAndHex_roundTrip(@ForAll("token") byte[] t) {
        assertArrayEquals(t, TokenMath.fromBigInteger(TokenMath.toBigInteger(t)));
        assertArrayEquals(t, TokenMath.fromHex(TokenMath.toHex(t)));
    }

    @Property
    void increment_isPlusOneModuloTheRing_andDecrementUndoesIt(@ForAll("token") byte[] t) {
        byte[] next = TokenMath.increment(t);
        assertEquals(TokenMath.toBigInteger(t).add(BigInteger.ONE).mod(RING), TokenMath.toBigInteger(next));
        assertArrayEquals(t, TokenMath.decrement(next));
    }

    @Property
    void midpoint_liesInTheRange_halfItsWidthFromTheLeft(@ForAll("token") byte[] left, @ForAll("token") byte[] right) {
        byte[] mid = TokenMath.midpoint(left, right);
        BigInteger width = TokenMath.width(left, right);
        assertTrue(inRange(mid, left, right), "midpoint outside its range");
        BigInteger expected = width.equals(BigInteger.ONE) ? BigInteger.ONE : width.shiftRight(1);
        assertEquals(expected, offset(left, mid));
    }

    @Property
    void split_liesInTheRange_atTheRatioOfItsWidth_inOrderOfRatio(
            @ForAll("token") byte[] left,
            @ForAll("token") byte[] right,
            @ForAll @DoubleRange(min = 0, max = 1) double r1,
            @ForAll @DoubleRange(min = 0, max = 1) double r2) {
        Assume.that(!Arrays.equals(left, right)); // on the whole ring ratio 1 comes back to the left end
        BigInteger width = TokenMath.width(left, right);
        BigInteger o1 = offset(left, TokenMath.split(left, right, r1));
        BigInteger o2 = offset(left, TokenMath.split(left, right, r2));
        for (double r : new double[] {r1, r2}) {
            BigInteger o = r == r1 ? o1 : o2;
            assertTrue(o.compareTo(width) <= 0, "split " + r + " past the right end");
            BigDecimal exact = new BigDecimal(width).multiply(new BigDecimal(r));
            BigDecimal error = exact.subtract(new BigDecimal(o));
            assertTrue(error.signum() >= 0 && error.compareTo(BigDecimal.ONE) < 0, "split " + r + " off by " + error);
        }
        if (r1 <= r2) {
            assertTrue(o1.compareTo(o2) <= 0, "split points out of ratio order");
        }
        assertEquals(BigInteger.ZERO, offset(left, TokenMath.split(left, right, 0)));
        assertArrayEquals(right, TokenMath.split(left, right, 1));
    }

    /** A ring of distinct tokens, owners 0..n-1 in the order given. */
    @Provide
    Arbitrary<List<byte[]>> ringTokens() {
        return token().list().ofMinSize(1).ofMaxSize(24).uniqueElements(t -> new BigInteger(1, t));
    }

    @Property
    void ownerOf_isTheOwnerOfTheFirstRingTokenAtOrAfterIt(
            @ForAll("ringTokens") List<byte[]> tokens,
            @ForAll("token") byte[] random,
            @ForAll @IntRange(min = 0, max = 23) int pick,
            @ForAll @IntRange(min = -1, max = 1) int nudge) {
        List<Integer> owners = new ArrayList<>();
        for (int i = 0; i < tokens.size(); i++) {
            owners.add(i);
        }
        Ring ring = new Ring(tokens, owners);
        // A ring token itself or its neighbour (the edges of a range), or any token.
        byte[] near = tokens.get(pick % tokens.size());
        byte[] t = nudge < 0 ? TokenMath.decrement(near) : nudge > 0 ? TokenMath.increment(near) : near;
        for (byte[] probe : List.of(t, random)) {
            int expected = -1;
            BigInteger best = null;
            for (int i = 0; i < tokens.size(); i++) {
                BigInteger d = offset(probe, tokens.get(i));
                if (best == null || d.compareTo(best) < 0) {
                    best = d;
                    expected = i;
                }
            }
            assertEquals(expected, ring.ownerOf(probe), "owner of " + TokenMath.toHex(probe));
            int range = ring.rangeOf(probe);
            byte[] previous = ring.token(Math.floorMod(range - 1, ring.size()));
            assertTrue(inRange(probe, previous, ring.token(range)), "token outside the range it is given");
        }
    }

    /** Splitting a range into parts by increasing ratios gives parts that cover it exactly, in ring order. */
    @Property
    void splitPoints_coverTheRange_inRingOrder(
            @ForAll("token") byte[] left,
            @ForAll("token") byte[] right,
            @ForAll @IntRange(min = 1, max = 16) int parts) {
        Assume.that(!Arrays.equals(left, right));
        BigInteger previous = BigInteger.ZERO;
        for (int i = 1; i <= parts; i++) {
            BigInteger o = offset(left, TokenMath.split(left, right, (double) i / parts));
            assertTrue(o.compareTo(previous) >= 0, "part " + i + " ends before part " + (i - 1));
            previous = o;
        }
        assertEquals(TokenMath.width(left, right), previous);
    }
}
