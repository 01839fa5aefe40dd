package io.locus.memcached.bench.sim;

/**
 * Per-key attributes the traces lack, drawn deterministically from the key with fixed seeds, so every policy
 * sees the same workload.
 *
 * <ul>
 *   <li>Deadline: MicroFuge Table 6.2 [MicroFuge §6.1.2] by key hash, as DESIGN.md, "How it is measured"
 *       prescribes: range 1 (10-30 ms) w.p. 0.2, range 2 (30-100 ms) w.p. 0.3, range 3 (100-1000 ms) w.p. 0.5, uniform inside the
 *       range.</li>
 *   <li>Value size: the Facebook ETC value-size model (generalized Pareto, location 0, scale 214.476,
 *       shape 0.348238; Atikoglu et al., SIGMETRICS 2012, as used by mutilate), rounded up, clamped to
 *       [1, {@value #MAX_VALUE_BYTES}] bytes.</li>
 * </ul>
 */
final class Workload {
    static final int MAX_VALUE_BYTES = 64 * 1024;
    private static final double GPD_SCALE = 214.476;
    private static final double GPD_SHAPE = 0.348238;
    private static final long SEED_RANGE = 0x9E3779B97F4A7C15L;
    private static final long SEED_DEADLINE = 0xD1B54A32D192ED03L;
    private static final long SEED_SIZE = 0xABC98388FB8FAC03L;

    private Workload() {}

    /** Deadline range 1, 2 or 3 of Table 6.2. */
    static int rangeOf(long key) {
        double u = unit(key, SEED_RANGE);
        return u < 0.2 ? 1 : u < 0.5 ? 2 : 3;
    }

    /** Relative deadline in nanoseconds. */
    static long deadlineNanos(long key) {
        int range = rangeOf(key);
        double loMs = range == 1 ? 10 : range == 2 ? 30 : 100;
        double hiMs = range == 1 ? 30 : range == 2 ? 100 : 1000;
        return (long) ((loMs + (hiMs - loMs) * unit(key, SEED_DEADLINE)) * 1_000_000);
    }

    /** Value size in bytes. */
    static int valueBytes(long key) {
        double u = unit(key, SEED_SIZE);
        double x = GPD_SCALE / GPD_SHAPE * (Math.pow(1 - u, -GPD_SHAPE) - 1);
        return (int) Math.max(1, Math.min(MAX_VALUE_BYTES, Math.ceil(x)));
    }

    /** A uniform double in [0, 1) from the key and a seed (splitmix64 finaliser). */
    static double unit(long key, long seed) {
        long z = key + seed;
        z = (z ^ (z >>> 30)) * 0xBF58476D1CE4E5B9L;
        z = (z ^ (z >>> 27)) * 0x94D049BB133111EBL;
        z ^= z >>> 31;
        return (z >>> 11) * 0x1.0p-53;
    }
}
