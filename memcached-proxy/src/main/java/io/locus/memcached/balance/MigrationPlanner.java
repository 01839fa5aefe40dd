package io.locus.memcached.balance;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.function.IntPredicate;

/**
 * Phase 3 planner: which virtual buckets move from the most overloaded backend to lightly loaded ones
 * (MBal §3.4 Algorithm 2 with decisions 20-22 of DESIGN.md, and the greedy of MBal §3.3).
 *
 * <p>Algorithm: source {@code a} = the up backend with the highest utilization above capacity. Destination = the up
 * backend with the least projected load not yet excluded. While {@code rdev(a, dest) > lb.imb_thresh} and fewer than
 * {@code lb.max_iter} iterations ran: solve ILP (8)-(13) for the pair exactly ({@link PairSolver}: a's buckets to
 * dest and dest's buckets back to a, bringing both to their mean within capacity and memory); if it returns NULL
 * (infeasible, or over its node limit) run the greedy, which moves a's buckets, heaviest first, while a is above
 * capacity, dest stays within capacity and memory, and each move strictly lowers {@code max(L_a, L_dest)}
 * [MBal §3.4]. Loads are projected after each round (decision 20 of DESIGN.md); a destination that took nothing is
 * excluded; a bucket moves at most once per plan.
 *
 * <p>The plan is empty when: no backend is overloaded; more than {@code lb.server_load_thresh} of the backends are
 * (cluster hot); the source would stay above capacity (Algorithm 2 returns NULL: scale out instead); or the moved
 * load is below {@code lb.p3_min_gain} of the source's (MBal §3.1). Buckets in cooldown ({@code lb.p3_cooldown}) never
 * move. Stateless and thread-safe.
 */
public final class MigrationPlanner {
    private final BalanceConfig config;

    /**
     * A backend as the planner sees it.
     *
     * @param backend index
     * @param loadOpsPerSecond L_{*j}
     * @param capacityOpsPerSecond T_j
     * @param usedBytes M_{*j} (memcached {@code stats bytes})
     * @param maxBytes M_j ({@code limit_maxbytes}); {@code Long.MAX_VALUE} if unknown
     */
    public record BackendState(
            int backend, double loadOpsPerSecond, double capacityOpsPerSecond, long usedBytes, long maxBytes) {}

    /**
     * A virtual bucket as the planner sees it.
     *
     * @param bucket id in the {@link VirtualBucketTable}
     * @param owner current owner
     * @param loadOpsPerSecond L^k, counted exactly by the proxy
     * @param bytes M^k, e.g. the owner's bytes × the bucket's share of the owner's load or ring
     * @param coolingDown moved within {@code lb.p3_cooldown} epochs
     */
    public record BucketState(int bucket, int owner, double loadOpsPerSecond, long bytes, boolean coolingDown) {}

    /** One planned move. */
    public record Move(int bucket, int from, int to, double loadOpsPerSecond, long bytes) {}

    /**
     * The outcome.
     *
     * @param source the overloaded backend considered, or -1 if none
     * @param moves the moves, in the order found (empty: do nothing)
     * @param projectedLoadsOpsPerSecond loads after the moves, by backend
     * @param scaleOutAdvised the cluster is hot or the source stays above capacity
     */
    public record Plan(int source, List<Move> moves, double[] projectedLoadsOpsPerSecond, boolean scaleOutAdvised) {}

    public MigrationPlanner(BalanceConfig config) {
        this.config = config;
    }

