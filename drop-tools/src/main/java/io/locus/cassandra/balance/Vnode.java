package io.locus.cassandra.balance;

/**
 * One virtual node: the token range {@code (left, right]} owned by physical node {@code node}.
 *
 * @param id stable name, used in plans and logs
 * @param node index of the owning physical node (0-based)
 * @param weight w_j, keys in the range (thesis §6.4.1)
 * @param histogram key samples of the range, or null if unknown (then the vnode cannot be split)
 * @param splitDepth how often this vnode was split in the current round
 */
public record Vnode(String id, int node, long weight, KeyRangeHistogram histogram, int splitDepth) {
    /** Checks the weight; messages name the vnode. */
    public Vnode {
        if (weight < 0) {
            throw new IllegalArgumentException("vnode " + id + " weight " + weight + " (expected: >= 0)");
        }
    }

    /** A vnode of known weight and no histogram. */
    public static Vnode of(String id, int node, long weight) {
        return new Vnode(id, node, weight, null, 0);
    }

    /** The same range owned by another node. */
    public Vnode movedTo(int target) {
        return new Vnode(id, target, weight, histogram, splitDepth);
    }
}
