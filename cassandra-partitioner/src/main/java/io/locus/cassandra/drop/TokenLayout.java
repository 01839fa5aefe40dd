package io.locus.cassandra.drop;

/**
 * The fixed 48-byte DROP token layout (thesis §6.3, Figure 6.3; DESIGN.md, "Token layout").
 *
 * <pre>
 * bytes  0..39  20 directory levels x 2 bytes, big-endian codes; level i of the entry's PARENT at bytes 2(i-1)..2i-1
 *               (0 = no component at that level; 0xFFFF at level 1 = the reserved non-path region)
 * bytes 40..43  overflow: 32-bit code of the parent levels beyond 20, joined with '/' (0 if depth <= 20)
 * bytes 44..47  32-bit code of the basename (never 0 for a path)
 * </pre>
 *
 * Tokens compare as unsigned big-endian 384-bit integers. These constants are part of the on-disk format: once a
 * cluster holds data they can never change.
 */
public final class TokenLayout {
    /**
     * Version of the key-to-token mapping, written in the golden vectors' header. 3: names hashed with
     * {@link NameHash} (never deployed: 2, murmur3_x86_32; 1, the low 32 bits of murmur3_x64_128). Bump it with every
     * change of any token.
     */
    public static final int FORMAT_VERSION = 3;
    /** Token length in bytes. */
    public static final int TOKEN_BYTES = 48;
    /** Directory levels that get their own 2-byte field. */
    public static final int LEVELS = 20;
    /** Offset of the 4-byte overflow field (parent levels 21 and deeper). */
    public static final int OVERFLOW_OFFSET = 40;
    /** Offset of the 4-byte basename field. */
    public static final int NAME_OFFSET = 44;
    /** Level-1 code that marks keys which are not absolute paths. */
    public static final int NON_PATH_L1 = 0xFFFF;
    /** Seed of every hash in the layout: ASCII "DROP". Fixed forever. */
    public static final int SEED = 0x44524F50;

    private TokenLayout() {}

    /** Reads the 2-byte code of level {@code level} (1-based, 1..20). */
    public static int levelCode(byte[] token, int level) {
        int p = 2 * (level - 1);
        return ((token[p] & 0xFF) << 8) | (token[p + 1] & 0xFF);
    }

    /** Whether the token lies in the reserved region of keys that are not absolute paths. */
    public static boolean isNonPath(byte[] token) {
        return levelCode(token, 1) == NON_PATH_L1;
    }

    /**
     * Directory depth of the token's parent: the number of leading non-zero level fields (0..20), plus one if the
     * overflow field is set. The root and the entries directly under "/" have depth 0.
     */
    public static int parentDepth(byte[] token) {
        int d = 0;
        while (d < LEVELS && levelCode(token, d + 1) != 0) {
            d++;
        }
        if (d == LEVELS && readInt(token, OVERFLOW_OFFSET) != 0) {
            d++;
        }
        return d;
    }

    /**
     * LCPLEVELS of DESIGN.md, "HDLB": the number of leading equal 2-byte level fields of {@code a} and {@code b}
     * (0..20), plus one if all 20 are equal and the overflow fields are equal too. A boundary between two tokens cuts
     * the subtrees of every directory on their common prefix, so a smaller value means a shallower (cheaper) cut.
     */
    public static int lcpLevels(byte[] a, byte[] b) {
        int n = 0;
        while (n < LEVELS && a[2 * n] == b[2 * n] && a[2 * n + 1] == b[2 * n + 1]) {
            n++;
        }
        if (n == LEVELS && readInt(a, OVERFLOW_OFFSET) == readInt(b, OVERFLOW_OFFSET)) {
            n++;
        }
        return n;
    }

    static int readInt(byte[] t, int off) {
        return ((t[off] & 0xFF) << 24) | ((t[off + 1] & 0xFF) << 16) | ((t[off + 2] & 0xFF) << 8) | (t[off + 3] & 0xFF);
    }

    static void putShort(byte[] t, int off, int v) {
        t[off] = (byte) (v >>> 8);
        t[off + 1] = (byte) v;
    }

    static void putInt(byte[] t, int off, long v) {
        t[off] = (byte) (v >>> 24);
        t[off + 1] = (byte) (v >>> 16);
        t[off + 2] = (byte) (v >>> 8);
        t[off + 3] = (byte) v;
    }

    static void putLong(byte[] t, int off, long v) {
        for (int i = 7; i >= 0; i--) {
            t[off + i] = (byte) v;
            v >>>= 8;
        }
    }
}
