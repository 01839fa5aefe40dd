package io.locus.cassandra.drop;

/**
 * The reserved region at the top of the ring, where every key that is not an absolute path lands (level-1 code
 * {@code 0xFFFF}): Cassandra's own tables ({@code system_auth}, {@code system_distributed}, {@code system_traces}) and
 * every table keyed by ids share the partitioner with the path tables.
 *
 * <p>Inside the region a key's bytes 2..17 are murmur3 of the whole key, so keys are spread uniformly over it: a
 * position in [0, 1] (bytes 2..9 as an unsigned fraction) stands for the same share of the region's keys wherever it
 * is. That is what lets a plan give the region its share of the load without one sampled non-path key. Pure.
 */
public final class ReservedRegion {
    /** The share of all keys assumed to be non-path keys when a sample holds none (5 %). */
    public static final double DEFAULT_SHARE = 0.05;

    /** The largest path token: every path token is at most this, every non-path token above it. */
    static final byte[] START_EXCLUSIVE;

    static {
        byte[] t = TokenMath.maximum();
        TokenLayout.putShort(t, 0, TokenLayout.NON_PATH_L1 - 1);
        START_EXCLUSIVE = t;
    }

    private static final double TWO_64 = 0x1p64;

    private ReservedRegion() {}

    /** Whether {@code token} lies in the region. */
    public static boolean contains(byte[] token) {
        return TokenMath.compare(token, START_EXCLUSIVE) > 0;
    }

    /** Position of a token of the region as a fraction of it: 0 at its start, 1 at the ring's maximum token. */
    public static double position(byte[] token) {
        if (!contains(token)) {
            throw new IllegalArgumentException(
                    "token " + TokenMath.toHex(token) + " is not in the reserved region (expected: starting ffff)");
        }
        if (TokenMath.compare(token, TokenMath.maximum()) == 0) {
            return 1.0;
        }
        long bits = 0;
        for (int i = 2; i < 10; i++) {
            bits = (bits << 8) | (token[i] & 0xFF);
        }
        double unsigned = (bits >>> 1) * 2.0 + (bits & 1);
        return unsigned / TWO_64;
    }

    /** The token at {@code fraction} (in (0, 1)) of the region: level-1 code 0xFFFF, then the fraction in 64 bits. */
    public static byte[] tokenAt(double fraction) {
        if (!(fraction > 0 && fraction < 1)) {
            throw new IllegalArgumentException("fraction " + fraction + " (expected: within (0, 1))");
        }
        byte[] t = new byte[TokenLayout.TOKEN_BYTES];
        TokenLayout.putShort(t, 0, TokenLayout.NON_PATH_L1);
        double scaled = fraction * TWO_64;
        long bits = scaled >= 0x1p63 ? (long) (scaled - 0x1p63) ^ Long.MIN_VALUE : (long) scaled;
        TokenLayout.putLong(t, 2, bits);
        return t;
    }

    /**
     * The share of the region each node owns on {@code ring}, node-indexed (sums to 1): the range that holds the
     * region's start takes it up to the first ring token inside the region, and what lies above the ring's largest
     * token wraps to the owner of the smallest.
     */
    public static double[] owners(Ring ring, int nodes) {
        double[] share = new double[nodes];
        double previous = 0;
        for (int i = 0; i < ring.size(); i++) {
            byte[] t = ring.token(i);
            if (contains(t)) {
                double p = position(t);
                share[ring.owner(i)] += p - previous;
                previous = p;
            }
        }
        share[ring.owner(0)] += 1 - previous;
        return share;
    }
}
