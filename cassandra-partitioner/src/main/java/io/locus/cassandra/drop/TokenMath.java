package io.locus.cassandra.drop;

import static io.locus.cassandra.drop.TokenLayout.TOKEN_BYTES;

import java.math.BigDecimal;
import java.math.BigInteger;
import java.math.MathContext;
import java.util.Arrays;
import java.util.Random;

/**
 * Arithmetic on 48-byte tokens seen as points on a ring of 2^384 positions (unsigned big-endian integers).
 *
 * <p>Ranges follow Cassandra: {@code (left, right]}; {@code left == right} is the whole ring. All methods are pure,
 * thread-safe and leave their arguments unchanged.
 */
public final class TokenMath {
    /** Number of positions on the ring: 2^384. */
    public static final BigInteger RING_SIZE = BigInteger.ONE.shiftLeft(8 * TOKEN_BYTES);

    private static final BigInteger MAX_VALUE = RING_SIZE.subtract(BigInteger.ONE);
    private static final char[] HEX_DIGITS = "0123456789abcdef".toCharArray();

    private TokenMath() {}

    /** Unsigned lexicographic comparison (the token order). */
    public static int compare(byte[] a, byte[] b) {
        return Arrays.compareUnsigned(a, b);
    }

    /** The all-zero token (Cassandra's minimum token: legal in range scans, never assigned to a key or node). */
    public static byte[] minimum() {
        return new byte[TOKEN_BYTES];
    }

    /** The all-0xFF token, the largest position on the ring. */
    public static byte[] maximum() {
        byte[] t = new byte[TOKEN_BYTES];
        Arrays.fill(t, (byte) 0xFF);
        return t;
    }

    /** The token as a non-negative integer in [0, 2^384). */
    public static BigInteger toBigInteger(byte[] token) {
        return new BigInteger(1, token);
    }

    /** The token at position {@code value mod 2^384}. */
    public static byte[] fromBigInteger(BigInteger value) {
        BigInteger v = value.mod(RING_SIZE);
        byte[] raw = v.toByteArray();
        byte[] t = new byte[TOKEN_BYTES];
        int n = Math.min(raw.length, TOKEN_BYTES);
        System.arraycopy(raw, raw.length - n, t, TOKEN_BYTES - n, n);
        return t;
    }

    /** Clockwise distance from {@code left} to {@code right}; the whole ring (2^384) if they are equal. */
    public static BigInteger width(byte[] left, byte[] right) {
        BigInteger d = toBigInteger(right).subtract(toBigInteger(left)).mod(RING_SIZE);
        return d.signum() == 0 ? RING_SIZE : d;
    }

    /**
     * A token inside {@code (left, right]}, halfway round the ring from {@code left} (rounded down), or {@code right}
     * when the range holds a single position. Wrapping ranges and {@code left == right} (whole ring) are allowed.
     */
    public static byte[] midpoint(byte[] left, byte[] right) {
        BigInteger w = width(left, right);
        if (w.equals(BigInteger.ONE)) {
            return right.clone();
        }
        return fromBigInteger(toBigInteger(left).add(w.shiftRight(1)));
    }

    /**
     * The token that splits {@code (left, right]} so that {@code ratioToLeft} of its width lies left of it.
     *
     * @throws IllegalArgumentException if {@code ratioToLeft} is not within [0, 1]
     */
    public static byte[] split(byte[] left, byte[] right, double ratioToLeft) {
        if (!(ratioToLeft >= 0 && ratioToLeft <= 1)) {
            throw new IllegalArgumentException("ratioToLeft " + ratioToLeft + " (expected: within [0, 1])");
        }
        // Exact product (no MathContext): a 384-bit width has 116 decimal digits, and any rounding can push the
        // result of ratio 1.0 past the right end (Cassandra's Splitter ends its last part there).
        BigInteger step = new BigDecimal(width(left, right))
                .multiply(new BigDecimal(ratioToLeft))
                .toBigInteger();
        return fromBigInteger(toBigInteger(left).add(step));
    }

    /** Fraction of the ring covered by {@code (left, right]}, in (0, 1]; 1 when the tokens are equal. */
    public static double ringFraction(byte[] left, byte[] right) {
        return new BigDecimal(width(left, right))
                .divide(new BigDecimal(RING_SIZE), MathContext.DECIMAL64)
                .doubleValue();
    }

    /** The next token in ring order; the maximum wraps to the minimum. */
    public static byte[] increment(byte[] token) {
        byte[] t = token.clone();
        for (int i = TOKEN_BYTES - 1; i >= 0; i--) {
            if (++t[i] != 0) {
                break;
            }
        }
        return t;
    }

    /** The previous token in ring order; the minimum wraps to the maximum. */
    public static byte[] decrement(byte[] token) {
        byte[] t = token.clone();
        for (int i = TOKEN_BYTES - 1; i >= 0; i--) {
            if (t[i]-- != 0) {
                break;
            }
        }
        return t;
    }

    /** 96 lower-case hex digits. */
    public static String toHex(byte[] token) {
        char[] hex = new char[2 * token.length];
        for (int i = 0; i < token.length; i++) {
            hex[2 * i] = HEX_DIGITS[(token[i] >> 4) & 0xF];
            hex[2 * i + 1] = HEX_DIGITS[token[i] & 0xF];
        }
        return new String(hex);
    }

    /**
     * Parses 96 hex digits (either case, optional {@code 0x} prefix).
     *
     * @throws IllegalArgumentException with the offending text if it is not exactly 96 hex digits
     */
    public static byte[] fromHex(String text) {
        String s = text.startsWith("0x") || text.startsWith("0X") ? text.substring(2) : text;
        if (s.length() != 2 * TOKEN_BYTES) {
            throw new IllegalArgumentException("DROP token \"" + abbreviate(text) + "\" has " + s.length()
                    + " hex digits (expected: exactly " + 2 * TOKEN_BYTES + ", optionally prefixed by 0x)");
        }
        for (int i = 0; i < s.length(); i++) {
            if (hexValue(s.charAt(i)) < 0) {
                throw new IllegalArgumentException("DROP token \"" + abbreviate(text) + "\" has non-hex character '"
                        + s.charAt(i) + "' at index " + i + " (expected: 0-9, a-f)");
            }
        }
        byte[] token = new byte[TOKEN_BYTES];
        for (int i = 0; i < TOKEN_BYTES; i++) {
            token[i] = (byte) (hexValue(s.charAt(2 * i)) << 4 | hexValue(s.charAt(2 * i + 1)));
        }
        return token;
    }

    /** 0-15 for an ASCII hex digit of either case, -1 for anything else (Character.digit also takes other scripts). */
    private static int hexValue(char c) {
        if (c >= '0' && c <= '9') {
            return c - '0';
        }
        if (c >= 'a' && c <= 'f') {
            return c - 'a' + 10;
        }
        return c >= 'A' && c <= 'F' ? c - 'A' + 10 : -1;
    }

    /**
     * A token that looks like a boundary between depth-2 subtrees: random non-zero level-1 and level-2 codes, zeros
     * after. Such a token never cuts a subtree deeper than level 1 and is never the minimum.
     */
    public static byte[] randomBoundary(Random random) {
        byte[] t = new byte[TOKEN_BYTES];
        TokenLayout.putShort(t, 0, 1 + random.nextInt(0xFFFE));
        TokenLayout.putShort(t, 2, 1 + random.nextInt(0xFFFE));
        return t;
    }

    private static String abbreviate(String s) {
        return s.length() <= 120 ? s : s.substring(0, 117) + "...";
    }
}
