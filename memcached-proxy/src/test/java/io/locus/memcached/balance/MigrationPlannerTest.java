package io.locus.memcached.balance;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.locus.memcached.balance.MigrationPlanner.BackendState;
import io.locus.memcached.balance.MigrationPlanner.BucketState;
import io.locus.memcached.balance.MigrationPlanner.Move;
import io.locus.memcached.balance.MigrationPlanner.Plan;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;

class MigrationPlannerTest {
    private final MigrationPlanner planner = new MigrationPlanner(BalanceConfig.defaults());

    private static BackendState backend(int b, double load) {
        return new BackendState(b, load, 100, 0, Long.MAX_VALUE);
    }

    /** Buckets of 10 ops/s each, as many as needed to make up each backend's load. */
    private static List<BucketState> buckets(double[] loads) {
        List<BucketState> out = new ArrayList<>();
        int id = 0;
        for (int b = 0; b < loads.length; b++) {
            for (int i = 0; i < loads[b] / 10; i++) {
                out.add(new BucketState(id++, b, 10, 1000, false));
            }
        }
        return out;
    }

    @Test
    void hotSource_isLevelledPairwise_withTheColdestBackends() {
        // Loads {140, 60, 50, 40}, T = 100, buckets of 10 ops/s. Round 1: pair (0, 3), mean 90: the exact pair solver
        // moves 5 buckets, 90/90. Round 2: the least loaded is now 2 (50); rdev(90, 50) = 0.29 > 0.10; mean 70: 2
        // buckets, 70/70. Round 3: backend 1 (60); rdev(70, 60) = 0.077 <= 0.10: stop. Result {70, 60, 70, 90}.
        double[] loads = {140, 60, 50, 40};
        Plan p = planner.plan(
                List.of(backend(0, 140), backend(1, 60), backend(2, 50), backend(3, 40)), buckets(loads), b -> true);
        assertEquals(0, p.source());
        assertFalse(p.scaleOutAdvised());
        assertArrayEquals(new double[] {70, 60, 70, 90}, p.projectedLoadsOpsPerSecond(), 1e-9);
        assertEquals(
                5,
                p.moves().stream().filter(m -> m.to() == 3).count(),
                p.moves().toString());
        assertEquals(
                2,
                p.moves().stream().filter(m -> m.to() == 2).count(),
                p.moves().toString());
        for (Move m : p.moves()) {
            assertEquals(0, m.from(), m.toString());
        }
    }

    @Test
    void pairSolver_matchesBruteForce_onTinyInstances() {
        // The ILP on tiny instances against exhaustive search (seed 13, 400 instances). Objective (8) for a pair
        // is |L'_a − mean|; both must agree on feasibility and on the optimal distance.
        SplittableRandom r = new SplittableRandom(13);
        for (int trial = 0; trial < 400; trial++) {
            BackendState a = new BackendState(0, 0, 60 + r.nextInt(60), 0, 1000 + r.nextInt(3000));
            BackendState d = new BackendState(1, 0, 60 + r.nextInt(60), 0, 1000 + r.nextInt(3000));
            List<BucketState> ofA = new ArrayList<>();
            List<BucketState> ofD = new ArrayList<>();
            double la = 0;
            double ld = 0;
            long ba = 0;
            long bd = 0;
            int na = 1 + r.nextInt(6);
            int nd = r.nextInt(4);
            for (int i = 0; i < na + nd; i++) {
                double l = 1 + r.nextInt(40);
                long m = r.nextInt(800);
                if (i < na) {
                    ofA.add(new BucketState(i, 0, l, m, false));
                    la += l;
                    ba += m;
                } else {
                    ofD.add(new BucketState(i, 1, l, m, false));
                    ld += l;
                    bd += m;
                }
            }
            List<BucketState> all = new ArrayList<>(ofA);
            all.addAll(ofD);
            double mean = (la + ld) / 2;
            double bestDistance = Double.POSITIVE_INFINITY;
            for (int mask = 0; mask < 1 << all.size(); mask++) {
                double xa = la;
                double xd = ld;
                long ya = ba;
                long yd = bd;
                for (int i = 0; i < all.size(); i++) {
                    if ((mask >> i & 1) == 1) {
                        BucketState k = all.get(i);
                        int sign = k.owner() == 0 ? -1 : 1;
                        xa += sign * k.loadOpsPerSecond();
                        xd -= sign * k.loadOpsPerSecond();
                        ya += sign * k.bytes();
                        yd -= sign * k.bytes();
                    }
                }
                if (xa <= a.capacityOpsPerSecond()
                        && xd <= d.capacityOpsPerSecond()
                        && ya <= a.maxBytes()
                        && yd <= d.maxBytes()) {
                    bestDistance = Math.min(bestDistance, Math.abs(xa - mean));
                }
            }
            List<Move> moves = PairSolver.solve(a, d, la, ld, ba, bd, ofA, ofD);
            String ctx = "trial " + trial + " a=" + a + " d=" + d + " buckets=" + all;
            if (bestDistance == Double.POSITIVE_INFINITY) {
                assertEquals(null, moves, ctx);
                continue;
            }
            assertNotNull(moves, ctx);
            double xa = la;
            for (Move m : moves) {
                xa += m.to() == 0 ? m.loadOpsPerSecond() : -m.loadOpsPerSecond();
            }
            assertEquals(bestDistance, Math.abs(xa - mean), 1e-9, ctx);
        }
    }

