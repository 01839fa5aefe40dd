package io.locus.cassandra.drop;

import static io.locus.cassandra.drop.TokenLayout.LEVELS;
import static io.locus.cassandra.drop.TokenLayout.NAME_OFFSET;
import static io.locus.cassandra.drop.TokenLayout.OVERFLOW_OFFSET;

import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.nio.ByteOrder;

/**
 * The path part of {@link PathEncoder} for keys longer than {@link MidPathEncoder#MAX_KEY} bytes or with more than 20
 * parents, and for direct buffers from {@link PathEncoder#LONG_KEY} bytes on: the same tokens, computed so that the cost
 * of a component does not wait on the one before it.
 *
 * <p>Why a second scan: {@link PathEncoder}'s scan finds each component's end from the word that starts it, so the
 * start of the next component waits for the load and the '/' search of this one, and on a path of 25 components that
 * chain is most of the cost. Here the '/' positions of 64 bytes at a time come first, as one bit per byte from 8 independent
 * loads; each component's bounds then come from that mask (two instructions), and the CPU hashes several components
 * at once. Components beyond level 20 are not hashed one by one: only their joined span is (the overflow field).
 *
 * <p>Works on a padded copy of the key ({@link #PAD} readable bytes past its end), so every 8-byte load is a plain
 * one; the bytes past the key are masked off and never change a token. Stateless, thread-safe, no allocation.
 */
final class LongPathEncoder {
    /** Bytes that must be readable past the key's end: one 64-byte chunk past the last chunk base. */
    static final int PAD = 64;

    private static final VarHandle LONG_LE =
            MethodHandles.byteArrayViewVarHandle(long[].class, ByteOrder.LITTLE_ENDIAN);
    private static final byte DOT = '.';
    private static final long SLASHES = 0x2F2F2F2F2F2F2F2FL;
    private static final long LOW_7 = 0x7F7F7F7F7F7F7F7FL;
    private static final long HIGH_BITS = 0x8080808080808080L;
    /** Multiplying by this gathers bit 8i of a word into bit 56 + i, for i in 0..7. */
    private static final long GATHER = 0x0102040810204080L;

    private LongPathEncoder() {}

    /**
     * Writes the path token of {@code key[0, length)} into {@code t} (all zero on entry); {@code key} must have
     * {@code length + PAD} bytes and start with '/'. Returns false if the key holds a '..' segment (the caller then
     * hashes it as a non-path key).
     */
    static boolean encode(byte[] key, int length, byte[] t) {
        int end = length;
        int count = 0; // components so far
        int hash = 0; // H32 of the last one
        int base = 0; // key offset of bit 0 of slashes
        long slashes = slashMask(key, 0, end) & ~1L; // minus the leading '/'
        int s = 1;
        while (s < end) {
            while (slashes == 0) {
                base += 64;
                slashes = slashMask(key, base, end);
            }
            int e = base + Long.numberOfTrailingZeros(slashes);
            slashes &= slashes - 1;
            int len = e - s;
            if (len <= 2 && (len == 0 || key[s] == DOT)) {
                if (len == 2 && key[s + 1] == DOT) {
                    return false;
                }
                if (len < 2) { // "//" or "/./": ignored
                    s = e + 1;
                    continue;
                }
            }
            if (count == LEVELS) {
                return encodeDeep(key, s, e, end, base, slashes, t);
            }
            hash = NameHash.finish(hashState(key, s, len), len);
            // Every component's level code is written; the last one's is cleared below (a basename is no parent).
            TokenLayout.putShort(t, 2 * count, PathEncoder.code16(hash));
            count++;
            s = e + 1;
        }
        if (count == 0) {
            TokenLayout.putInt(t, NAME_OFFSET, 1); // the root
            return true;
        }
        TokenLayout.putShort(t, 2 * (count - 1), 0);
        TokenLayout.putInt(t, NAME_OFFSET, PathEncoder.code32(hash));
        return true;
    }

    /**
     * Levels 1..20 are written and component 21 is {@code key[s21, e21)}; the scan goes on from {@code base} and
     * {@code slashes}. Only two bounds are needed from here on: the basename is the last component, and the overflow
     * field hashes component 21 up to the end of the one before the last.
     *
     * <p>Both come from the '/' masks of the remaining chunks, not from a loop turn per component: the last '/' before
     * the key's end is the highest bit below the end's bit. That holds only if no component after component 21 is
     * empty, "." or "..", which the masks rule out when no two of their bits (the end's included) are 3 or fewer
     * bytes apart. Otherwise, or if the last component is too long for the masks at hand, the components are walked
     * one by one ({@link #encodeDeepByComponent}).
     */
    private static boolean encodeDeep(byte[] key, int s21, int e21, int end, int base, long slashes, byte[] t) {
        long m = slashes | (1L << (e21 - base)); // the '/' after component 21 and those above it in its chunk
        long close = closePairs(m);
        long previous = 0; // the chunk before m (0 if m is component 21's)
        int b = base;
        while (end - b >= 64) { // the end's bit lies in a later chunk
            previous = m;
            b += 64;
            m = slashMask(key, b, end);
            // Pairs across the border: bits 0-2 are the previous chunk's bits 61-63, bits 3.. are m's.
            long across = (m << 3) | (previous >>> 61);
            close |= (closePairs(across) & 7) | closePairs(m);
        }
        long below = m ^ (1L << (end - b)); // the '/' in the end's chunk, without the end
        if (close != 0 || (below == 0 && previous == 0 && e21 != end)) {
            return encodeDeepByComponent(key, s21, e21, end, base, slashes, t);
        }
        int lastStart = s21;
        if (e21 != end) {
            int prevEnd = below != 0
                    ? b + 63 - Long.numberOfLeadingZeros(below)
                    : b - 1 - Long.numberOfLeadingZeros(previous);
            int len = prevEnd - s21;
            TokenLayout.putInt(t, OVERFLOW_OFFSET, PathEncoder.code32(NameHash.finish(hashState(key, s21, len), len)));
            lastStart = prevEnd + 1;
        }
        int nameLen = end - lastStart;
        TokenLayout.putInt(
                t, NAME_OFFSET, PathEncoder.code32(NameHash.finish(hashState(key, lastStart, nameLen), nameLen)));
        return true;
    }

