package io.locus.cassandra.drop;

import static io.locus.cassandra.drop.TokenLayout.NAME_OFFSET;
import static io.locus.cassandra.drop.TokenLayout.NON_PATH_L1;
import static io.locus.cassandra.drop.TokenLayout.OVERFLOW_OFFSET;
import static io.locus.cassandra.drop.TokenLayout.SEED;
import static io.locus.cassandra.drop.TokenLayout.TOKEN_BYTES;

import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.util.Arrays;

/**
 * Mode-H locality-preserving encoder: a partition key (an absolute path as bytes) to its 48-byte token.
 *
 * <p>Guarantees, for every input (any bytes, any length): the result is deterministic, {@link TokenLayout#TOKEN_BYTES}
 * long, and never throws. Only the empty key maps to the all-zero (minimum) token. Entries of one directory share
 * their first 44 bytes, so a directory listing is one token range; a subtree at depth d &lt;= 20 shares the first 2d
 * bytes.
 *
 * <p>Thread-safe and allocation-free apart from the returned array (and, for keys that are deeper than 20 levels AND
 * hold "//" or "/./" among those levels, one temporary array). Path keys under {@link #LONG_KEY} bytes are scanned in
 * place here; keys up to {@link MidPathEncoder#MAX_KEY} bytes with at most 20 parents by {@link MidPathEncoder}, also
 * in place; longer or deeper ones are copied into a per-thread scratch array and encoded by {@link LongPathEncoder}.
 */
public final class PathEncoder {
    /*
     * Design note (DESIGN.md, "Token layout"; decisions where the thesis, §6.3, is silent):
     * - Names are hashed, not given ordinals, because a partitioner must be a pure function of the key bytes.
     * - An entry is keyed by its PARENT's level codes plus its own basename code, so "ls" of a directory is a single
     *   contiguous range and files need not be told apart from directories.
     * - Normalisation: repeated '/' and a trailing '/' are ignored, '.' segments are dropped. A key with a '..'
     *   segment is not resolved (that would need the file system) and goes to the hashed non-path region, like any
     *   key not starting with '/'. Bytes are hashed as given: '/' (0x2F) never occurs inside a multi-byte UTF-8
     *   sequence, so splitting raw bytes equals splitting the decoded string, and invalid UTF-8 still hashes.
     * - Token format 3 (TokenLayout.FORMAT_VERSION): the per-component hash H32 is NameHash (one 64-bit multiply per
     *   8 bytes plus one to finish), absorbed from the very words the scan for '/' loads. Why this hash: a typical
     *   path has about 7 components, each hashed on its own, so the per-component hash dominates getToken; murmur3
     *   per component costs 1.5-1.7x Murmur3Partitioner on typical paths however the scan around it is tuned
     *   (DESIGN.md, "Hashing names", has the measurements). The mapping is an on-disk format: any change of a token
     *   is a new TokenLayout.FORMAT_VERSION.
     * - Three scans, one mapping (DESIGN.md, "The getToken path"): short keys are scanned in place, one component
     *   after the other; mid-length ones by MidPathEncoder and long or deep ones by LongPathEncoder, whose components do
     *   not wait on each other. All are checked against a naive reference encoder on generated keys
     *   (PathEncoderOracleProperties).
     */
    private static final byte SLASH = '/';
    private static final byte DOT = '.';
    /** Largest key copied into the per-thread scratch array (Cassandra caps keys at 65,535 bytes). */
    private static final int SCRATCH_MAX = 65_536;

    /**
     * Path keys from this length on go to {@link MidPathEncoder} or {@link LongPathEncoder}. Shorter ones (at most 15
     * components) are cheapest scanned one component after the other.
     */
    static final int LONG_KEY = 32;

    private static final ThreadLocal<byte[]> SCRATCH = ThreadLocal.withInitial(() -> new byte[512]);
    private static final VarHandle LONG_LE =
            MethodHandles.byteArrayViewVarHandle(long[].class, ByteOrder.LITTLE_ENDIAN);
    private static final long SLASHES = 0x2F2F2F2F2F2F2F2FL;
    private static final long LOW_BITS = 0x0101010101010101L;
    private static final long HIGH_BITS = 0x8080808080808080L;

    private PathEncoder() {}

