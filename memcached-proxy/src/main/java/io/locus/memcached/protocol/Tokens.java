package io.locus.memcached.protocol;

import java.util.ArrayList;
import java.util.List;

/**
 * The tokens of a command line as memcached reads them: split on spaces, numbers checked the way its {@code
 * safe_strtoul}, {@code safe_strtoull} and {@code safe_strtol} check them, so the proxy refuses exactly the lines
 * memcached refuses.
 */
final class Tokens {
    private Tokens() {}

    /** Splits on runs of spaces, as memcached does (a tab is part of a token). */
    static List<String> tokenize(String line) {
        List<String> tokens = new ArrayList<>();
        int i = 0;
        int n = line.length();
        while (i < n) {
            while (i < n && line.charAt(i) == ' ') {
                i++;
            }
            int s = i;
            while (i < n && line.charAt(i) != ' ') {
                i++;
            }
            if (i > s) {
                tokens.add(line.substring(s, i));
            }
        }
        return tokens;
    }

    /** A non-negative decimal length up to {@link Integer#MAX_VALUE}, or -1. */
    static long parseLength(String s) {
        if (s.startsWith("+")) {
            s = s.substring(1);
        }
        if (s.isEmpty() || s.length() > 10) {
            return -1;
        }
        long v = 0;
        for (int i = 0; i < s.length(); i++) {
            char c = s.charAt(i);
            if (c < '0' || c > '9') {
                return -1;
            }
            v = v * 10 + (c - '0');
        }
        return v > Integer.MAX_VALUE ? -1 : v;
    }

    /** As memcached's safe_strtoul/strtoull: optional '+', decimal digits, value below 2^64, no '-'. */
    static boolean isUint64(String s) {
        String d = s.startsWith("+") ? s.substring(1) : s;
        if (!allDigits(d)) {
            return false;
        }
        return new java.math.BigInteger(d).bitLength() <= 64;
    }

    /** As memcached's safe_strtol: optional sign, decimal digits, value within a 32-bit int. */
    static boolean isInt32(String s) {
        String d = s.startsWith("+") || s.startsWith("-") ? s.substring(1) : s;
        if (!allDigits(d) || d.length() > 12) {
            return false;
        }
        long v = Long.parseLong(d);
        return s.startsWith("-") ? v <= 1L + Integer.MAX_VALUE : v <= Integer.MAX_VALUE;
    }

    private static boolean allDigits(String d) {
        if (d.isEmpty() || d.length() > 40) {
            return false;
        }
        for (int i = 0; i < d.length(); i++) {
            char c = d.charAt(i);
            if (c < '0' || c > '9') {
                return false;
            }
        }
        return true;
    }

    static String truncate(String s) {
        return s.length() <= 64 ? s : s.substring(0, 64) + "...(" + s.length() + " chars)";
    }
}
