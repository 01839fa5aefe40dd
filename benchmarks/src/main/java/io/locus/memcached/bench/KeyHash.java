package io.locus.memcached.bench;

/**
 * Seeded per-key uniform numbers (splitmix64 finaliser), the scheme of
 * {@code io.locus.memcached.cache.sim.Workload}.
 */
final class KeyHash {
    private KeyHash() {}

    /** A uniform double in [0, 1) determined by the key and the seed. */
    static double unit(long key, long seed) {
        return (mix(key + seed) >>> 11) * 0x1.0p-53;
    }

    /** splitmix64's finaliser: a bijection of 64-bit values with good avalanche. */
    static long mix(long value) {
        long z = value;
        z = (z ^ (z >>> 30)) * 0xBF58476D1CE4E5B9L;
        z = (z ^ (z >>> 27)) * 0x94D049BB133111EBL;
        return z ^ (z >>> 31);
    }
}