    /**
     * Plans one round.
     *
     * @param backends all backends, indexed by backend
     * @param buckets all buckets with load (others cannot help)
     * @param up backends that may receive buckets
     */
    public Plan plan(List<BackendState> backends, List<BucketState> buckets, IntPredicate up) {
        int n = backends.size();
        double[] load = new double[n];
        long[] bytes = new long[n];
        int overloaded = 0;
        int source = -1;
        for (BackendState b : backends) {
            load[b.backend()] = b.loadOpsPerSecond();
            bytes[b.backend()] = b.usedBytes();
            if (b.loadOpsPerSecond() > b.capacityOpsPerSecond()) {
                overloaded++;
                // A down backend is no source: swaps would move buckets onto it.
                if (up.test(b.backend()) && (source < 0 || utilization(b) > utilization(backends.get(source)))) {
                    source = b.backend();
                }
            }
        }
        if (source < 0) {
            return new Plan(-1, List.of(), load, false);
        }
        if ((double) overloaded / n > config.serverLoadThresh()) {
            return new Plan(source, List.of(), load, true);
        }
        double sourceLoad = load[source];
        Set<Integer> moved = new HashSet<>();
        Set<Integer> excluded = new HashSet<>();
        excluded.add(source);
        List<Move> moves = new ArrayList<>();
        int dest = leastLoaded(load, excluded, up);
        for (int iter = 0;
                iter < config.maxIter()
                        && dest >= 0
                        && Imbalance.rdev(new double[] {load[source], load[dest]}) > config.imbThresh();
                iter++) {
            List<BucketState> ofSource = movable(buckets, source, moved);
            List<Move> step = PairSolver.solve(
                    backends.get(source),
                    backends.get(dest),
                    load[source],
                    load[dest],
                    bytes[source],
                    bytes[dest],
                    ofSource,
                    movable(buckets, dest, moved));
            if (step != null) {
                for (Move m : step) {
                    load[m.from()] -= m.loadOpsPerSecond();
                    load[m.to()] += m.loadOpsPerSecond();
                    bytes[m.from()] -= m.bytes();
                    bytes[m.to()] += m.bytes();
                }
            } else {
                step = greedy(backends.get(source), backends.get(dest), ofSource, load, bytes);
            }
            if (step.isEmpty()) {
                excluded.add(dest);
            }
            step.forEach(m -> moved.add(m.bucket()));
            moves.addAll(step);
            dest = leastLoaded(load, excluded, up);
        }
        boolean stillHot = load[source] > backends.get(source).capacityOpsPerSecond();
        double shed = sourceLoad - load[source];
        if (stillHot || shed < config.p3MinGain() * sourceLoad) {
            double[] unchanged = new double[n];
            backends.forEach(b -> unchanged[b.backend()] = b.loadOpsPerSecond());
            return new Plan(source, List.of(), unchanged, stillHot);
        }
        return new Plan(source, List.copyOf(moves), load, false);
    }

    /** MBal §3.3 Greedy with Phase 3's memory check; moves are removed from {@code movable} and applied to the arrays. */
    private static List<Move> greedy(
            BackendState src, BackendState dst, List<BucketState> movable, double[] load, long[] bytes) {
        List<Move> out = new ArrayList<>();
        int s = src.backend();
        int d = dst.backend();
        boolean moved = true;
        while (moved && load[s] > src.capacityOpsPerSecond()) {
            moved = false;
            for (int i = 0; i < movable.size(); i++) {
                BucketState k = movable.get(i);
                boolean fitsLoad = load[d] + k.loadOpsPerSecond() <= dst.capacityOpsPerSecond();
                boolean fitsMemory = bytes[d] + k.bytes() <= dst.maxBytes() || dst.maxBytes() == Long.MAX_VALUE;
                if (fitsLoad && fitsMemory && k.loadOpsPerSecond() < load[s] - load[d]) {
                    load[s] -= k.loadOpsPerSecond();
                    load[d] += k.loadOpsPerSecond();
                    bytes[s] -= k.bytes();
                    bytes[d] += k.bytes();
                    out.add(new Move(k.bucket(), s, d, k.loadOpsPerSecond(), k.bytes()));
                    movable.remove(i);
                    moved = true;
                    break;
                }
            }
        }
        return out;
    }

    /** Buckets of {@code owner} that may move: not cooling down, carrying load, not yet moved in this plan. */
    private static List<BucketState> movable(List<BucketState> buckets, int owner, Set<Integer> moved) {
        List<BucketState> out = new ArrayList<>();
        for (BucketState k : buckets) {
            if (k.owner() == owner && !k.coolingDown() && k.loadOpsPerSecond() > 0 && !moved.contains(k.bucket())) {
                out.add(k);
            }
        }
        out.sort(Comparator.comparingDouble(BucketState::loadOpsPerSecond)
                .reversed()
                .thenComparingInt(BucketState::bucket));
        return out;
    }

    private static int leastLoaded(double[] load, Set<Integer> excluded, IntPredicate up) {
        int best = -1;
        for (int b = 0; b < load.length; b++) {
            if (!excluded.contains(b) && up.test(b) && (best < 0 || load[b] < load[best])) {
                best = b;
            }
        }
        return best;
    }

    private static double utilization(BackendState b) {
        return b.loadOpsPerSecond() / b.capacityOpsPerSecond();
    }
}