    @Test
    void memoryLimit_ofDestination_isRespected() {
        // Backend 3 has room for one bucket (1,000 bytes), so the rest go to 2.
        List<BackendState> bs =
                List.of(backend(0, 140), backend(1, 90), backend(2, 50), new BackendState(3, 40, 100, 9000, 10_000));
        Plan p = planner.plan(bs, buckets(new double[] {140, 90, 50, 40}), b -> true);
        assertEquals(
                1,
                p.moves().stream().filter(m -> m.to() == 3).count(),
                p.moves().toString());
    }

    @Test
    void coolingDownBuckets_neverMove_downBackendsNeverReceive() {
        List<BucketState> bs = new ArrayList<>();
        for (BucketState k : buckets(new double[] {140, 60, 50, 40})) {
            bs.add(new BucketState(k.bucket(), k.owner(), k.loadOpsPerSecond(), k.bytes(), k.bucket() % 2 == 0));
        }
        Plan p =
                planner.plan(List.of(backend(0, 140), backend(1, 60), backend(2, 50), backend(3, 40)), bs, b -> b != 3);
        assertFalse(p.moves().isEmpty());
        for (Move m : p.moves()) {
            assertEquals(1, m.bucket() % 2, "cooling bucket moved: " + m);
            assertTrue(m.to() != 3, "down backend received: " + m);
        }
    }

    @Test
    void clusterHot_orSourceStillHot_advisesScaleOut_withNoMoves() {
        Plan hot = planner.plan(
                List.of(backend(0, 140), backend(1, 120), backend(2, 110), backend(3, 105)),
                buckets(new double[] {140, 120, 110, 105}),
                b -> true);
        assertTrue(hot.scaleOutAdvised());
        assertEquals(List.of(), hot.moves());
        // One bucket of 100 ops/s cannot move anywhere without overloading the destination.
        Plan stuck = planner.plan(
                List.of(backend(0, 150), backend(1, 60), backend(2, 60), backend(3, 60)),
                List.of(new BucketState(0, 0, 100, 0, false), new BucketState(1, 0, 50, 0, false)),
                b -> true);
        assertTrue(stuck.scaleOutAdvised());
        assertEquals(List.of(), stuck.moves());
        assertEquals(150, stuck.projectedLoadsOpsPerSecond()[0]);
    }

    @Test
    void smallGain_isSkipped() {
        // Moving 10 of 105 ops/s is below lb.p3_min_gain = 10 %.
        Plan p = planner.plan(
                List.of(backend(0, 105), backend(1, 50)),
                List.of(new BucketState(0, 0, 10, 0, false), new BucketState(1, 0, 95, 0, false)),
                b -> true);
        assertEquals(List.of(), p.moves());
        assertFalse(p.scaleOutAdvised());
    }

    @Test
    void randomInstances_planIsValid() {
        // Invariants on 500 random instances (seed 11): each bucket moves at most once, from or (as a swap) to the
        // source, never involving a down backend; every backend a move touched ends at or under capacity; projected
        // loads equal the inputs plus the moves.
        SplittableRandom r = new SplittableRandom(11);
        for (int trial = 0; trial < 500; trial++) {
            int n = 2 + r.nextInt(6);
            List<BucketState> buckets = new ArrayList<>();
            double[] load = new double[n];
            int id = 0;
            for (int b = 0; b < n; b++) {
                int count = 1 + r.nextInt(20);
                for (int i = 0; i < count; i++) {
                    double l = r.nextDouble() * 15;
                    buckets.add(new BucketState(id++, b, l, 0, r.nextInt(10) == 0));
                    load[b] += l;
                }
            }
            List<BackendState> backends = new ArrayList<>();
            for (int b = 0; b < n; b++) {
                backends.add(backend(b, load[b]));
            }
            int down = r.nextInt(n + 1);
            Plan p = planner.plan(backends, buckets, b -> b != down);
            String ctx = "trial " + trial + " loads " + java.util.Arrays.toString(load) + " plan " + p.moves();
            Set<Integer> seen = new HashSet<>();
            double[] expect = load.clone();
            for (Move m : p.moves()) {
                assertTrue(seen.add(m.bucket()), ctx);
                assertTrue(m.from() == p.source() || m.to() == p.source(), ctx);
                assertTrue(m.to() != down && m.from() != down && m.to() != m.from(), ctx);
                expect[m.from()] -= m.loadOpsPerSecond();
                expect[m.to()] += m.loadOpsPerSecond();
            }
            for (int b = 0; b < n; b++) {
                assertEquals(expect[b], p.projectedLoadsOpsPerSecond()[b], 1e-6, ctx);
            }
            for (Move m : p.moves()) {
                assertTrue(p.projectedLoadsOpsPerSecond()[m.to()] <= 100 + 1e-9, ctx);
                assertTrue(p.projectedLoadsOpsPerSecond()[m.from()] <= 100 + 1e-9, ctx);
            }
        }
    }
}
