package io.locus.memcached.protocol;

import io.netty.buffer.ByteBuf;
import java.math.BigInteger;
import java.nio.charset.StandardCharsets;

/**
 * Numbers in a command line's bytes (absolute indices into a buffer), checked the way memcached's {@code safe_strtoul}, {@code safe_strtoull} and
 * {@code safe_strtol} check them, so the proxy refuses exactly the lines memcached refuses.
 */
public final class Tokens {
    private Tokens() {}

    /** A non-negative decimal length up to {@link Integer#MAX_VALUE}, or -1. */
    static long parseLength(ByteBuf b, int from, int to) {
        if (from < to && b.getByte(from) == '+') {
            from++;
        }
        long v = decimal(b, from, to, 10);
        return v > Integer.MAX_VALUE ? -1 : v;
    }

    /** The unsigned decimal of 1 to {@code maxDigits} (at most 18) digits in {@code [from, to)}, or -1. */
    public static long decimal(ByteBuf b, int from, int to, int maxDigits) {
        if (from == to || to - from > maxDigits) {
            return -1;
        }
        long v = 0;
        for (int i = from; i < to; i++) {
            byte c = b.getByte(i);
            if (c < '0' || c > '9') {
                return -1;
            }
            v = v * 10 + (c - '0');
        }
        return v;
    }

    /** As memcached's safe_strtoul/strtoull: optional '+', decimal digits, value below 2^64, no '-'. */
    static boolean isUint64(ByteBuf b, int from, int to) {
        int d = from < to && b.getByte(from) == '+' ? from + 1 : from;
        if (!allDigits(b, d, to)) {
            return false;
        }
        if (to - d < 20) {
            return true; // below 10^19 < 2^64
        }
        return new BigInteger(b.toString(d, to - d, StandardCharsets.US_ASCII)).bitLength() <= 64;
    }

    /** As memcached's safe_strtol: optional sign, decimal digits, value within a 32-bit int. */
    static boolean isInt32(ByteBuf b, int from, int to) {
        boolean negative = from < to && b.getByte(from) == '-';
        int d = from < to && (b.getByte(from) == '+' || negative) ? from + 1 : from;
        if (!allDigits(b, d, to) || to - d > 12) {
            return false;
        }
        long v = 0;
        for (int i = d; i < to; i++) {
            v = v * 10 + (b.getByte(i) - '0');
        }
        return negative ? v <= 1L + Integer.MAX_VALUE : v <= Integer.MAX_VALUE;
    }

    /**
     * As memcached's {@code safe_strtol} (with C's 64-bit {@code long}) when {@code unsigned} is false, else as its
     * {@code safe_strtoul}/{@code safe_strtoull}: leading white space, an optional sign, decimal digits within range,
     * then the end or white space; unsigned, a value that wraps below zero as a signed number must not have a '-'.
     */
    static boolean isCNumber(ByteBuf b, int from, int to, boolean unsigned) {
        int i = from;
        while (i < to && isCSpace(b.getByte(i))) {
            i++;
        }
        boolean negative = i < to && b.getByte(i) == '-';
        if (i < to && (negative || b.getByte(i) == '+')) {
            i++;
        }
        int digits = i;
        long v = 0; // unsigned magnitude
        for (; i < to && b.getByte(i) >= '0' && b.getByte(i) <= '9'; i++) {
            int d = b.getByte(i) - '0';
            if (Long.compareUnsigned(v, Long.divideUnsigned(-1L - d, 10)) > 0) {
                return false; // ERANGE
            }
            v = v * 10 + d;
        }
        if (i == digits || (i < to && !isCSpace(b.getByte(i)))) {
            return false;
        }
        if (!unsigned) {
            return Long.compareUnsigned(v, negative ? Long.MIN_VALUE : Long.MAX_VALUE) <= 0;
        }
        long value = negative ? -v : v;
        return value >= 0 || b.indexOf(from, to, (byte) '-') < 0;
    }

    private static boolean isCSpace(byte c) {
        return c == ' ' || (c >= '\t' && c <= '\r');
    }

    private static boolean allDigits(ByteBuf b, int from, int to) {
        if (from == to || to - from > 40) {
            return false;
        }
        for (int i = from; i < to; i++) {
            if (b.getByte(i) < '0' || b.getByte(i) > '9') {
                return false;
            }
        }
        return true;
    }

    static String truncate(String s) {
        return s.length() <= 64 ? s : s.substring(0, 64) + "...(" + s.length() + " chars)";
    }
}
