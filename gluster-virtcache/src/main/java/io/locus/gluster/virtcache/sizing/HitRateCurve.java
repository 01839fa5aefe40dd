package io.locus.gluster.virtcache.sizing;

import java.util.Arrays;

/**
 * Hits per shadow-LRU segment over some number of accesses: the hit rate of every cache size that is a whole number
 * of segments, and in between by linear interpolation. Immutable.
 *
 * @param segmentBlocks blocks per segment
 * @param hits hits in each segment, most recent first
 * @param accesses all accesses counted, hits or not
 */
public record HitRateCurve(int segmentBlocks, long[] hits, long accesses) {
    /** @throws IllegalArgumentException for a negative count, or more hits than accesses */
    public HitRateCurve {
        if (segmentBlocks < 1 || hits.length == 0 || accesses < 0) {
            throw new IllegalArgumentException("hit-rate curve of " + hits.length + " segments of " + segmentBlocks
                    + " blocks over " + accesses + " accesses (expected: positive sizes)");
        }
        long sum = 0;
        for (long h : hits) {
            if (h < 0) {
                throw new IllegalArgumentException("hit-rate curve: negative hits " + Arrays.toString(hits));
            }
            sum += h;
        }
        if (sum > accesses) {
            throw new IllegalArgumentException(
                    "hit-rate curve: " + sum + " hits over " + accesses + " accesses (expected: hits <= accesses)");
        }
        hits = hits.clone();
    }

    /** The largest cache the curve covers, in blocks. */
    public long capacityBlocks() {
        return (long) segmentBlocks * hits.length;
    }

    /** The hit rate of a cache of {@code blocks} blocks (0 when nothing was accessed). */
    public double hitRate(long blocks) {
        if (accesses == 0 || blocks <= 0) {
            return 0;
        }
        long whole = Math.min(blocks / segmentBlocks, hits.length);
        double h = 0;
        for (int s = 0; s < whole; s++) {
            h += hits[s];
        }
        if (whole < hits.length) {
            h += hits[(int) whole] * (double) (blocks % segmentBlocks) / segmentBlocks;
        }
        return h / accesses;
    }

    /**
     * The smallest cache, in blocks, whose hit rate reaches {@code target}; interpolated within the segment where the
     * cumulative hits cross it. If the whole curve stays below the target, its full capacity: a larger cache than
     * the shadow covers is never asked for.
     *
     * @throws IllegalArgumentException unless 0 ≤ target ≤ 1
     */
    public long blocksFor(double target) {
        if (!(target >= 0 && target <= 1)) {
            throw new IllegalArgumentException("target hit rate " + target + " (expected: 0..1)");
        }
        double needed = target * accesses;
        if (needed <= 0) {
            return 0;
        }
        double cumulative = 0;
        for (int s = 0; s < hits.length; s++) {
            if (cumulative + hits[s] >= needed) {
                double fraction = hits[s] == 0 ? 0 : (needed - cumulative) / hits[s];
                return (long) Math.ceil((s + fraction) * segmentBlocks);
            }
            cumulative += hits[s];
        }
        return capacityBlocks();
    }
}