    /** Encodes the remaining bytes of {@code key} (position and limit are not changed). */
    public static byte[] encode(ByteBuffer key) {
        int len = key.remaining();
        if (key.hasArray()) {
            return encode(key.array(), key.arrayOffset() + key.position(), len);
        }
        // Direct (off-heap) buffer: the scans need an array; the per-thread scratch array avoids a garbage copy per
        // key. The returned token never refers to it.
        byte[] scratch = scratch(len);
        key.duplicate().get(scratch, 0, len);
        return encodePadded(scratch, len);
    }

    /** Encodes all of {@code key}. */
    public static byte[] encode(byte[] key) {
        return encode(key, 0, key.length);
    }

    /** Encodes {@code key[offset, offset+length)}. */
    public static byte[] encode(byte[] key, int offset, int length) {
        if (length < LONG_KEY || key[offset] != SLASH) {
            return encodeInPlace(key, offset, length);
        }
        if (length <= MidPathEncoder.MAX_KEY) {
            byte[] t = encodeMid(key, offset, length);
            if (t != null) {
                return t;
            }
        }
        byte[] scratch = scratch(length);
        System.arraycopy(key, offset, scratch, 0, length);
        return encodePadded(scratch, length);
    }

    /** The token of a path key that {@link MidPathEncoder} takes, or null if it is too deep for it. */
    private static byte[] encodeMid(byte[] key, int offset, int length) {
        byte[] t = new byte[TOKEN_BYTES];
        int result = MidPathEncoder.encode(key, offset, length, t);
        if (result == MidPathEncoder.DONE) {
            return t;
        }
        if (result == MidPathEncoder.DEEP) {
            return null;
        }
        Arrays.fill(t, 0, OVERFLOW_OFFSET, (byte) 0); // level codes written before the '..' was seen
        encodeNonPath(key, offset, length, t);
        return t;
    }

    /** Encodes {@code key[0, length)}, which has {@link LongPathEncoder#PAD} readable bytes after it. */
    private static byte[] encodePadded(byte[] key, int length) {
        if (length < LONG_KEY || key[0] != SLASH) {
            return encodeInPlace(key, 0, length);
        }
        byte[] t = new byte[TOKEN_BYTES];
        if (!LongPathEncoder.encode(key, length, t)) {
            Arrays.fill(t, 0, OVERFLOW_OFFSET, (byte) 0); // level codes written before the '..' was seen
            encodeNonPath(key, 0, length, t);
        }
        return t;
    }

    private static byte[] encodeInPlace(byte[] key, int offset, int length) {
        byte[] t = new byte[TOKEN_BYTES];
        if (length == 0) {
            return t;
        }
        if (key[offset] != SLASH) {
            encodeNonPath(key, offset, length, t);
        } else if (!encodePath(key, offset, length, t)) {
            Arrays.fill(t, 0, OVERFLOW_OFFSET, (byte) 0); // level codes written before the '..' was seen
            encodeNonPath(key, offset, length, t);
        }
        return t;
    }

    /** The calling thread's scratch array, at least {@code len + LongPathEncoder.PAD} bytes long. */
    private static byte[] scratch(int len) {
        int need = len + LongPathEncoder.PAD;
        if (len > SCRATCH_MAX) {
            return new byte[need];
        }
        byte[] scratch = SCRATCH.get();
        if (scratch.length < need) {
            scratch = new byte[Math.max(need, Math.min(SCRATCH_MAX + LongPathEncoder.PAD, 2 * scratch.length))];
            SCRATCH.set(scratch);
        }
        return scratch;
    }

    /** 16-bit level code of a name: 1..0xFFFE (0 means "no component", 0xFFFF is reserved). */
    public static int code16(byte[] b, int off, int len) {
        return code16(NameHash.hash32(b, off, len));
    }

    /** 32-bit name code: 1..2^32-1 (0 means "no name"). */
    public static long code32(byte[] b, int off, int len) {
        return code32(NameHash.hash32(b, off, len));
    }

    /** CODE16 of DESIGN.md, "Token layout", from H32 = {@code h} (unsigned). */
    static int code16(int h) {
        return 1 + (int) ((h & 0xFFFF_FFFFL) % 0xFFFE);
    }

    /** CODE32 of DESIGN.md, "Token layout", from H32 = {@code h} (unsigned). */
    static long code32(int h) {
        return h == 0 ? 1 : h & 0xFFFF_FFFFL;
    }

