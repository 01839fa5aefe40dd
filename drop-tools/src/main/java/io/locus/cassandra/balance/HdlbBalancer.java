package io.locus.cassandra.balance;

import java.util.ArrayList;
import java.util.List;

/**
 * One round of HDLB, Histogram-based Dynamic Load Balancing (thesis §6.4.1; DESIGN.md, "HDLB").
 *
 * <p>Given every vnode with its owner and weight (the "histogram exchange"), a round computes the mean load W, marks
 * nodes above t_c·W heavy and below W/t_c light, lets each heavy node shed vnodes ({@link ShedSelection}), places
 * them on the light nodes by {@link MultiStageKnapsack} with capacities W − load, and splits a vnode that fits
 * nowhere at its histogram median, snapped to the shallowest subtree boundary ({@link BoundarySnapper}), up to
 * {@link HdlbConfig#maxSplitDepth()} times. A vnode that still fits nowhere stays where it is.
 *
 * <p>Deterministic: the same input gives the same plan. Pure; thread-safe.
 */
public final class HdlbBalancer {
    /*
     * Design note. The thesis (§6.4.1) gives the knapsack model (6.1) and the Table 6.1 example but not how a
     * heavy node picks what to shed, who receives what, or what to do with a vnode larger than every free capacity;
     * decisions 1-4 of DESIGN.md, "HDLB", fill those gaps. All heavy nodes' shed vnodes are placed together, as in
     * Table 6.1 where A's and B's vnodes {3,2,7,6,2} go to C and D in one knapsack.
     */
    private final HdlbConfig config;

    /** A balancer with the given parameters. */
    public HdlbBalancer(HdlbConfig config) {
        this.config = config;
    }

    /** A vnode transfer. */
    public record Move(Vnode vnode, int from, int to) {}

    /** A split of vnode {@code parentId} at {@code boundary}: keys up to and including it form the left half. */
    public record Split(String parentId, byte[] boundary, Vnode left, Vnode right) {}

    /** The outcome of a round: the new vnode set (splits applied), the moves, the splits and what stayed unplaced. */
    public record RoundPlan(List<Vnode> vnodes, List<Move> moves, List<Split> splits, List<Vnode> unplaced) {}

    /**
     * Computes one round.
     *
     * @param vnodes all vnodes of the cluster, each with its owner in [0, nodeCount)
     * @param nodeCount number of physical nodes (m &gt;= 1)
     */
    public RoundPlan round(List<Vnode> vnodes, int nodeCount) {
        if (nodeCount < 1) {
            throw new IllegalArgumentException("nodeCount " + nodeCount + " (expected: >= 1)");
        }
        long[] load = new long[nodeCount];
        for (Vnode v : vnodes) {
            if (v.node() < 0 || v.node() >= nodeCount) {
                throw new IllegalArgumentException(
                        "vnode " + v.id() + " owner " + v.node() + " (expected: within [0, " + nodeCount + "))");
            }
            load[v.node()] += v.weight();
        }
        double mean = (double) java.util.Arrays.stream(load).sum() / nodeCount;
        List<Vnode> result = new ArrayList<>();
        List<Vnode> queue = new ArrayList<>();
        for (int node = 0; node < nodeCount; node++) {
            List<Vnode> own = new ArrayList<>();
            for (Vnode v : vnodes) {
                if (v.node() == node) {
                    own.add(v);
                }
            }
            if (load[node] > config.capacityTolerance() * mean) {
                ShedSelection.Result r = ShedSelection.select(own, mean);
                result.addAll(r.keep());
                for (int i = 0; i < r.shed().size(); i++) {
                    (i < config.maxMovesPerNode() ? queue : result).add(r.shed().get(i));
                }
            } else {
                result.addAll(own);
            }
        }
        List<Integer> light = new ArrayList<>();
        for (int node = 0; node < nodeCount; node++) {
            if (load[node] < mean / config.capacityTolerance()) {
                light.add(node);
            }
        }
        long[] capacity = new long[light.size()];
        for (int i = 0; i < capacity.length; i++) {
            capacity[i] = (long) Math.floor(mean - load[light.get(i)]);
        }
        List<Move> moves = new ArrayList<>();
        List<Split> splits = new ArrayList<>();
        List<Vnode> unplaced = new ArrayList<>();
        while (!queue.isEmpty()) {
            long[] weights = queue.stream().mapToLong(Vnode::weight).toArray();
            int[] where = MultiStageKnapsack.place(weights, capacity, config.knapsackUnits());
            List<Vnode> next = new ArrayList<>();
            for (int i = 0; i < where.length; i++) {
                Vnode v = queue.get(i);
                if (where[i] >= 0) {
                    int target = light.get(where[i]);
                    capacity[where[i]] -= v.weight();
                    moves.add(new Move(v, v.node(), target));
                    result.add(v.movedTo(target));
                } else {
                    Split s = v.splitDepth() < config.maxSplitDepth() ? split(v) : null;
                    if (s == null) {
                        unplaced.add(v);
                        result.add(v);
                    } else {
                        splits.add(s);
                        next.add(s.left());
                        next.add(s.right());
                    }
                }
            }
            queue = next;
        }
        return new RoundPlan(result, moves, splits, unplaced);
    }

    /** SPLIT(v) of DESIGN.md, "HDLB", or null if {@code v} has fewer than two distinct samples. */
    public Split split(Vnode v) {
        KeyRangeHistogram h = v.histogram();
        if (h == null || h.size() < 2) {
            return null;
        }
        long w = h.weight();
        BoundarySnapper.Cut cut = BoundarySnapper.snap(h, w / 2, (long) (config.snapTolerance() * w));
        if (cut == null) {
            return null;
        }
        KeyRangeHistogram left = h.slice(0, cut.index() + 1);
        KeyRangeHistogram right = h.slice(cut.index() + 1, h.size());
        int depth = v.splitDepth() + 1;
        return new Split(
                v.id(),
                cut.token(),
                new Vnode(v.id() + "L", v.node(), left.weight(), left, depth),
                new Vnode(v.id() + "R", v.node(), right.weight(), right, depth));
    }
}
