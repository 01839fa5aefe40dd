package io.locus.memcached.protocol;

import java.math.BigInteger;
import java.nio.charset.StandardCharsets;

/**
 * Numbers in a command line's bytes, checked the way memcached's {@code safe_strtoul}, {@code safe_strtoull} and
 * {@code safe_strtol} check them, so the proxy refuses exactly the lines memcached refuses.
 */
final class Tokens {
    private Tokens() {}

    /** A non-negative decimal length up to {@link Integer#MAX_VALUE}, or -1. */
    static long parseLength(byte[] b, int from, int to) {
        if (from < to && b[from] == '+') {
            from++;
        }
        if (from == to || to - from > 10) {
            return -1;
        }
        long v = 0;
        for (int i = from; i < to; i++) {
            byte c = b[i];
            if (c < '0' || c > '9') {
                return -1;
            }
            v = v * 10 + (c - '0');
        }
        return v > Integer.MAX_VALUE ? -1 : v;
    }

    /** As memcached's safe_strtoul/strtoull: optional '+', decimal digits, value below 2^64, no '-'. */
    static boolean isUint64(byte[] b, int from, int to) {
        int d = from < to && b[from] == '+' ? from + 1 : from;
        if (!allDigits(b, d, to)) {
            return false;
        }
        if (to - d < 20) {
            return true; // below 10^19 < 2^64
        }
        return new BigInteger(new String(b, d, to - d, StandardCharsets.US_ASCII)).bitLength() <= 64;
    }

    /** As memcached's safe_strtol: optional sign, decimal digits, value within a 32-bit int. */
    static boolean isInt32(byte[] b, int from, int to) {
        boolean negative = from < to && b[from] == '-';
        int d = from < to && (b[from] == '+' || negative) ? from + 1 : from;
        if (!allDigits(b, d, to) || to - d > 12) {
            return false;
        }
        long v = 0;
        for (int i = d; i < to; i++) {
            v = v * 10 + (b[i] - '0');
        }
        return negative ? v <= 1L + Integer.MAX_VALUE : v <= Integer.MAX_VALUE;
    }

    private static boolean allDigits(byte[] b, int from, int to) {
        if (from == to || to - from > 40) {
            return false;
        }
        for (int i = from; i < to; i++) {
            if (b[i] < '0' || b[i] > '9') {
                return false;
            }
        }
        return true;
    }

    static String truncate(String s) {
        return s.length() <= 64 ? s : s.substring(0, 64) + "...(" + s.length() + " chars)";
    }
}