    /** Bytes 2..17 = murmur3_x64_128 of the whole key (h1, h2 big-endian); bytes 18..47 stay zero. */
    private static void encodeNonPath(byte[] key, int offset, int length, byte[] t) {
        TokenLayout.putShort(t, 0, NON_PATH_L1);
        Murmur3Hash.hash128(key, offset, length, SEED, t, 2);
    }

    /**
     * The path token of a key shorter than {@link #LONG_KEY} (so of at most 15 components: never the overflow field).
     * Returns false if the key holds a '..' segment (the caller then hashes it as a non-path key).
     *
     * <p>Each component is scanned for its terminating '/' 8 bytes per step (the SWAR zero-byte test on
     * {@code word ^ 0x2F..2F}; its lowest flagged byte is always a real match) and the same words are absorbed into its
     * {@link NameHash} on the way, so every byte is loaded once and nothing is copied. Reads may run past {@code end}
     * inside the array (never past it); those bytes are masked off.
     */
    private static boolean encodePath(byte[] key, int offset, int length, byte[] t) {
        int end = offset + length;
        int lastRead = key.length - 8; // the last index at which an 8-byte read fits
        int parents = 0; // completed parent components so far
        boolean pending = false; // a component was seen; it becomes a parent when another one follows
        int pendingHash = 0;
        int s = offset + 1;
        while (s <= end) {
            long h = NameHash.SEED;
            int p = s;
            long w;
            int n; // bytes of the component in w (8: the component goes on)
            while (true) {
                if (p <= lastRead) {
                    w = (long) LONG_LE.get(key, p);
                } else if (lastRead >= 0) {
                    // The array's last 8 bytes, shifted so that byte p comes first; zeros follow (never a '/').
                    w = (p - lastRead == 8) ? 0 : (long) LONG_LE.get(key, lastRead) >>> ((p - lastRead) << 3);
                } else {
                    w = readShortArray(key, p);
                }
                long x = w ^ SLASHES;
                n = Math.min(Long.numberOfTrailingZeros((x - LOW_BITS) & ~x & HIGH_BITS) >>> 3, end - p);
                if (n < 8) {
                    break;
                }
                h = NameHash.absorb(h, w);
                p += 8;
            }
            int e = p + n;
            int segLen = e - s;
            if (segLen == 0 || (segLen == 1 && key[s] == DOT)) {
                s = e + 1;
                continue;
            }
            if (segLen == 2 && key[s] == DOT && key[s + 1] == DOT) {
                return false;
            }
            if (pending) {
                TokenLayout.putShort(t, 2 * parents, code16(pendingHash));
                parents++;
            }
            pending = true;
            // The last word holds the component's final n (0..7) bytes: mask off the '/' and what follows.
            pendingHash = NameHash.finish(NameHash.absorb(h, w & ((1L << (n << 3)) - 1)), segLen);
            s = e + 1;
        }
        if (!pending) {
            TokenLayout.putInt(t, NAME_OFFSET, 1); // the root: smallest path token, never the minimum
            return true;
        }
        TokenLayout.putInt(t, NAME_OFFSET, code32(pendingHash));
        return true;
    }

    /** Bytes {@code key[p..]} of an array shorter than 8 bytes as a little-endian word, zero-padded. */
    private static long readShortArray(byte[] key, int p) {
        long w = 0;
        for (int i = key.length - 1; i >= p; i--) {
            w = (w << 8) | (key[i] & 0xFFL);
        }
        return w;
    }

    /**
     * CODE32 of the parent levels beyond 20 joined with single '/': {@code key[start, end)} runs from the first to
     * the end of the last such parent. When that slice holds no empty or '.' segment it already is the joined form
     * and is hashed in place; otherwise (a deep AND non-normalised key) it is joined into a temporary array.
     */
    static long overflowCode(byte[] key, int start, int end) {
        if (isNormalised(key, start, end)) {
            return code32(NameHash.hash32(key, start, end - start));
        }
        byte[] joined = new byte[end - start];
        int n = 0;
        int i = start;
        while (i < end) {
            int s = i;
            while (i < end && key[i] != SLASH) {
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
        return code32(NameHash.hash32(joined, 0, n));
    }

    /** Whether {@code key[start, end)}, which starts and ends inside real components, has no "//" and no "/./". */
    private static boolean isNormalised(byte[] key, int start, int end) {
        for (int i = start; i < end - 1; i++) {
            if (key[i] == SLASH && (key[i + 1] == SLASH || (key[i + 1] == DOT && key[i + 2] == SLASH))) {
                return false;
            }
        }
        return true;
    }
}
