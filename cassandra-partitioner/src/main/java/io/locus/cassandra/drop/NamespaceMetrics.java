package io.locus.cassandra.drop;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.BitSet;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * The DROP evaluation metrics of drop-virtcache.md A.6.2, over a set of path keys placed on nodes.
 *
 * <p><b>Locality</b> of a directory D (the thesis's N): the number of distinct nodes holding the entries of D's
 * subtree (its descendants, not D's own entry, which lives with its parent's listing). 1 is optimal. <b>Listing
 * locality</b>: the number of nodes holding D's direct entries (one readdir+stat). <b>Balance</b>: max/mean and
 * max/min of the per-node key counts. Pure; not thread-safe while accumulating.
 */
public final class NamespaceMetrics {
    private final int nodes;
    private final Map<String, BitSet> subtree = new HashMap<>();
    private final Map<String, BitSet> listing = new HashMap<>();
    private final Map<String, Integer> depthOf = new HashMap<>();
    private final long[] load;

    /** Empty metrics for {@code nodes} nodes. */
    public NamespaceMetrics(int nodes) {
        this.nodes = nodes;
        this.load = new long[nodes];
    }

    /** Records that the key {@code path} lives on {@code node}. Non-path keys only count towards load. */
    public void add(String path, int node) {
        load[node]++;
        List<String> c = PathNames.components(path);
        if (c == null || c.isEmpty()) {
            return;
        }
        for (int d = 1; d < c.size(); d++) {
            String dir = PathNames.prefix(c, d);
            subtree.computeIfAbsent(dir, k -> new BitSet(nodes)).set(node);
            depthOf.putIfAbsent(dir, d);
        }
        listing.computeIfAbsent(PathNames.prefix(c, c.size() - 1), k -> new BitSet(nodes)).set(node);
    }

    /** Locality of the directories at one depth. */
    public record DepthLocality(int depth, int directories, double meanNodes, int medianNodes, int maxNodes,
                                double singleNodeFraction) {
        /** The thesis's box label, (mean N − 1) × 100 %. */
        public double extraNodesPercent() {
            return (meanNodes - 1) * 100;
        }
    }

    /** Subtree locality of the directories at {@code depth} (1 = "/usr"). */
    public DepthLocality subtreeLocality(int depth) {
        List<Integer> spans = new ArrayList<>();
        for (Map.Entry<String, BitSet> e : subtree.entrySet()) {
            if (depthOf.get(e.getKey()) == depth) {
                spans.add(e.getValue().cardinality());
            }
        }
        return summarize(depth, spans);
    }

    /** Subtree locality of all directories at depth &gt;= {@code minDepth}, reported with depth = minDepth. */
    public DepthLocality subtreeLocalityAtLeast(int minDepth) {
        List<Integer> spans = new ArrayList<>();
        for (Map.Entry<String, BitSet> e : subtree.entrySet()) {
            if (depthOf.get(e.getKey()) >= minDepth) {
                spans.add(e.getValue().cardinality());
            }
        }
        return summarize(minDepth, spans);
    }

    /** Listing locality over every directory that has entries (depth reported as -1). */
    public DepthLocality listingLocality() {
        List<Integer> spans = new ArrayList<>();
        for (BitSet b : listing.values()) {
            spans.add(b.cardinality());
        }
        return summarize(-1, spans);
    }

    private static DepthLocality summarize(int depth, List<Integer> spans) {
        if (spans.isEmpty()) {
            return new DepthLocality(depth, 0, 0, 0, 0, 1.0);
        }
        int[] s = spans.stream().mapToInt(Integer::intValue).sorted().toArray();
        double mean = Arrays.stream(s).average().orElse(0);
        long single = Arrays.stream(s).filter(x -> x == 1).count();
        return new DepthLocality(depth, s.length, mean, s[s.length / 2], s[s.length - 1], (double) single / s.length);
    }

    /** Per-node key counts and their spread. */
    public record Balance(long min, long max, double mean, double maxOverMean, double maxOverMin) {
    }

    /** Balance of the keys added so far; max/min is infinite if some node holds nothing. */
    public Balance balance() {
        return balanceOf(load);
    }

    /** Balance of arbitrary per-node loads. */
    public static Balance balanceOf(long[] loads) {
        long min = Arrays.stream(loads).min().orElse(0);
        long max = Arrays.stream(loads).max().orElse(0);
        double mean = Arrays.stream(loads).average().orElse(0);
        return new Balance(min, max, mean, mean == 0 ? 1 : max / mean,
                min == 0 ? Double.POSITIVE_INFINITY : (double) max / min);
    }

    /** Per-node key counts (a copy). */
    public long[] loads() {
        return load.clone();
    }
}
