package io.locus.memcached.bench;

import java.util.SplittableRandom;

/**
 * How the backends are slowed so that deadlines matter on loopback (DESIGN.md, "How it is measured"): each memcached
 * sits behind a {@link SlowShim} that serves replies through one queue per backend with these service-time profiles,
 * and the deadline of each range scales with the profile. Real memcached on loopback answers in tens of microseconds,
 * far below any deadline.
 */
public enum Emulation {
    /** No shim: memcached as it is; deadlines of {@link #SCALED10}. */
    NONE("none: real memcached on loopback, no service-time emulation", 0, new double[] {2, 6.5, 55}),
    /**
     * The thesis's disk-backed DataServer: 0.2 ms w.p. 0.3 (file-system cache hit), else lognormal mean 6 ms cv 0.6;
     * one server per backend. Deadlines are the range midpoints of Table 6.2: 20, 65, 550 ms.
     */
    DISK("disk: per backend one server, S = 0.2 ms w.p. 0.3 else lognormal(mean 6 ms, cv 0.6)", 1, new double[] {
        20, 65, 550
    }),
    /** {@link #DISK} with every time divided by 10, deadlines too: 2, 6.5, 55 ms. */
    SCALED10(
            "scaled10: per backend one server, S = 0.02 ms w.p. 0.3 else lognormal(mean 0.6 ms, cv 0.6)",
            0.1,
            new double[] {2, 6.5, 55}),
    /**
     * MBal-like capacity limit: exponential service with mean 1/4000 s (4000 ops/s per backend) unless a shim is
     * started with another mean ({@link SlowShim#start(String, java.net.InetSocketAddress, Emulation, double, long)}).
     */
    CAPACITY(
            "capacity: per backend one server, S ~ exponential(mean 0.25 ms) = 4000 ops/s", -1, new double[] {2, 6.5, 55
            });

    private final String description;
    private final double scale;
    private final double[] deadlineMillis;

    Emulation(String description, double scale, double[] deadlineMillis) {
        this.description = description;
        this.scale = scale;
        this.deadlineMillis = deadlineMillis;
    }

    /** One line for the report. */
    public String description() {
        return description;
    }

    /** Whether replies go through a {@link SlowShim}. */
    public boolean shimmed() {
        return this != NONE;
    }

    /** The deadline of a range, milliseconds; best-effort has none (throws). */
    public double deadlineMillis(DeadlineRange range) {
        if (range == DeadlineRange.BEST_EFFORT) {
            throw new IllegalArgumentException("best-effort has no deadline");
        }
        return deadlineMillis[range.ordinal()];
    }

    /** Mean service time, nanoseconds (for the capacity line of the report). */
    public double meanServiceNanos() {
        return switch (this) {
            case NONE -> 0;
            case CAPACITY -> 250_000;
            default -> (0.3 * 0.2 + 0.7 * 6.0) * 1e6 * scale;
        };
    }

    /** One service time, nanoseconds. */
    public long serviceNanos(SplittableRandom random) {
        return serviceNanos(random, meanServiceNanos());
    }

    /**
     * One service time of this profile's shape with its mean moved to {@code meanNanos}: every draw is scaled by
     * {@code meanNanos / meanServiceNanos()}. Why: {@code proxy-balance} lowers a backend's capacity (a longer mean)
     * until the whole run fits on a 2-core machine, and the shape must stay the same.
     *
     * @throws IllegalArgumentException if {@code meanNanos} is not positive on a shimmed profile
     */
    public long serviceNanos(SplittableRandom random, double meanNanos) {
        if (this == NONE) {
            return 0;
        }
        if (!(meanNanos > 0)) {
            throw new IllegalArgumentException("mean service time " + meanNanos + " ns (expected: > 0)");
        }
        switch (this) {
            case CAPACITY:
                return (long) (-Math.log(1 - random.nextDouble()) * meanNanos);
            default:
                double k = meanNanos / meanServiceNanos();
                if (random.nextDouble() < 0.3) {
                    return (long) (200_000 * scale * k);
                }
                // Lognormal with mean m and coefficient of variation cv: sigma^2 = ln(1 + cv^2), mu = ln m - sigma^2/2.
                double sigma2 = Math.log(1 + 0.36);
                double mu = Math.log(6_000_000 * scale * k) - sigma2 / 2;
                return (long) Math.exp(mu + Math.sqrt(sigma2) * gaussian(random));
        }
    }

    private static double gaussian(SplittableRandom random) {
        double u1 = 1 - random.nextDouble();
        double u2 = random.nextDouble();
        return Math.sqrt(-2 * Math.log(u1)) * Math.cos(2 * Math.PI * u2);
    }
}
