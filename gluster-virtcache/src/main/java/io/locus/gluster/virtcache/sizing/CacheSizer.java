package io.locus.gluster.virtcache.sizing;

import java.util.ArrayDeque;
import java.util.Deque;

/**
 * One VM's cache size from its hit-rate curve and a latency target, smoothed over epochs (HCache, Arumugam, ch. 3,
 * §3.4 eqs. 3.1–3.3 and Algorithm 1): the target hit rate is h_t = (l_primary − l_target) / (l_primary − l_cache),
 * the size is the smallest whose curve reaches h_t, and the size handed out is the moving average of the last few
 * epochs' sizes. Not thread-safe.
 */
public final class CacheSizer {
    private final int smoothing;
    private final Deque<Long> recent = new ArrayDeque<>();

    /**
     * @param smoothingEpochs how many epochs the moving average spans (1 = no smoothing)
     * @throws IllegalArgumentException if smoothingEpochs is below 1
     */
    public CacheSizer(int smoothingEpochs) {
        if (smoothingEpochs < 1) {
            throw new IllegalArgumentException("smoothing epochs " + smoothingEpochs + " (expected: >= 1)");
        }
        this.smoothing = smoothingEpochs;
    }

    /**
     * Eq. 3.1: the share of reads the cache must serve for the average latency to meet {@code targetLatency}, when
     * the primary serves in {@code primaryLatency} and the cache in {@code cacheLatency}; clamped to 0..1 (0 when the
     * primary alone meets the target).
     *
     * @throws IllegalArgumentException unless all are positive and the cache is faster than the primary
     */
    public static double targetHitRate(double primaryLatency, double targetLatency, double cacheLatency) {
        if (!(primaryLatency > 0 && targetLatency > 0 && cacheLatency > 0) || !(cacheLatency < primaryLatency)) {
            throw new IllegalArgumentException("latencies primary " + primaryLatency + ", target " + targetLatency
                    + ", cache " + cacheLatency + " (expected: all > 0 and cache < primary)");
        }
        double h = (primaryLatency - targetLatency) / (primaryLatency - cacheLatency);
        return Math.max(0, Math.min(1, h));
    }

    /** Ends an epoch: the size this epoch's curve asks for, then the smoothed size to use, in blocks. */
    public long nextSize(HitRateCurve curve, double targetHitRate) {
        recent.addLast(curve.blocksFor(targetHitRate));
        if (recent.size() > smoothing) {
            recent.removeFirst();
        }
        long sum = 0;
        for (long s : recent) {
            sum += s;
        }
        return Math.round((double) sum / recent.size());
    }
}
