package io.locus.memcached.cache;

/**
 * The deadline classes of the cache: queue {@code q} holds items whose deadline falls in
 * {@code [B*c^(q-1), B*c^q)}, queue 0 holds deadlines below {@code B}, and the last queue is open-ended and
 * also holds best-effort items. The eviction multiplier of queue {@code q} is {@code c^q}.
 *
 * <p>Immutable and thread-safe. With the defaults (B = 2 ms, c = 2, Q = 12): 1999 µs is class 0, 2000 µs
 * class 1, 4000 µs class 2, 1 s class 9, 5 s class 11.
 */
public final class DeadlineClasses {
    /*
     * Design note. [MicroFuge §3.1.1] fixes B = 2 ms and c = 2 but not the number of queues; decision 3 of DESIGN.md
     * sets Q = 12 and half-open ranges. [MicroFuge §3.1.2] says the multiplier is "inversely proportional to the queue
     * number" but its examples are 1, 0.5, 0.25, i.e. geometric; decisions 1-2 of DESIGN.md decide c^q applied to the
     * age (so a long deadline ages faster). The boundaries are computed with integer multiplication, not log(), so that
     * the exact boundary values land in the upper class.
     */
    private final long baseNanos;
    private final int factor;
    private final int queues;
    private final long[] lowerBoundNanos; // lowerBoundNanos[q] for q >= 1
    private final double[] multiplier;

    /**
     * @param baseNanos upper bound of class 0 in nanoseconds, > 0
     * @param factor growth factor of the ranges, >= 2
     * @param queues number of classes, 1..62; 1 means a plain LRU
     * @throws IllegalArgumentException if a value is out of range
     */
    public DeadlineClasses(long baseNanos, int factor, int queues) {
        if (baseNanos <= 0) {
            throw new IllegalArgumentException("dlc.base " + baseNanos + " ns (expected: > 0)");
        }
        if (factor < 2) {
            throw new IllegalArgumentException("dlc.factor " + factor + " (expected: >= 2)");
        }
        if (queues < 1 || queues > 62) {
            throw new IllegalArgumentException("dlc.queues " + queues + " (expected: 1..62)");
        }
        this.baseNanos = baseNanos;
        this.factor = factor;
        this.queues = queues;
        this.lowerBoundNanos = new long[queues];
        this.multiplier = new double[queues];
        long bound = baseNanos;
        double weight = 1;
        for (int q = 0; q < queues; q++) {
            multiplier[q] = weight;
            weight *= factor;
            if (q >= 1) {
                lowerBoundNanos[q] = bound;
                // Saturate: classes beyond Long.MAX_VALUE ns are unreachable anyway.
                bound = bound > Long.MAX_VALUE / factor ? Long.MAX_VALUE : bound * factor;
            }
        }
    }

    /** Number of classes (queues). */
    public int queues() {
        return queues;
    }

    /** The class (queue index) for items without a deadline: the last, cheapest-to-evict one. */
    public int bestEffortClass() {
        return queues - 1;
    }

    /**
     * The class of a relative deadline.
     *
     * @param deadlineNanos relative deadline in nanoseconds, >= 0, or {@link DeadlineCache#NO_DEADLINE}
     * @return the queue index in {@code [0, queues)}
     */
    public int classOf(long deadlineNanos) {
        if (deadlineNanos == DeadlineCache.NO_DEADLINE) {
            return bestEffortClass();
        }
        if (deadlineNanos < 0) {
            throw new IllegalArgumentException("deadline " + deadlineNanos + " ns (expected: >= 0 or NO_DEADLINE)");
        }
        if (deadlineNanos < baseNanos) {
            return 0;
        }
        int q = 1;
        while (q < queues - 1 && deadlineNanos >= lowerBoundNanos[q + 1]) {
            q++;
        }
        return Math.min(q, queues - 1);
    }

    /** The eviction multiplier {@code c^q} of class {@code q}. */
    public double multiplier(int q) {
        return multiplier[q];
    }

    /** Lower bound of class {@code q} in nanoseconds (0 for class 0). */
    public long lowerBoundNanos(int q) {
        return lowerBoundNanos[q];
    }

    @Override
    public String toString() {
        return "DeadlineClasses[base=" + baseNanos + "ns, factor=" + factor + ", queues=" + queues + "]";
    }
}
