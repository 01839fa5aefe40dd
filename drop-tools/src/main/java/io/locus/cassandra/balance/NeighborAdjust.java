package io.locus.cassandra.balance;

import java.util.ArrayList;
import java.util.List;

/**
 * Online rebalancing for one token per node (DESIGN.md, "Online rebalancing"; the NBRADJUST and REORDER primitives of
 * Ganesan, Bawa and Garcia-Molina, VLDB 2004). Each round takes the heaviest node and either shifts the boundary it
 * shares with a neighbour so both hold about half of their keys, or moves the lightest node into the middle of the
 * heavy range (its own range goes to its successor), whichever leaves the smaller maximum. Every new boundary is
 * snapped to the shallowest subtree boundary ({@link BoundarySnapper}). One move is one {@code nodetool move}.
 * Pairs across the ring's wrap point are not adjusted. Pure and deterministic.
 */
public final class NeighborAdjust {
    private NeighborAdjust() {}

    /**
     * One node's primary range {@code (previous token, token]} and the sorted tokens of the keys in it.
     *
     * @param node the node's name (e.g. its address)
     * @param token the node's token
     * @param keys sorted tokens of the range's keys (or a uniform sample of them)
     */
    public record NodeRange(String node, byte[] token, KeyRangeHistogram keys) {}

    /** A boundary move: {@code node} moves its token to {@code newToken}. */
    public record Move(String node, byte[] oldToken, byte[] newToken, long keysMoved) {}

    /**
     * Up to {@code maxMoves} successive moves, each applied to the model before the next is computed, stopping when
     * no node is above {@code capacityTolerance} × the mean. Each round moves the heaviest node that can shed keys:
     * when the heaviest one cannot (its lighter neighbour is across the wrap point and the other is as heavy), the
     * next node above the tolerance gets the move, which makes room for the heaviest one in a later round.
     *
     * @param ring the ranges in ring order (index i+1 follows i; the last wraps to the first), at least two
     */
    public static List<Move> plan(List<NodeRange> ring, double capacityTolerance, double snapTolerance, int maxMoves) {
        if (ring.size() < 2) {
            return List.of();
        }
        List<NodeRange> r = new ArrayList<>(ring);
        List<Move> moves = new ArrayList<>();
        for (int round = 0; round < maxMoves; round++) {
            long total = r.stream().mapToLong(n -> n.keys().weight()).sum();
            double cap = capacityTolerance * total / r.size();
            List<Integer> overloaded = new ArrayList<>();
            for (int i = 0; i < r.size(); i++) {
                if (r.get(i).keys().weight() > cap) {
                    overloaded.add(i);
                }
            }
            // Heaviest first; ties in ring order, so the result stays deterministic.
            overloaded.sort((x, y) ->
                    Long.compare(r.get(y).keys().weight(), r.get(x).keys().weight()));
            Move m = null;
            for (int heavy : overloaded) {
                List<NodeRange> trial = new ArrayList<>(r);
                m = shed(trial, heavy, snapTolerance, cap);
                if (m != null && m.keysMoved() != 0) {
                    r.clear();
                    r.addAll(trial);
                    break;
                }
                m = null;
            }
            if (m == null) {
                break;
            }
            moves.add(m);
        }
        return moves;
    }

    /** One move that sheds keys of node {@code heavy}, applied to {@code r}; null if there is none. */
    private static Move shed(List<NodeRange> r, int heavy, double snapTolerance, double cap) {
        int prev = (heavy - 1 + r.size()) % r.size();
        int next = (heavy + 1) % r.size();
        long h = r.get(heavy).keys().weight();
        // NBRADJUST with the lighter usable neighbour: both end at about half of their sum.
        boolean prevLighter = r.get(prev).keys().weight() <= r.get(next).keys().weight();
        int[] lefts = prevLighter ? new int[] {prev, heavy} : new int[] {heavy, prev};
        int nbrLeft = -1;
        for (int left : lefts) {
            if ((left + 1) % r.size() != 0) {
                nbrLeft = left;
                break;
            }
        }
        double nbrMax = nbrLeft < 0
                ? Double.MAX_VALUE
                : (r.get(nbrLeft).keys().weight()
                                + r.get((nbrLeft + 1) % r.size()).keys().weight())
                        / 2.0;
        // REORDER: the lightest node hands its range to its successor and takes half of the heavy range.
        int light = lightestMovable(r, heavy);
        double reorderMax = light < 0
                ? Double.MAX_VALUE
                : Math.max(
                        h / 2.0,
                        r.get(light).keys().weight() + r.get(light + 1).keys().weight());
        return reorderMax < nbrMax
                ? reorder(r, light, heavy, snapTolerance, cap)
                : nbrLeft < 0 ? null : adjust(r, nbrLeft, (nbrLeft + 1) % r.size(), snapTolerance, cap);
    }

