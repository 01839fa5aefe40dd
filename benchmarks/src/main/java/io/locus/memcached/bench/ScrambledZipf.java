package io.locus.memcached.bench;

import java.util.SplittableRandom;

/**
 * YCSB's core-workload key chooser (ScrambledZipfianGenerator, YCSB 0.17): a Zipfian draw over 10^10 items with
 * theta 0.99 and the precomputed zeta, FNV-64-scrambled and folded onto {@code [0, items)}. Re-implemented because
 * YCSB's generators draw from {@code ThreadLocalRandom} and cannot be seeded; here every draw comes from the caller's
 * {@link SplittableRandom}, so a seed fixes the whole key sequence. Immutable and thread-safe.
 */
public final class ScrambledZipf {
    /** YCSB's ITEM_COUNT for the scrambled generator. */
    static final long YCSB_ITEMS = 10_000_000_000L;
    /** YCSB's ZETAN: zeta(10^10, 0.99). */
    static final double YCSB_ZETAN = 26.46902820178302;
    /** YCSB's default Zipfian constant. */
    static final double THETA = 0.99;

    private final long items;
    private final double alpha;
    private final double eta;
    private final double half;

    /**
     * @param items number of distinct keys, at least 1
     * @throws IllegalArgumentException for fewer than one item
     */
    public ScrambledZipf(long items) {
        if (items < 1) {
            throw new IllegalArgumentException("Zipf item count " + items + " (expected: >= 1)");
        }
        this.items = items;
        double zeta2 = 1 + Math.pow(0.5, THETA);
        this.alpha = 1.0 / (1.0 - THETA);
        this.eta = (1 - Math.pow(2.0 / YCSB_ITEMS, 1 - THETA)) / (1 - zeta2 / YCSB_ZETAN);
        this.half = Math.pow(0.5, THETA);
    }

    /** Number of distinct keys. */
    public long items() {
        return items;
    }

    /** The next key index in {@code [0, items)}. */
    public long next(SplittableRandom random) {
        double u = random.nextDouble();
        double uz = u * YCSB_ZETAN;
        long raw;
        if (uz < 1.0) {
            raw = 0;
        } else if (uz < 1.0 + half) {
            raw = 1;
        } else {
            raw = (long) (YCSB_ITEMS * Math.pow(eta * u - eta + 1, alpha));
        }
        return fnv64(raw) % items;
    }

    /** YCSB's {@code Utils.fnvhash64}: FNV-1a over the 8 little-endian bytes, then the absolute value. */
    static long fnv64(long value) {
        long hash = 0xCBF29CE484222325L;
        long v = value;
        for (int i = 0; i < 8; i++) {
            hash ^= v & 0xff;
            v >>= 8;
            hash *= 1099511628211L;
        }
        return Math.abs(hash);
    }
}
