package io.locus.cassandra.balance;

/**
 * Parameters of the HDLB balancer (DESIGN.md, "HDLB").
 *
 * @param capacityTolerance t_c: a node is heavy above t_c x mean load and light below mean / t_c (default 1.10)
 * @param snapTolerance ε: a split may move up to ε x the vnode's weight away from its median (default 0.10)
 * @param maxSplitDepth how many times one vnode may be split in a round before it is left in place (default 3)
 * @param maxMovesPerNode transfers a heavy node may start per round (default 1; planning uses no limit)
 * @param knapsackUnits DP resolution: capacities are quantised to at most this many units (default 10,000)
 */
public record HdlbConfig(
        double capacityTolerance, double snapTolerance, int maxSplitDepth, int maxMovesPerNode, int knapsackUnits) {
    /** The defaults (DESIGN.md, "HDLB"). */
    public static final HdlbConfig DEFAULTS = new HdlbConfig(1.10, 0.10, 3, 1, 10_000);

    /** Checks every field; messages name the field, the value and the valid range. */
    public HdlbConfig {
        if (!(capacityTolerance >= 1.0)) {
            throw new IllegalArgumentException("capacityTolerance " + capacityTolerance + " (expected: >= 1.0)");
        }
        if (!(snapTolerance >= 0 && snapTolerance <= 0.5)) {
            throw new IllegalArgumentException("snapTolerance " + snapTolerance + " (expected: within [0, 0.5])");
        }
        if (maxSplitDepth < 0) {
            throw new IllegalArgumentException("maxSplitDepth " + maxSplitDepth + " (expected: >= 0)");
        }
        if (maxMovesPerNode < 1) {
            throw new IllegalArgumentException("maxMovesPerNode " + maxMovesPerNode + " (expected: >= 1)");
        }
        if (knapsackUnits < 1) {
            throw new IllegalArgumentException("knapsackUnits " + knapsackUnits + " (expected: >= 1)");
        }
    }

    /** A copy with another per-node move limit. */
    public HdlbConfig withMaxMovesPerNode(int moves) {
        return new HdlbConfig(capacityTolerance, snapTolerance, maxSplitDepth, moves, knapsackUnits);
    }
}
