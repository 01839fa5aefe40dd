package io.locus.cassandra.balance;

import io.locus.cassandra.drop.PathNames;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * The DROP evaluation metrics (thesis §6.6.1; exact definitions in DESIGN.md, "Metrics"), over a set of path keys
 * placed on nodes.
 *
 * <p><b>Locality</b> of a directory D (the thesis's N): the number of distinct nodes holding the entries of D's
 * subtree (its descendants, not D's own entry, which lives with its parent's listing). 1 is optimal. <b>Listing
 * locality</b>: the number of nodes holding D's direct entries (one readdir+stat). <b>Balance</b>: max/mean and
 * max/min of the per-node key counts. Pure; not thread-safe while accumulating.
 *
 * <p>Cost: one hash lookup per key (none when the key has the previous key's parent, as in a sorted listing) and
 * one node bit set per directory, so millions of keys fit in a few hundred MB; subtree sets are derived from the
 * listing sets when queried (children OR-ed into parents), not stored per key and ancestor.
 */
public final class NamespaceMetrics {
    private final int words; // 64-bit words per node set
    private final Map<String, Integer> dirIds = new HashMap<>();
    private int[] parent = new int[1024]; // parent directory id; -1 for "/"
    private int[] depth = new int[1024]; // components of the directory; 0 for "/"
    private long[] listing; // node set of each directory's direct entries
    private int dirs;
    private String lastParent;
    private int lastParentId;
    private long[] subtree; // derived on query; null after add
    private final long[] load;

    /** Empty metrics for {@code nodes} nodes. */
    public NamespaceMetrics(int nodes) {
        this.words = (nodes + 63) / 64;
        this.load = new long[nodes];
        this.listing = new long[1024 * words];
    }

    /** Records that the key {@code path} lives on {@code node}. Non-path keys only count towards load. */
    public void add(String path, int node) {
        load[node]++;
        String parentPath = parentPath(path);
        if (parentPath == null) {
            return;
        }
        int id;
        if (parentPath == lastParent) {
            id = lastParentId;
        } else {
            id = intern(parentPath);
            lastParent = parentPath;
            lastParentId = id;
        }
        listing[id * words + (node >>> 6)] |= 1L << node;
        subtree = null;
    }

    /**
     * The normalised parent directory of an absolute path ({@link #lastParent} itself when it is the same), or null
     * for "/", non-path keys and keys with a '..' segment.
     */
    private String parentPath(String path) {
        if (path.isEmpty() || path.charAt(0) != '/') {
            return null;
        }
        if (path.indexOf("//") < 0 && path.indexOf("/.") < 0 && path.charAt(path.length() - 1) != '/') {
            // Already normalised (the usual case): the parent is the prefix up to the last '/'.
            int cut = path.lastIndexOf('/');
            int len = cut == 0 ? 1 : cut;
            if (lastParent != null && lastParent.length() == len && path.regionMatches(0, lastParent, 0, len)) {
                return lastParent;
            }
            return path.substring(0, len);
        }
        List<String> c = PathNames.components(path);
        if (c == null || c.isEmpty()) {
            return null;
        }
        String p = PathNames.prefix(c, c.size() - 1);
        return p.equals(lastParent) ? lastParent : p;
    }

    /** Id of a normalised directory path, creating it and its ancestors; a parent's id is below its children's. */
    private int intern(String dir) {
        Integer known = dirIds.get(dir);
        if (known != null) {
            return known;
        }
        int p;
        int d;
        if (dir.equals("/")) {
            p = -1;
            d = 0;
        } else {
            int cut = dir.lastIndexOf('/');
            p = intern(cut == 0 ? "/" : dir.substring(0, cut));
            d = depth[p] + 1;
        }
        if (dirs == parent.length) {
            parent = Arrays.copyOf(parent, 2 * dirs);
            depth = Arrays.copyOf(depth, 2 * dirs);
            listing = Arrays.copyOf(listing, 2 * dirs * words);
        }
        int id = dirs++;
        parent[id] = p;
        depth[id] = d;
        dirIds.put(dir, id);
        return id;
    }

    /** Node sets of every directory's subtree: its own listing OR-ed with its descendants' (children first). */
    private long[] subtrees() {
        if (subtree == null) {
            long[] s = Arrays.copyOf(listing, dirs * words);
            for (int id = dirs - 1; id > 0; id--) {
                int p = parent[id];
                if (p >= 0) {
                    for (int w = 0; w < words; w++) {
                        s[p * words + w] |= s[id * words + w];
                    }
                }
            }
            subtree = s;
        }
        return subtree;
    }

    private int cardinality(long[] sets, int id) {
        int n = 0;
        for (int w = 0; w < words; w++) {
            n += Long.bitCount(sets[id * words + w]);
        }
        return n;
    }

    /** Locality of the directories at one depth. */
    public record DepthLocality(
            int depth, int directories, double meanNodes, int medianNodes, int maxNodes, double singleNodeFraction) {
        /** The thesis's box label, (mean N − 1) × 100 %. */
        public double extraNodesPercent() {
            return (meanNodes - 1) * 100;
        }
    }

    /** Subtree locality of the directories at {@code depth} (1 = "/usr"). */
    public DepthLocality subtreeLocality(int depth) {
        return subtreeLocality(depth, depth);
    }

    /** Subtree locality of all directories at depth &gt;= {@code minDepth}, reported with depth = minDepth. */
    public DepthLocality subtreeLocalityAtLeast(int minDepth) {
        return subtreeLocality(minDepth, Integer.MAX_VALUE);
    }

    private DepthLocality subtreeLocality(int minDepth, int maxDepth) {
        long[] s = subtrees();
        List<Integer> spans = new ArrayList<>();
        for (int id = 0; id < dirs; id++) {
            // "/" (depth 0) is never reported: its subtree is the whole namespace.
            if (depth[id] >= Math.max(1, minDepth) && depth[id] <= maxDepth) {
                spans.add(cardinality(s, id));
            }
        }
        return summarize(minDepth, spans);
    }

    /** Listing locality over every directory that has entries (depth reported as -1). */
    public DepthLocality listingLocality() {
        List<Integer> spans = new ArrayList<>();
        for (int id = 0; id < dirs; id++) {
            int n = cardinality(listing, id);
            if (n > 0) {
                spans.add(n);
            }
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
    public record Balance(long min, long max, double mean, double maxOverMean, double maxOverMin) {}

    /** Balance of the keys added so far; max/min is infinite if some node holds nothing. */
    public Balance balance() {
        return balanceOf(load);
    }

    /** Balance of arbitrary per-node loads. */
    public static Balance balanceOf(long[] loads) {
        long min = Arrays.stream(loads).min().orElse(0);
        long max = Arrays.stream(loads).max().orElse(0);
        double mean = Arrays.stream(loads).average().orElse(0);
        return new Balance(
                min, max, mean, mean == 0 ? 1 : max / mean, min == 0 ? Double.POSITIVE_INFINITY : (double) max / min);
    }

    /** Per-node key counts (a copy). */
    public long[] loads() {
        return load.clone();
    }
}
