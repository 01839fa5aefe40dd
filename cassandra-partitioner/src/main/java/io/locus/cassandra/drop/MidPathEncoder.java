package io.locus.cassandra.drop;

import static io.locus.cassandra.drop.TokenLayout.LEVELS;
import static io.locus.cassandra.drop.TokenLayout.NAME_OFFSET;

import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.nio.ByteOrder;

/**
 * The path part of {@link PathEncoder} for keys of {@link PathEncoder#LONG_KEY} to {@link #MAX_KEY} bytes (most real
 * paths): the same tokens as {@link LongPathEncoder}, read in place instead of from a padded copy.
 *
 * <p>Why a third scan: the '/' mask of a key this short is at most 12 loads that never need bytes past its end (a
 * 32-byte part that would run past it is loaded as the 32 bytes that end with the key, then shifted).
 * Skipping the copy saves the thread-local lookup, the copy and the loads that would wait on its stores. Deeper keys
 * are left to {@link LongPathEncoder}: one compact method per shape compiles better than one that handles both.
 *
 * <p>Every load lies inside {@code key[offset, offset + length)}: a component's last, partial word is the 8 bytes that
 * end with the key when the word at its start would run past it. Stateless, thread-safe, no allocation.
 */
final class MidPathEncoder {
    /**
     * Longest key handled here. Most real paths are shorter, and most paths of more than 20 parents are longer, so few
     * keys are scanned here only to be handed on to {@link LongPathEncoder} (DESIGN.md, "The getToken path").
     */
    static final int MAX_KEY = 95;
    /** {@link #encode} result: the token is written. */
    static final int DONE = 0;
    /** {@link #encode} result: the key holds a '..' segment (the caller hashes it as a non-path key). */
    static final int DOT_DOT = 1;
    /** {@link #encode} result: the key has more than {@link TokenLayout#LEVELS} parents; {@code t} is partly written. */
    static final int DEEP = 2;

    private static final VarHandle LONG_LE =
            MethodHandles.byteArrayViewVarHandle(long[].class, ByteOrder.LITTLE_ENDIAN);
    private static final byte DOT = '.';
    private static final long SLASHES = 0x2F2F2F2F2F2F2F2FL;
    private static final long LOW_7 = 0x7F7F7F7F7F7F7F7FL;
    private static final long HIGH_BITS = 0x8080808080808080L;
    /** Multiplying by this gathers bit 8i of a word into bit 56 + i, for i in 0..7. */
    private static final long GATHER = 0x0102040810204080L;

    private MidPathEncoder() {}

    /**
     * Writes the path token of {@code key[offset, offset + length)} into {@code t} (all zero on entry); the key starts
     * with '/' and {@code LONG_KEY <= length <= MAX_KEY}. Returns {@link #DONE}, {@link #DOT_DOT} or {@link #DEEP}.
     */
    static int encode(byte[] key, int offset, int length, byte[] t) {
        int end = offset + length;
        // Bit i of the 96-bit mask (hi:lo) is set where key[offset + i] is '/', and at the key's end.
        long lo = half(key, offset, end) | half(key, offset + 32, end) << 32;
        long hi = 0;
        if (length < 64) {
            lo |= 1L << length;
        } else {
            if (length > 64) {
                hi = half(key, offset + 64, end);
            }
            hi |= 1L << (length - 64);
        }
        lo &= ~1L; // the leading '/'
        int base = offset;
        int count = 0; // components so far
        int hash = 0; // H32 of the last one
        int s = offset + 1;
        while (s < end) {
            if (lo == 0) {
                lo = hi;
                hi = 0;
                base += 64;
            }
            int e = base + Long.numberOfTrailingZeros(lo);
            lo &= lo - 1;
            int len = e - s;
            if (len <= 2 && (len == 0 || key[s] == DOT)) {
                if (len == 2 && key[s + 1] == DOT) {
                    return DOT_DOT;
                }
                if (len < 2) { // "//" or "/./": ignored
                    s = e + 1;
                    continue;
                }
            }
            if (count == LEVELS) {
                return DEEP;
            }
            hash = NameHash.finish(hashState(key, s, len, end), len);
            // Every component's level code is written; the last one's is cleared below (a basename is no parent).
            TokenLayout.putShort(t, 2 * count, PathEncoder.code16(hash));
            count++;
            s = e + 1;
        }
        if (count == 0) {
            TokenLayout.putInt(t, NAME_OFFSET, 1); // the root
            return DONE;
        }
        TokenLayout.putShort(t, 2 * (count - 1), 0);
        TokenLayout.putInt(t, NAME_OFFSET, PathEncoder.code32(hash));
        return DONE;
    }

    /**
     * Bit i set where {@code key[q + i]} is '/', for {@code i < 32} and {@code q + i < end}; needs {@code end - 32 >=
     * 0} and {@code q <= end}. Past the key's end the 32 bytes that end with it are loaded and shifted instead.
     */
    private static long half(byte[] key, int q, int end) {
        int r = Math.min(q, end - 32);
        long m = slashBits(word(key, r))
                | slashBits(word(key, r + 8)) << 8
                | slashBits(word(key, r + 16)) << 16
                | slashBits(word(key, r + 24)) << 24;
        return m >>> (q - r);
    }

    /** Bit i set where byte i of {@code w} is '/'. Exact per byte (no borrow from a neighbour), then gathered. */
    static long slashBits(long w) {
        long x = w ^ SLASHES;
        long zero = ~(((x & LOW_7) + LOW_7) | x) & HIGH_BITS;
        return (zero >>> 7) * GATHER >>> 56;
    }

    /** NameHash state after the words of {@code key[s, s+len)}, {@code len >= 1}, before {@link NameHash#finish}. */
    private static long hashState(byte[] key, int s, int len, int end) {
        if (len < 8) {
            return NameHash.absorb(NameHash.SEED, tail(key, s, len, end));
        }
        long h = NameHash.absorb(NameHash.SEED, word(key, s));
        int p = s + 8;
        int e = s + len;
        for (; p + 8 <= e; p += 8) {
            h = NameHash.absorb(h, word(key, p));
        }
        return NameHash.absorb(h, tail(key, p, e - p, end));
    }

    /** The {@code n} (0..7) bytes at {@code p} as a little-endian word, loaded without reading past {@code end}. */
    private static long tail(byte[] key, int p, int n, int end) {
        int r = Math.min(p, end - 8);
        return (word(key, r) >>> ((p - r) << 3)) & ((1L << (n << 3)) - 1);
    }

    private static long word(byte[] key, int p) {
        return (long) LONG_LE.get(key, p);
    }
}
