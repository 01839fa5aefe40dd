package io.locus.gluster.virtcache.sizing;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.Iterator;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;

/**
 * A shadow LRU of block ids (no data) chained into equal segments, counting hits per segment: the cheap hit-rate curve
 * of HCache (Arumugam, <i>Performance Enhancements in Large Scale Storage Systems</i>, ch. 3, §3.4). A hit in segment
 * s means a cache of (s + 1) segments would have served the access; so the cumulative hits up to segment s, over all
 * accesses, is the hit rate of a cache that large.
 *
 * <p>Each access costs O(segments). Not thread-safe.
 */
public final class ShadowLru {
    private final int segments;
    private final int segmentBlocks;
    /** Segment 0 is the most recent; within a segment, iteration order is oldest first. */
    private final List<LinkedHashSet<Long>> lists = new ArrayList<>();

    private final Map<Long, Integer> segmentOf = new HashMap<>();
    private final long[] hits;
    private long accesses;

    /**
     * @param capacityBlocks the largest cache considered, in blocks
     * @param segments how many equal parts the curve has (10 in HCache)
     * @throws IllegalArgumentException unless segments ≥ 1 and capacityBlocks is a positive multiple of segments
     */
    public ShadowLru(int capacityBlocks, int segments) {
        if (segments < 1 || capacityBlocks < segments || capacityBlocks % segments != 0) {
            throw new IllegalArgumentException("shadow LRU of " + capacityBlocks + " blocks in " + segments
                    + " segments (expected: segments >= 1 and blocks a positive multiple of segments)");
        }
        this.segments = segments;
        this.segmentBlocks = capacityBlocks / segments;
        for (int i = 0; i < segments; i++) {
            lists.add(new LinkedHashSet<>());
        }
        this.hits = new long[segments];
    }

    /** Records one access to {@code block}. */
    public void access(long block) {
        accesses++;
        Integer seg = segmentOf.get(block);
        if (seg != null) {
            hits[seg]++;
            lists.get(seg).remove(block);
        }
        lists.get(0).add(block);
        segmentOf.put(block, 0);
        // Each segment that overflowed passes its oldest block down; the last one forgets it.
        for (int s = 0; s < segments && lists.get(s).size() > segmentBlocks; s++) {
            Iterator<Long> oldest = lists.get(s).iterator();
            long demoted = oldest.next();
            oldest.remove();
            if (s + 1 < segments) {
                lists.get(s + 1).add(demoted);
                segmentOf.put(demoted, s + 1);
            } else {
                segmentOf.remove(demoted);
            }
        }
    }

    /** The hit-rate curve of the current epoch: what was counted since construction or {@link #newEpoch()}. */
    public HitRateCurve curve() {
        return new HitRateCurve(segmentBlocks, hits.clone(), accesses);
    }

    /** Starts a new epoch: counts reset, the LRU's contents stay (they are the history the next epoch hits on). */
    public void newEpoch() {
        java.util.Arrays.fill(hits, 0);
        accesses = 0;
    }

    public int capacityBlocks() {
        return segments * segmentBlocks;
    }
}
