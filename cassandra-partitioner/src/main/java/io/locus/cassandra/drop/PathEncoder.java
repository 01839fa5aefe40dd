package io.locus.cassandra.drop;

import java.nio.ByteBuffer;
import java.util.Arrays;

import static io.locus.cassandra.drop.TokenLayout.LEVELS;
import static io.locus.cassandra.drop.TokenLayout.NAME_OFFSET;
import static io.locus.cassandra.drop.TokenLayout.NON_PATH_L1;
import static io.locus.cassandra.drop.TokenLayout.OVERFLOW_OFFSET;
import static io.locus.cassandra.drop.TokenLayout.SEED;
import static io.locus.cassandra.drop.TokenLayout.TOKEN_BYTES;

/**
 * Mode-H locality-preserving encoder: a partition key (an absolute path as bytes) to its 48-byte token.
 *
 * <p>Guarantees, for every input (any bytes, any length): the result is deterministic, {@link TokenLayout#TOKEN_BYTES}
 * long, and never throws. Only the empty key maps to the all-zero (minimum) token. Entries of one directory share
 * their first 44 bytes, so a directory listing is one token range; a subtree at depth d &lt;= 20 shares the first 2d
 * bytes.
 *
 * <p>Thread-safe and allocation-free apart from the returned array.
 */
public final class PathEncoder {
    /*
     * Design note (drop-virtcache.md A.3.3, mode H; decisions where the thesis [L1684-L1688] is silent):
     * - Names are hashed, not given ordinals, because a partitioner must be a pure function of the key bytes.
     * - An entry is keyed by its PARENT's level codes plus its own basename code, so "ls" of a directory is a single
     *   contiguous range and files need not be told apart from directories.
     * - Normalisation: repeated '/' and a trailing '/' are ignored, '.' segments are dropped. A key with a '..'
     *   segment is not resolved (that would need the file system) and goes to the hashed non-path region, like any
     *   key not starting with '/'. Bytes are hashed as given: '/' (0x2F) never occurs inside a multi-byte UTF-8
     *   sequence, so splitting raw bytes equals splitting the decoded string, and invalid UTF-8 still hashes.
     */
    private static final byte SLASH = '/';
    private static final byte DOT = '.';

    private PathEncoder() {
    }

    /** Encodes the remaining bytes of {@code key} (position and limit are not changed). */
    public static byte[] encode(ByteBuffer key) {
        int len = key.remaining();
        if (key.hasArray()) {
            return encode(key.array(), key.arrayOffset() + key.position(), len);
        }
        byte[] copy = new byte[len];
        key.duplicate().get(copy);
        return encode(copy, 0, len);
    }

    /** Encodes all of {@code key}. */
    public static byte[] encode(byte[] key) {
        return encode(key, 0, key.length);
    }

    /** Encodes {@code key[offset, offset+length)}. */
    public static byte[] encode(byte[] key, int offset, int length) {
        byte[] t = new byte[TOKEN_BYTES];
        if (length == 0) {
            return t;
        }
        if (key[offset] != SLASH || !encodePath(key, offset, length, t)) {
            encodeNonPath(key, offset, length, t);
        }
        return t;
    }

    /** 16-bit level code of a name: 1..0xFFFE (0 means "no component", 0xFFFF is reserved). */
    public static int code16(byte[] b, int off, int len) {
        return 1 + (int) (Murmur3Hash.low32(b, off, len, SEED) % 0xFFFE);
    }

    /** 32-bit name code: 1..2^32-1 (0 means "no name"). */
    public static long code32(byte[] b, int off, int len) {
        long h = Murmur3Hash.low32(b, off, len, SEED);
        return h == 0 ? 1 : h;
    }

    private static void encodeNonPath(byte[] key, int offset, int length, byte[] t) {
        Arrays.fill(t, (byte) 0);
        long[] h = new long[2];
        Murmur3Hash.hash128(key, offset, length, SEED, h);
        TokenLayout.putShort(t, 0, NON_PATH_L1);
        TokenLayout.putLong(t, 2, h[0]);
        TokenLayout.putLong(t, 10, h[1]);
    }

    /** Returns false if the key holds a '..' segment (the caller then hashes it as a non-path key). */
    private static boolean encodePath(byte[] key, int offset, int length, byte[] t) {
        int end = offset + length;
        int parents = 0;            // completed parent components so far
        int pendingStart = -1;      // the last component seen; it becomes a parent when another one follows
        int pendingEnd = -1;
        int overflowStart = -1;     // start of parent 21 in the key
        int i = offset + 1;
        while (i <= end) {
            int s = i;
            while (i < end && key[i] != SLASH) {
                i++;
            }
            int e = i;
            i++;
            int segLen = e - s;
            if (segLen == 0 || (segLen == 1 && key[s] == DOT)) {
                continue;
            }
            if (segLen == 2 && key[s] == DOT && key[s + 1] == DOT) {
                return false;
            }
            if (pendingStart >= 0) {
                if (parents < LEVELS) {
                    TokenLayout.putShort(t, 2 * parents, code16(key, pendingStart, pendingEnd - pendingStart));
                } else if (overflowStart < 0) {
                    overflowStart = pendingStart;
                }
                parents++;
            }
            pendingStart = s;
            pendingEnd = e;
        }
        if (pendingStart < 0) {
            TokenLayout.putInt(t, NAME_OFFSET, 1);  // the root: smallest path token, never the minimum
            return true;
        }
        if (parents > LEVELS) {
            TokenLayout.putInt(t, OVERFLOW_OFFSET, overflowCode(key, overflowStart, pendingStart));
        }
        TokenLayout.putInt(t, NAME_OFFSET, code32(key, pendingStart, pendingEnd - pendingStart));
        return true;
    }

    /**
     * Code of the parent levels beyond 20, normalised and joined with single '/'. Paths this deep are rare (0.001% of
     * files in the thesis's traces, L1684), so this path may allocate.
     */
    private static long overflowCode(byte[] key, int start, int basenameStart) {
        int stop = basenameStart;
        byte[] joined = new byte[stop - start];
        int n = 0;
        int i = start;
        while (i < stop) {
            int s = i;
            while (i < stop && key[i] != SLASH) {
                i++;
            }
            int segLen = i - s;
            i++;
            if (segLen == 0 || (segLen == 1 && key[s] == DOT)) {
                continue;
            }
            if (n > 0) {
                joined[n++] = SLASH;
            }
            System.arraycopy(key, s, joined, n, segLen);
            n += segLen;
        }
        return code32(joined, 0, n);
    }
}
