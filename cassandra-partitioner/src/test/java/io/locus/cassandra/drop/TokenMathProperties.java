package io.locus.cassandra.drop;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.quicktheories.generators.SourceDSL.arbitrary;
import static org.quicktheories.generators.SourceDSL.booleans;
import static org.quicktheories.generators.SourceDSL.doubles;
import static org.quicktheories.generators.SourceDSL.integers;
import static org.quicktheories.generators.SourceDSL.lists;

import java.math.BigDecimal;
import java.math.BigInteger;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;
import org.quicktheories.QuickTheory;
import org.quicktheories.api.Pair;
import org.quicktheories.core.Gen;
import org.quicktheories.generators.Generate;

/**
 * Laws of the ring arithmetic on 48-byte tokens, checked against {@link BigInteger} arithmetic modulo 2^384: the
 * midpoint and split points lie inside their range at the promised offset, and every token is owned by the range
 * {@code (previous, t]} of the first ring token at or after it, wrapping past the largest.
 */
class TokenMathProperties {
    /** Fixed, so that every run checks the same examples; a failure reports it with the smallest example found. */
    private static final long SEED = 0x7E4EED02L;

    private static final int EXAMPLES = 1000;

    private static final BigInteger RING = TokenMath.RING_SIZE;

    private static QuickTheory qt() {
        return QuickTheory.qt().withFixedSeed(SEED).withExamples(EXAMPLES);
    }

    /** Clockwise offset of {@code t} from {@code left}, in [0, 2^384). */
    private static BigInteger offset(byte[] left, byte[] t) {
        return TokenMath.toBigInteger(t).subtract(TokenMath.toBigInteger(left)).mod(RING);
    }

    /** Whether {@code t} lies in {@code (left, right]}; the whole ring when they are equal. */
    private static boolean inRange(byte[] t, byte[] left, byte[] right) {
        return TokenMath.width(left, t).compareTo(TokenMath.width(left, right)) <= 0;
    }

    private static Gen<byte[]> bytes(int n) {
        return Generate.byteArrays(Generate.constant(n), Generate.bytes(Byte.MIN_VALUE, Byte.MAX_VALUE, (byte) 0));
    }

    /** {@code t + k} modulo the ring, computed apart from {@link TokenMath}. */
    private static byte[] plus(byte[] t, int k) {
        byte[] raw = new BigInteger(1, t).add(BigInteger.valueOf(k)).mod(RING).toByteArray();
        byte[] out = new byte[TokenLayout.TOKEN_BYTES];
        int n = Math.min(raw.length, out.length);
        System.arraycopy(raw, raw.length - n, out, out.length - n, n);
        return out;
    }

    /**
     * Random tokens, tokens next to the ends of the ring and to each other (long equal prefixes), and the ends
     * themselves.
     */
    private static Gen<byte[]> token() {
        Gen<byte[]> random = bytes(TokenLayout.TOKEN_BYTES);
        Gen<byte[]> low = bytes(2).map(tail -> {
            byte[] t = new byte[TokenLayout.TOKEN_BYTES];
            t[TokenLayout.TOKEN_BYTES - 2] = tail[0];
            t[TokenLayout.TOKEN_BYTES - 1] = tail[1];
            return t;
        });
        Gen<byte[]> high = low.map(t -> {
            byte[] h = t.clone();
            Arrays.fill(h, 0, TokenLayout.TOKEN_BYTES - 2, (byte) 0xFF);
            return h;
        });
        Gen<byte[]> ends = booleans().all().map(max -> plus(new byte[TokenLayout.TOKEN_BYTES], max ? -1 : 0));
        return Generate.frequency(Pair.of(8, random), Pair.of(2, low), Pair.of(2, high), Pair.of(1, ends))
                .describedAs(TokenMath::toHex);
    }

    private static String describe(Pair<byte[], byte[]> range) {
        return "(" + TokenMath.toHex(range._1) + ", " + TokenMath.toHex(range._2) + "]";
    }

    /**
     * Two tokens: mostly independent ones, else the second {@code k} positions after the first for one of
     * {@code offsets} (the narrowest ranges, and with -1 the widest short of the whole ring).
     */
    private static Gen<Pair<byte[], byte[]>> tokenPair(Integer... offsets) {
        Gen<Pair<byte[], byte[]>> independent = token().zip(token(), Pair::of);
        Gen<Pair<byte[], byte[]>> near = token().zip(arbitrary().pick(offsets), (t, k) -> Pair.of(t, plus(t, k)));
        return Generate.frequency(Pair.of(4, independent), Pair.of(1, near)).describedAs(TokenMathProperties::describe);
    }

    /** Two different tokens; where independent ones are equal, the second is its successor. */
    private static Gen<Pair<byte[], byte[]>> distinctTokens() {
        return tokenPair(1, 2, 3, -1)
                .map(p -> Arrays.equals(p._1, p._2) ? Pair.of(p._1, plus(p._2, 1)) : p)
                .describedAs(TokenMathProperties::describe);
    }

