package io.locus.cassandra.drop;

import java.util.ArrayList;
import java.util.List;

/**
 * Initial token planning ({@code locus-drop plan}; DESIGN.md, "Token planning"): balanced, locality-preserving node
 * tokens for a sample of keys.
 *
 * <p>The key sample becomes one {@link KeyRangeHistogram}; the ring is cut into nodes × vnodes ranges at the key
 * quantiles, each cut snapped by {@link BoundarySnapper} to the shallowest subtree boundary within ± snapTolerance ×
 * (keys per range). Range i goes to node i mod nodes, so with one vnode per node the nodes follow ring order. Every
 * range's key count therefore differs from the ideal by at most 2 × snapTolerance × (keys per range), which bounds
 * max/mean by 1 + 2 × snapTolerance for one vnode per node. Deterministic; pure.
 */
public final class DropPlanner {
    /** End of the path region: every path token is at most this, every non-path token above it. */
    static final byte[] PATH_REGION_END;

    static {
        byte[] t = TokenMath.maximum();
        TokenLayout.putShort(t, 0, TokenLayout.NON_PATH_L1 - 1);
        PATH_REGION_END = t;
    }

    private DropPlanner() {}

    /** A planned ring: tokens per node and the key count each range is predicted to hold. */
    public record Plan(List<List<byte[]>> tokensPerNode, Ring ring, long[] predictedLoad, List<Integer> cutLevels) {}

    /**
     * Plans a ring.
     *
     * @param keyTokens tokens of the sampled keys (any order; not modified)
     * @param nodes number of nodes (&gt;= 1)
     * @param vnodesPerNode tokens per node, Cassandra's num_tokens (&gt;= 1)
     * @param snapTolerance fraction of a range's keys a cut may move to reach a shallower boundary, in [0, 0.5]
     * @throws IllegalArgumentException if there are fewer distinct keys than ranges, or a parameter is out of range
     */
    public static Plan plan(List<byte[]> keyTokens, int nodes, int vnodesPerNode, double snapTolerance) {
        if (nodes < 1 || vnodesPerNode < 1) {
            throw new IllegalArgumentException(
                    "nodes " + nodes + ", vnodes " + vnodesPerNode + " (expected: >= 1 each)");
        }
        if (!(snapTolerance >= 0 && snapTolerance <= 0.5)) {
            throw new IllegalArgumentException("snapTolerance " + snapTolerance + " (expected: within [0, 0.5])");
        }
        List<byte[]> sorted = new ArrayList<>(keyTokens);
        sorted.sort(TokenMath::compare);
        int ranges = nodes * vnodesPerNode;
        if (sorted.size() < 2L * ranges) {
            throw new IllegalArgumentException("key sample of " + sorted.size() + " keys for " + ranges
                    + " ranges (expected: at least " + 2 * ranges + " keys)");
        }
        KeyRangeHistogram h = KeyRangeHistogram.ofSorted(sorted, 1);
        long total = h.weight();
        long perRange = total / ranges;
        long tolerance = (long) (snapTolerance * perRange);
        List<byte[]> tokens = new ArrayList<>();
        List<Integer> owners = new ArrayList<>();
        List<Integer> cutLevels = new ArrayList<>();
        int lastIndex = -1;
        for (int r = 1; r < ranges; r++) {
            long target = total * r / ranges;
            KeyRangeHistogram rest = h.slice(lastIndex + 1, h.size());
            long offset = lastIndex < 0 ? 0 : h.cumulativeWeight(lastIndex);
            BoundarySnapper.Cut cut = BoundarySnapper.snap(rest, target - offset, tolerance);
            if (cut == null) {
                throw new IllegalArgumentException("cannot place cut " + r + " of " + ranges
                        + ": the remaining keys have a single token (expected: more distinct keys)");
            }
            lastIndex += cut.index() + 1;
            tokens.add(cut.token());
            owners.add((r - 1) % nodes);
            cutLevels.add(cut.lcpLevels());
        }
        byte[] last = TokenMath.compare(sorted.get(sorted.size() - 1), PATH_REGION_END) <= 0
                ? PATH_REGION_END
                : TokenMath.maximum();
        tokens.add(last);
        owners.add((ranges - 1) % nodes);
        Ring ring = new Ring(tokens, owners);
        long[] load = new long[nodes];
        for (byte[] t : sorted) {
            load[ring.ownerOf(t)]++;
        }
        List<List<byte[]>> perNode = new ArrayList<>();
        for (int n = 0; n < nodes; n++) {
            perNode.add(new ArrayList<>());
        }
        for (int i = 0; i < tokens.size(); i++) {
            perNode.get(owners.get(i)).add(tokens.get(i));
        }
        return new Plan(perNode, ring, load, cutLevels);
    }
}