    /** The lightest node other than {@code heavy} and its predecessor whose successor is not across the wrap. */
    private static int lightestMovable(List<NodeRange> r, int heavy) {
        int best = -1;
        for (int i = 0; i + 1 < r.size(); i++) {
            if (i == heavy || i + 1 == heavy) {
                continue;
            }
            if (best < 0 || r.get(i).keys().weight() < r.get(best).keys().weight()) {
                best = i;
            }
        }
        return best;
    }

    /** Ganesan's REORDER: {@code light} leaves its place (its successor absorbs its keys) and splits {@code heavy}. */
    private static Move reorder(List<NodeRange> r, int light, int heavy, double snapTolerance, double cap) {
        NodeRange l = r.get(light);
        NodeRange succ = r.get(light + 1);
        NodeRange hv = r.get(heavy);
        KeyRangeHistogram h = hv.keys();
        if (h.size() < 2) {
            return null;
        }
        BoundarySnapper.Cut cut = snapWithin(h, snapTolerance, cap);
        if (cut == null) {
            return null;
        }
        List<byte[]> merged = new ArrayList<>(l.keys().size() + succ.keys().size());
        for (int i = 0; i < l.keys().size(); i++) {
            merged.add(l.keys().token(i));
        }
        for (int i = 0; i < succ.keys().size(); i++) {
            merged.add(succ.keys().token(i));
        }
        NodeRange newSucc = new NodeRange(succ.node(), succ.token(), KeyRangeHistogram.ofSorted(merged, 1));
        NodeRange moved = new NodeRange(l.node(), cut.token(), h.slice(0, cut.index() + 1));
        NodeRange rest = new NodeRange(hv.node(), hv.token(), h.slice(cut.index() + 1, h.size()));
        r.set(light + 1, newSucc);
        r.set(heavy, rest);
        r.remove(light);
        int at = r.indexOf(rest);
        r.add(at, moved);
        return new Move(l.node(), l.token(), cut.token(), moved.keys().weight());
    }

    /**
     * A cut near the middle of {@code h}: within ± snapTolerance × weight of the median, narrowed so that neither
     * side ends above {@code cap} when that is possible (else exactly the median). Snapping may only pick the
     * shallowest boundary among cuts that actually balance.
     */
    private static BoundarySnapper.Cut snapWithin(KeyRangeHistogram h, double snapTolerance, double cap) {
        long total = h.weight();
        double half = total / 2.0;
        double lo = Math.max(half - snapTolerance * total, total - cap);
        double hi = Math.min(half + snapTolerance * total, cap);
        if (lo > hi) {
            lo = half;
            hi = half;
        }
        return BoundarySnapper.snap(h, Math.round((lo + hi) / 2), (long) Math.floor((hi - lo) / 2));
    }

    /** Moves the boundary between adjacent ranges {@code left} and {@code right}; updates {@code r}. */
    private static Move adjust(List<NodeRange> r, int left, int right, double snapTolerance, double cap) {
        KeyRangeHistogram a = r.get(left).keys();
        KeyRangeHistogram b = r.get(right).keys();
        List<byte[]> merged = new ArrayList<>(a.size() + b.size());
        for (int i = 0; i < a.size(); i++) {
            merged.add(a.token(i));
        }
        for (int i = 0; i < b.size(); i++) {
            merged.add(b.token(i));
        }
        if (right == 0) {
            return null; // across the wrap point: the right range's tokens are smaller than the left's
        }
        KeyRangeHistogram both;
        try {
            both = KeyRangeHistogram.ofSorted(merged, 1);
        } catch (IllegalArgumentException wrapped) {
            return null;
        }
        BoundarySnapper.Cut cut = snapWithin(both, snapTolerance, cap);
        if (cut == null) {
            return null;
        }
        NodeRange l = r.get(left);
        long moved = cut.leftWeight() - a.weight();
        r.set(left, new NodeRange(l.node(), cut.token(), both.slice(0, cut.index() + 1)));
        r.set(
                right,
                new NodeRange(r.get(right).node(), r.get(right).token(), both.slice(cut.index() + 1, both.size())));
        return new Move(l.node(), l.token(), cut.token(), moved);
    }
}