    /** Ratios in [0, 1]: any double, and the hundredths (0 and 1 among them). */
    private static Gen<Double> ratio() {
        return Generate.oneOf(
                doubles().between(0, 1), integers().between(0, 100).map(i -> i / 100.0));
    }

    /** A ring of 1 to 24 distinct tokens, owners 0..n-1 in the order given. */
    private static Gen<List<byte[]>> ringTokens() {
        return lists().of(token())
                .ofSizeBetween(1, 24)
                .map(tokens -> {
                    Map<BigInteger, byte[]> distinct = new LinkedHashMap<>();
                    tokens.forEach(t -> distinct.putIfAbsent(new BigInteger(1, t), t));
                    return (List<byte[]>) new ArrayList<>(distinct.values());
                })
                .describedAs(
                        tokens -> tokens.stream().map(TokenMath::toHex).collect(Collectors.joining(", ", "[", "]")));
    }

    @Test
    void bigIntegerAndHex_roundTrip() {
        qt().forAll(token()).checkAssert(t -> {
            assertArrayEquals(t, TokenMath.fromBigInteger(TokenMath.toBigInteger(t)));
            assertArrayEquals(t, TokenMath.fromHex(TokenMath.toHex(t)));
        });
    }

    @Test
    void increment_isPlusOneModuloTheRing_andDecrementUndoesIt() {
        qt().forAll(token()).checkAssert(t -> {
            byte[] next = TokenMath.increment(t);
            assertEquals(TokenMath.toBigInteger(t).add(BigInteger.ONE).mod(RING), TokenMath.toBigInteger(next));
            assertArrayEquals(t, TokenMath.decrement(next));
        });
    }

    @Test
    void midpoint_liesInTheRange_halfItsWidthFromTheLeft() {
        qt().forAll(tokenPair(0, 1, 2, 3, -1)).checkAssert(range -> {
            byte[] left = range._1;
            byte[] right = range._2;
            byte[] mid = TokenMath.midpoint(left, right);
            BigInteger width = TokenMath.width(left, right);
            assertTrue(inRange(mid, left, right), "midpoint outside its range");
            BigInteger expected = width.equals(BigInteger.ONE) ? BigInteger.ONE : width.shiftRight(1);
            assertEquals(expected, offset(left, mid));
        });
    }

    /** On a range of two different tokens (on the whole ring ratio 1 comes back to the left end). */
    @Test
    void split_liesInTheRange_atTheRatioOfItsWidth_inOrderOfRatio() {
        qt().forAll(distinctTokens(), ratio(), ratio()).checkAssert((range, r1, r2) -> {
            byte[] left = range._1;
            byte[] right = range._2;
            BigInteger width = TokenMath.width(left, right);
            BigInteger o1 = offset(left, TokenMath.split(left, right, r1));
            BigInteger o2 = offset(left, TokenMath.split(left, right, r2));
            for (double r : new double[] {r1, r2}) {
                BigInteger o = r == r1 ? o1 : o2;
                assertTrue(o.compareTo(width) <= 0, "split " + r + " past the right end");
                BigDecimal exact = new BigDecimal(width).multiply(new BigDecimal(r));
                BigDecimal error = exact.subtract(new BigDecimal(o));
                assertTrue(
                        error.signum() >= 0 && error.compareTo(BigDecimal.ONE) < 0, "split " + r + " off by " + error);
            }
            if (r1 <= r2) {
                assertTrue(o1.compareTo(o2) <= 0, "split points out of ratio order");
            }
            assertEquals(BigInteger.ZERO, offset(left, TokenMath.split(left, right, 0)));
            assertArrayEquals(right, TokenMath.split(left, right, 1));
        });
    }

    @Test
    void ownerOf_isTheOwnerOfTheFirstRingTokenAtOrAfterIt() {
        qt().forAll(ringTokens(), token(), integers().between(0, 23), integers().between(-1, 1))
                .checkAssert((tokens, random, pick, nudge) -> {
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
                });
    }

    /** Splitting a range into parts by increasing ratios gives parts that cover it exactly, in ring order. */
    @Test
    void splitPoints_coverTheRange_inRingOrder() {
        qt().forAll(distinctTokens(), integers().between(1, 16)).checkAssert((range, parts) -> {
            byte[] left = range._1;
            byte[] right = range._2;
            BigInteger previous = BigInteger.ZERO;
            for (int i = 1; i <= parts; i++) {
                BigInteger o = offset(left, TokenMath.split(left, right, (double) i / parts));
                assertTrue(o.compareTo(previous) >= 0, "part " + i + " ends before part " + (i - 1));
                previous = o;
            }
            assertEquals(TokenMath.width(left, right), previous);
        });
    }
}