    /** Bit i set where bit i of {@code m} and one of bits i+1..i+3 are set: a component of 0-2 bytes starts at i+1. */
    private static long closePairs(long m) {
        return m & ((m >>> 1) | (m >>> 2) | (m >>> 3));
    }

    /**
     * {@link #encodeDeep} one component after the other, for keys with a component of 0-2 bytes after component 21:
     * skips "//" and "/./" (then the overflow field's span is joined anew), and returns false on a "..".
     */
    private static boolean encodeDeepByComponent(
            byte[] key, int s21, int e21, int end, int base, long slashes, byte[] t) {
        int lastStart = s21;
        int lastEnd = e21;
        int prevEnd = -1;
        boolean skipped = false; // an ignored "//" or "/./" after component 21: the span is not in joined form
        int s = e21 + 1;
        while (s < end) {
            while (slashes == 0) {
                base += 64;
                slashes = slashMask(key, base, end);
            }
            int e = base + Long.numberOfTrailingZeros(slashes);
            slashes &= slashes - 1;
            int len = e - s;
            if (len <= 2 && (len == 0 || key[s] == DOT)) {
                if (len == 2 && key[s + 1] == DOT) {
                    return false;
                }
                if (len < 2) {
                    skipped = true;
                    s = e + 1;
                    continue;
                }
            }
            prevEnd = lastEnd;
            lastStart = s;
            lastEnd = e;
            s = e + 1;
        }
        if (prevEnd >= 0) {
            long overflow = skipped
                    ? PathEncoder.overflowCode(key, s21, prevEnd)
                    : PathEncoder.code32(NameHash.finish(hashState(key, s21, prevEnd - s21), prevEnd - s21));
            TokenLayout.putInt(t, OVERFLOW_OFFSET, overflow);
        }
        int nameLen = lastEnd - lastStart;
        TokenLayout.putInt(
                t, NAME_OFFSET, PathEncoder.code32(NameHash.finish(hashState(key, lastStart, nameLen), nameLen)));
        return true;
    }

    /**
     * Bit i set where {@code key[base + i]} is '/', for {@code base + i < end}, and bit {@code end - base} if it is
     * below 64: the key's end closes its last component.
     */
    private static long slashMask(byte[] key, int base, int end) {
        long m = slashBits(word(key, base))
                | slashBits(word(key, base + 8)) << 8
                | slashBits(word(key, base + 16)) << 16
                | slashBits(word(key, base + 24)) << 24
                | slashBits(word(key, base + 32)) << 32
                | slashBits(word(key, base + 40)) << 40
                | slashBits(word(key, base + 48)) << 48
                | slashBits(word(key, base + 56)) << 56;
        int n = end - base;
        return n < 64 ? (m & ((1L << n) - 1)) | (1L << n) : m;
    }

    /** Bit i set where byte i of {@code w} is '/'. Exact per byte (no borrow from a neighbour), then gathered. */
    static long slashBits(long w) {
        long x = w ^ SLASHES;
        long zero = ~(((x & LOW_7) + LOW_7) | x) & HIGH_BITS;
        return (zero >>> 7) * GATHER >>> 56;
    }

    /** NameHash state after the words of {@code key[s, s+len)}, {@code len >= 1}, before {@link NameHash#finish}. */
    private static long hashState(byte[] key, int s, int len) {
        if (len < 8) {
            return NameHash.absorb(NameHash.SEED, word(key, s) & ((1L << (len << 3)) - 1));
        }
        if (len < 16) {
            long h = NameHash.absorb(NameHash.SEED, word(key, s));
            return NameHash.absorb(h, word(key, s + 8) & ((1L << ((len - 8) << 3)) - 1));
        }
        long h = NameHash.SEED;
        int p = s;
        int e = s + len;
        for (; p + 8 <= e; p += 8) {
            h = NameHash.absorb(h, word(key, p));
        }
        return NameHash.absorb(h, word(key, p) & ((1L << ((e - p) << 3)) - 1));
    }

    private static long word(byte[] key, int p) {
        return (long) LONG_LE.get(key, p);
    }
}
