package io.locus.cassandra.balance;

import io.locus.cassandra.drop.ReservedRegion;
import io.locus.cassandra.drop.Ring;
import io.locus.cassandra.drop.TokenMath;
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
 * max/mean by 1 + 2 × snapTolerance for one vnode per node. The reserved region of non-path keys takes its share of
 * the ring like any other keys (see {@link #plan(List, int, int, double, Double)}). Deterministic; pure.
 */
public final class DropPlanner {
    private DropPlanner() {}

    /**
     * A planned ring: tokens per node, the key count each node is predicted to hold (sampled path keys plus its part
     * of the reserved region's estimated keys), the level of every cut, the share of all keys assumed to be non-path
     * keys, and each node's share of the reserved region.
     */
    public record Plan(
            List<List<byte[]>> tokensPerNode,
            Ring ring,
            long[] predictedLoad,
            List<Integer> cutLevels,
            double reservedShare,
            boolean reservedShareSampled,
            double[] reservedOwners) {}

    /** {@link #plan(List, int, int, double, Double)} with the reserved share taken from the sample or the default. */
    public static Plan plan(List<byte[]> keyTokens, int nodes, int vnodesPerNode, double snapTolerance) {
        return plan(keyTokens, nodes, vnodesPerNode, snapTolerance, null);
    }

    /**
     * Plans a ring.
     *
     * <p>The reserved region ({@link ReservedRegion}) is planned as a uniform mass of keys at the top of the ring:
     * {@code reservedShare} of all keys, or, when that is null, the share of non-path keys in the sample, or {@link
     * ReservedRegion#DEFAULT_SHARE} when the sample holds none. Cuts that fall into it are placed at the matching
     * fraction of the region, so the region is shared by as many consecutive ranges (hence distinct nodes) as its
     * share asks for, and the last token is always the ring's maximum: nothing above it wraps to the first node.
     *
     * @param keyTokens tokens of the sampled keys (any order; not modified)
     * @param nodes number of nodes (&gt;= 1)
     * @param vnodesPerNode tokens per node, Cassandra's num_tokens (&gt;= 1)
     * @param snapTolerance fraction of a range's keys a cut may move to reach a shallower boundary, in [0, 0.5]
     * @param reservedShare share of all keys that are not paths, in [0, 1), or null to take it from the sample
     * @throws IllegalArgumentException if there are fewer distinct path keys than ranges, or a parameter is out of
     *     range
     */
    public static Plan plan(
            List<byte[]> keyTokens, int nodes, int vnodesPerNode, double snapTolerance, Double reservedShare) {
        if (nodes < 1 || vnodesPerNode < 1) {
            throw new IllegalArgumentException(
                    "nodes " + nodes + ", vnodes " + vnodesPerNode + " (expected: >= 1 each)");
        }
        if (!(snapTolerance >= 0 && snapTolerance <= 0.5)) {
            throw new IllegalArgumentException("snapTolerance " + snapTolerance + " (expected: within [0, 0.5])");
        }
        if (reservedShare != null && !(reservedShare >= 0 && reservedShare < 1)) {
            throw new IllegalArgumentException("reservedShare " + reservedShare + " (expected: within [0, 1))");
        }
        List<byte[]> sorted = new ArrayList<>(keyTokens);
        sorted.sort(TokenMath::compare);
        int ranges = nodes * vnodesPerNode;
        List<byte[]> paths = new ArrayList<>();
        for (byte[] t : sorted) {
            if (!ReservedRegion.contains(t)) {
                paths.add(t);
            }
        }
        if (paths.size() < 2L * ranges) {
            throw new IllegalArgumentException("key sample of " + paths.size() + " path keys for " + ranges
                    + " ranges (expected: at least " + 2 * ranges + " keys)");
        }
        long nonPath = sorted.size() - paths.size();
        boolean sampled = reservedShare == null && nonPath > 0;
        double share = reservedShare != null
                ? reservedShare
                : sampled ? (double) nonPath / sorted.size() : ReservedRegion.DEFAULT_SHARE;
        KeyRangeHistogram h = KeyRangeHistogram.ofSorted(paths, 1);
        long pathKeys = h.weight();
        double reservedKeys = share * pathKeys / (1 - share);
        double total = pathKeys + reservedKeys;
        long tolerance = (long) (snapTolerance * total / ranges);
        List<byte[]> tokens = new ArrayList<>();
        List<Integer> owners = new ArrayList<>();
        List<Integer> cutLevels = new ArrayList<>();
        int lastIndex = -1;
        for (int r = 1; r < ranges; r++) {
            double target = total * r / ranges;
            BoundarySnapper.Cut cut = null;
            if (target < pathKeys && lastIndex + 2 < h.size()) {
                KeyRangeHistogram rest = h.slice(lastIndex + 1, h.size());
                long offset = lastIndex < 0 ? 0 : h.cumulativeWeight(lastIndex);
                cut = BoundarySnapper.snap(rest, Math.round(target) - offset, tolerance);
            }
            if (cut != null) {
                lastIndex += cut.index() + 1;
                tokens.add(cut.token());
                cutLevels.add(cut.lcpLevels());
            } else if (reservedKeys > 0 && target > pathKeys) {
                tokens.add(ReservedRegion.tokenAt((target - pathKeys) / reservedKeys));
                cutLevels.add(0);
            } else {
                throw new IllegalArgumentException("cannot place cut " + r + " of " + ranges
                        + ": the remaining keys have a single token (expected: more distinct keys)");
            }
            owners.add((r - 1) % nodes);
        }
        tokens.add(TokenMath.maximum());
        owners.add((ranges - 1) % nodes);
        Ring ring = new Ring(tokens, owners);
        double[] reservedOwners = ReservedRegion.owners(ring, nodes);
        long[] load = new long[nodes];
        for (byte[] t : paths) {
            load[ring.ownerOf(t)]++;
        }
        for (int n = 0; n < nodes; n++) {
            load[n] += Math.round(reservedOwners[n] * reservedKeys);
        }
        List<List<byte[]>> perNode = new ArrayList<>();
        for (int n = 0; n < nodes; n++) {
            perNode.add(new ArrayList<>());
        }
        for (int i = 0; i < tokens.size(); i++) {
            perNode.get(owners.get(i)).add(tokens.get(i));
        }
        return new Plan(perNode, ring, load, cutLevels, share, sampled, reservedOwners);
    }
}
