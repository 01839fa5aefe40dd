package io.locus.gluster.virtcache.hotblock;

/**
 * MurmurHash3 x64/128 of one 64-bit key taken as its 8 little-endian bytes: the hash the {@code virtcache} translator
 * uses for its Bloom filter, so both sides must compute it bit for bit alike.
 */
final class Murmur3 {
    /** The filter's seed, "VCBF" read as a big-endian int. */
    static final int SEED = 0x56434246;

    private static final long C1 = 0x87c37b91114253d5L;
    private static final long C2 = 0x4cf5ad432745937fL;

    private Murmur3() {}

    /** The two 64-bit halves (h1, h2) of the hash of {@code key}. */
    static long[] hash128(long key, int seed) {
        // The seed is unsigned 32-bit in the reference implementation.
        long h1 = seed & 0xffffffffL;
        long h2 = seed & 0xffffffffL;
        // An 8-byte key has no full 16-byte block: only the tail step runs.
        long k1 = key * C1;
        k1 = Long.rotateLeft(k1, 31);
        k1 *= C2;
        h1 ^= k1;
        h1 ^= 8;
        h2 ^= 8;
        h1 += h2;
        h2 += h1;
        h1 = fmix64(h1);
        h2 = fmix64(h2);
        h1 += h2;
        h2 += h1;
        return new long[] {h1, h2};
    }

    private static long fmix64(long k) {
        k ^= k >>> 33;
        k *= 0xff51afd7ed558ccdL;
        k ^= k >>> 33;
        k *= 0xc4ceb9fe1a85ec53L;
        k ^= k >>> 33;
        return k;
    }
}
