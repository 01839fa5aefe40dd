package io.locus.memcached.proxy;

import java.util.concurrent.atomic.AtomicLongArray;

/**
 * A lock-free log-bucket histogram of latencies in microseconds: 8 linear sub-buckets per power of two, so a
 * reported quantile is at most 12.5 % above the true value (it is the upper bound of the bucket holding it).
 * Values from 0 to 2^40 µs (about 12 days); larger values count in the last bucket.
 *
 * <p>Thread-safe; {@link #quantileMicros} reads the buckets one after the other (not an atomic cut).
 */
final class LatencyHistogram {
    private static final int SUB = 8;
    private static final int POWERS = 41;
    private final AtomicLongArray counts = new AtomicLongArray(POWERS * SUB);

    /** Records one latency, µs (negative values count as 0). */
    void record(long micros) {
        counts.incrementAndGet(bucketOf(Math.max(0, micros)));
    }

    static int bucketOf(long micros) {
        if (micros < SUB) {
            return (int) micros;
        }
        int power = 63 - Long.numberOfLeadingZeros(micros); // >= 3
        int sub = (int) ((micros >>> (power - 3)) & (SUB - 1));
        int bucket = (power - 2) * SUB + sub;
        return Math.min(bucket, POWERS * SUB - 1);
    }

    /** The largest value that falls into {@code bucket}. */
    static long upperBound(int bucket) {
        if (bucket < SUB) {
            return bucket;
        }
        int power = bucket / SUB + 2;
        long sub = bucket % SUB;
        return ((SUB + sub + 1) << (power - 3)) - 1;
    }

    long count() {
        long n = 0;
        for (int i = 0; i < counts.length(); i++) {
            n += counts.get(i);
        }
        return n;
    }

    /**
     * The {@code q}-quantile (0 < q <= 1) in µs by nearest rank, rounded up to its bucket's upper bound; 0 when
     * nothing was recorded.
     */
    long quantileMicros(double q) {
        long[] snap = new long[counts.length()];
        long n = 0;
        for (int i = 0; i < snap.length; i++) {
            snap[i] = counts.get(i);
            n += snap[i];
        }
        if (n == 0) {
            return 0;
        }
        long rank = Math.max(1, (long) Math.ceil(q * n));
        long seen = 0;
        for (int i = 0; i < snap.length; i++) {
            seen += snap[i];
            if (seen >= rank) {
                return upperBound(i);
            }
        }
        return upperBound(snap.length - 1);
    }
}
