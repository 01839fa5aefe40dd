package io.locus.memcached.schedule;

/**
 * The service-time model of one backend (MicroFuge §4.2): an exponentially weighted mean and a quantile over the
 * last {@code sampleWindow} samples. A sample is the time the backend spent on one request, excluding the wait in
 * the proxy's queue [MicroFuge §4.2] and behind the requests in flight ({@link AdmissionController#observeReply}).
 *
 * <p>Until {@code coldStartSamples} samples arrived, both estimates are the configured initial estimate.
 * The quantile is recomputed every {@value #REFRESH_EVERY} samples (and when cold start ends), so it lags by at most
 * that many samples. It is the window's nearest-rank quantile, found by selection (quickselect) in a scratch copy
 * kept for the purpose: linear in the window and without allocation, because the model learns on the I/O thread from
 * every backend reply. Not thread-safe: confined to the backend's owner thread.
 */
public final class LatencyModel {
    static final int REFRESH_EVERY = 64;

    private final double alpha;
    private final double quantile;
    private final int coldStartSamples;
    private final long initialNanos;
    private final long[] ring;
    /** The window copied for selection, which reorders it. */
    private final long[] scratch;

    private long count;
    private double meanNanos;
    private long quantileNanos;

    /** A model with the given configuration's alpha, quantile, window and cold-start settings. */
    public LatencyModel(SchedulerConfig config) {
        this.alpha = config.ewmaAlpha();
        this.quantile = config.quantile();
        this.coldStartSamples = config.coldStartSamples();
        this.initialNanos = config.initialServiceEstimate().toNanos();
        this.ring = new long[config.sampleWindow()];
        this.scratch = new long[ring.length];
        this.meanNanos = initialNanos;
        this.quantileNanos = initialNanos;
    }

    /**
     * Adds one observed service time.
     *
     * @param serviceNanos service time in nanoseconds; negative values (clock misuse) are
     *     rejected
     * @throws IllegalArgumentException if {@code serviceNanos < 0}
     */
    public void observe(long serviceNanos) {
        if (serviceNanos < 0) {
            throw new IllegalArgumentException("service time " + serviceNanos + " ns (expected: >= 0)");
        }
        meanNanos = count == 0 ? serviceNanos : meanNanos + alpha * (serviceNanos - meanNanos);
        ring[(int) (count % ring.length)] = serviceNanos;
        count++;
        if (count == Math.max(1, coldStartSamples) || (count > coldStartSamples && count % REFRESH_EVERY == 0)) {
            refreshQuantile();
        }
    }

    private void refreshQuantile() {
        int n = (int) Math.min(count, ring.length);
        System.arraycopy(ring, 0, scratch, 0, n);
        int rank = (int) Math.ceil(quantile * n) - 1; // nearest-rank definition
        quantileNanos = select(scratch, n, Math.max(0, Math.min(n - 1, rank)));
    }

    /**
     * The {@code k}-th smallest (0-based) of {@code a[0..n)}, which it reorders: Hoare's selection with the median of
     * three as pivot, expected linear time.
     */
    static long select(long[] a, int n, int k) {
        int lo = 0;
        int hi = n - 1;
        while (lo < hi) {
            int mid = (lo + hi) >>> 1;
            long pivot = median(a[lo], a[mid], a[hi]);
            int i = lo;
            int j = hi;
            while (i <= j) {
                while (a[i] < pivot) {
                    i++;
                }
                while (a[j] > pivot) {
                    j--;
                }
                if (i <= j) {
                    long t = a[i];
                    a[i] = a[j];
                    a[j] = t;
                    i++;
                    j--;
                }
            }
            // a[lo..j] <= pivot <= a[i..hi], and everything strictly between j and i equals the pivot
            if (k <= j) {
                hi = j;
            } else if (k >= i) {
                lo = i;
            } else {
                return a[k];
            }
        }
        return a[k];
    }

    private static long median(long x, long y, long z) {
        return Math.max(Math.min(x, y), Math.min(Math.max(x, y), z));
    }

    /** Samples observed so far. */
    public long sampleCount() {
        return count;
    }

    /** True while fewer than {@code coldStartSamples} samples arrived. */
    public boolean coldStart() {
        return count < coldStartSamples;
    }

    /** Mean service time in nanoseconds (the initial estimate during cold start). */
    public double meanNanos() {
        return coldStart() ? initialNanos : meanNanos;
    }

    /** The configured quantile of the service time in nanoseconds (the initial estimate during cold start). */
    public long quantileNanos() {
        return coldStart() ? initialNanos : quantileNanos;
    }
}
