package io.locus.memcached.schedule;

import java.util.Arrays;

/**
 * The service-time model of one backend (MicroFuge §4.2): an exponentially weighted mean and a quantile over the
 * last {@code sampleWindow} samples. A sample is the time from dispatch of a backend request to its complete
 * response, excluding the wait in the proxy's queue [MicroFuge §4.2].
 *
 * <p>Until {@code coldStartSamples} samples arrived, both estimates are the configured initial estimate.
 * The quantile is recomputed from a sorted copy every {@value #REFRESH_EVERY} samples (and when cold start
 * ends), so it lags by at most that many samples. Not thread-safe: confined to the backend's owner thread.
 */
public final class LatencyModel {
    static final int REFRESH_EVERY = 64;

    private final double alpha;
    private final double quantile;
    private final int coldStartSamples;
    private final long initialNanos;
    private final long[] ring;
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
        this.meanNanos = initialNanos;
        this.quantileNanos = initialNanos;
    }

    /**
     * Adds one observed service time.
     *
     * @param serviceNanos dispatch-to-response time in nanoseconds; negative values (clock misuse) are
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
        long[] sorted = Arrays.copyOf(ring, n);
        Arrays.sort(sorted);
        int rank = (int) Math.ceil(quantile * n) - 1; // nearest-rank definition
        quantileNanos = sorted[Math.max(0, Math.min(n - 1, rank))];
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
