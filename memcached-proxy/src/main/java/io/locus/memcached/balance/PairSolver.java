package io.locus.memcached.balance;

import io.locus.memcached.balance.MigrationPlanner.BackendState;
import io.locus.memcached.balance.MigrationPlanner.BucketState;
import io.locus.memcached.balance.MigrationPlanner.Move;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;

/**
 * Exact solver of MBal's Phase 3 ILP (8)-(13) for one source backend {@code a} and one destination {@code d}
 * (MBal §3.4, ILP (8)-(13)), by depth-first branch and bound.
 *
 * <p>With {@code S' = {a, d}}, objective (8) {@code Σ |L'_i − L_avg|} equals {@code 2 |L'_a − L_avg|} because
 * {@code L'_a + L'_d} is fixed, so the solver picks the set of moves (a's buckets to d, and d's buckets back to a: the
 * "swaps" of MBal §3.3) that brings {@code L'_a} closest to the pair's mean, subject to (9) both loads within capacity
 * and (10)/(11) both memories within their limits; each bucket moves at most once (13). Among equal objectives it
 * prefers fewer moves.
 *
 * <p>Returns null ("NULL" in Algorithm 2: the caller falls back to the greedy) if no feasible set exists or the search
 * exceeds {@link #NODE_LIMIT} nodes. The node limit replaces a 20 ms ILP time limit so that plans are
 * deterministic; 200,000 nodes take a few milliseconds. Stateless and thread-safe.
 */
final class PairSolver {
    /** Search nodes before giving up (the deterministic stand-in for {@code lb.ilp_time_limit}). */
    static final int NODE_LIMIT = 200_000;

    private static final double EPS = 1e-9;

    private record Item(BucketState bucket, boolean outOfSource) {}

    private final BackendState a;
    private final BackendState d;
    private final double target;
    private final List<Item> items = new ArrayList<>();
    private final double[] remainingOut;
    private final double[] remainingIn;
    private final boolean[] chosen;
    private boolean[] best;
    private double bestDistance = Double.POSITIVE_INFINITY;
    private int bestMoves = Integer.MAX_VALUE;
    private int nodes;

    private PairSolver(
            BackendState a, BackendState d, double loadA, double loadD, List<BucketState> ofA, List<BucketState> ofD) {
        this.a = a;
        this.d = d;
        this.target = (loadA + loadD) / 2;
        ofA.forEach(k -> items.add(new Item(k, true)));
        ofD.forEach(k -> items.add(new Item(k, false)));
        // Heavy buckets first: they decide most of the distance, so good incumbents come early.
        items.sort(Comparator.comparingDouble((Item i) -> i.bucket().loadOpsPerSecond())
                .reversed()
                .thenComparingInt(i -> i.bucket().bucket()));
        int n = items.size();
        remainingOut = new double[n + 1];
        remainingIn = new double[n + 1];
        for (int i = n - 1; i >= 0; i--) {
            Item it = items.get(i);
            remainingOut[i] =
                    remainingOut[i + 1] + (it.outOfSource() ? it.bucket().loadOpsPerSecond() : 0);
            remainingIn[i] =
                    remainingIn[i + 1] + (it.outOfSource() ? 0 : it.bucket().loadOpsPerSecond());
        }
        chosen = new boolean[n];
    }

    /**
     * Solves the pair problem.
     *
     * @param loadA a's current (projected) load, ops/s
     * @param loadD d's current (projected) load, ops/s
     * @param bytesA a's current (projected) bytes
     * @param bytesD d's current (projected) bytes
     * @param ofA a's movable buckets
     * @param ofD d's movable buckets (candidates for swaps into a)
     * @return the moves (possibly empty: staying put is optimal), or null if infeasible or over the node limit
     */
    static List<Move> solve(
            BackendState a,
            BackendState d,
            double loadA,
            double loadD,
            long bytesA,
            long bytesD,
            List<BucketState> ofA,
            List<BucketState> ofD) {
        PairSolver s = new PairSolver(a, d, loadA, loadD, ofA, ofD);
        s.search(0, loadA, loadD, bytesA, bytesD, 0);
        if (s.nodes > NODE_LIMIT || s.best == null) {
            return null;
        }
        List<Move> moves = new ArrayList<>();
        for (int i = 0; i < s.items.size(); i++) {
            if (s.best[i]) {
                Item it = s.items.get(i);
                BucketState k = it.bucket();
                moves.add(
                        it.outOfSource()
                                ? new Move(k.bucket(), a.backend(), d.backend(), k.loadOpsPerSecond(), k.bytes())
                                : new Move(k.bucket(), d.backend(), a.backend(), k.loadOpsPerSecond(), k.bytes()));
            }
        }
        return moves;
    }

    private void search(int i, double la, double ld, long ba, long bd, int moves) {
        if (++nodes > NODE_LIMIT) {
            return;
        }
        if (feasible(la, ld, ba, bd)) {
            double dist = Math.abs(la - target);
            if (dist < bestDistance - EPS || (dist <= bestDistance + EPS && moves < bestMoves)) {
                bestDistance = dist;
                bestMoves = moves;
                best = chosen.clone();
            }
        }
        if (i == items.size()) {
            return;
        }
        double lo = la - remainingOut[i];
        double hi = la + remainingIn[i];
        double bound = target < lo ? lo - target : target > hi ? target - hi : 0;
        if (bound > bestDistance + EPS || (bound >= bestDistance - EPS && moves + 1 >= bestMoves)) {
            // Every deeper solution adds a move: it cannot beat the incumbent, and can tie only with more moves.
            return;
        }
        Item it = items.get(i);
        double l = it.bucket().loadOpsPerSecond();
        long m = it.bucket().bytes();
        chosen[i] = true;
        if (it.outOfSource()) {
            search(i + 1, la - l, ld + l, ba - m, bd + m, moves + 1);
        } else {
            search(i + 1, la + l, ld - l, ba + m, bd - m, moves + 1);
        }
        chosen[i] = false;
        search(i + 1, la, ld, ba, bd, moves);
    }

    private boolean feasible(double la, double ld, long ba, long bd) {
        return la <= a.capacityOpsPerSecond() + EPS
                && ld <= d.capacityOpsPerSecond() + EPS
                && ba <= a.maxBytes()
                && bd <= d.maxBytes();
    }
}
