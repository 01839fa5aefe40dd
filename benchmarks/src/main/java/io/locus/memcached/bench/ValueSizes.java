package io.locus.memcached.bench;

/**
 * Value sizes from the Facebook ETC model (generalized Pareto, location 0, scale 214.476, shape 0.348238; Atikoglu
 * et al., SIGMETRICS 2012, as used by mutilate), drawn per key from a seeded hash so a key always has the same size;
 * the same constants and seed as {@code io.locus.memcached.cache.sim.Workload}. Mean about 330 bytes.
 */
public final class ValueSizes {
    /** Largest value drawn, bytes (the tail is clamped here). */
    public static final int MAX_VALUE_BYTES = 64 * 1024;

    private static final double GPD_SCALE = 214.476;
    private static final double GPD_SHAPE = 0.348238;
    private static final long SEED_SIZE = 0xABC98388FB8FAC03L;

    private ValueSizes() {}

    /** The value size of a key, bytes, in [1, {@value #MAX_VALUE_BYTES}]. */
    public static int bytesOf(long key) {
        double u = KeyHash.unit(key, SEED_SIZE);
        double x = GPD_SCALE / GPD_SHAPE * (Math.pow(1 - u, -GPD_SHAPE) - 1);
        return (int) Math.max(1, Math.min(MAX_VALUE_BYTES, Math.ceil(x)));
    }
}
