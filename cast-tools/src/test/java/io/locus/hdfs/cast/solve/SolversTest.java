package io.locus.hdfs.cast.solve;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.locus.hdfs.cast.model.CastModel;
import io.locus.hdfs.cast.model.Cluster;
import io.locus.hdfs.cast.model.Job;
import io.locus.hdfs.cast.model.JobProfile;
import io.locus.hdfs.cast.model.TierCatalog;
import io.locus.hdfs.cast.model.Workload;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import org.junit.jupiter.api.Test;

class SolversTest {
    private static final List<JobProfile> APPS =
            List.of(JobProfile.SORT, JobProfile.JOIN, JobProfile.GREP, JobProfile.KMEANS);

    /** A seeded random workload: {@code n} jobs of 1-2,000 maps, a fifth of them sharing one of two datasets. */
    static Workload random(long seed, int n) {
        Random r = new Random(seed);
        List<Job> jobs = new ArrayList<>();
        for (int i = 0; i < n; i++) {
            int maps = 1 + r.nextInt(r.nextBoolean() ? 20 : 2000);
            String dataset = r.nextInt(5) == 0 ? "d" + r.nextInt(2) : null;
            jobs.add(Job.ofMaps("j" + i, APPS.get(r.nextInt(4)), maps, Cluster.DEFAULT, dataset));
        }
        return new Workload("random-" + seed, Cluster.DEFAULT, TierCatalog.paper(), jobs, List.of());
    }

    @Test
    void everySolverIsFoundByName_andAnUnknownNameIsRejected() {
        for (String name : Solvers.NAMES) {
            assertEquals(name, Solvers.byName(name).name());
        }
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> Solvers.byName("tabu"));
        assertTrue(e.getMessage().contains("'tabu'") && e.getMessage().contains("optaplanner"), e.getMessage());
    }

    @Test
    void everySolverPlacesEveryGroup_onAValidTierAndLevel() {
        CastProblem p = new CastProblem(new CastModel(random(1, 30), true));
        for (String name : Solvers.NAMES) {
            Assignment a = Solvers.byName(name).solve(p, SolveOptions.seeded(1).withEvaluations(2_000));
            assertEquals(p.groups(), a.tierOfGroup().length, name);
            for (int t : a.tierOfGroup()) {
                assertTrue(t >= 0 && t < p.tiers(), name);
            }
            for (int t = 0; t < p.tiers(); t++) {
                assertTrue(a.levelOfTier()[t] >= 0 && a.levelOfTier()[t] < p.levels(t).length, name);
            }
        }
    }

    @Test
    void annealing_isReproducibleForASeed() {
        CastProblem p = new CastProblem(new CastModel(random(2, 40), false));
        Assignment a = new AnnealingSolver().solve(p, SolveOptions.seeded(7).withEvaluations(5_000));
        Assignment b = new AnnealingSolver().solve(p, SolveOptions.seeded(7).withEvaluations(5_000));
        assertEquals(a, b);
    }

    @Test
    void optaPlanner_isReproducibleForASeed() {
        CastProblem p = new CastProblem(new CastModel(random(3, 40), true));
        Solver s = Solvers.byName("optaplanner");
        assertEquals(
                s.solve(p, SolveOptions.seeded(11).withEvaluations(3_000)),
                s.solve(p, SolveOptions.seeded(11).withEvaluations(3_000)));
    }

    @Test
    void annealingSolvers_neverEndBelowAnyGreedyPlan() {
        for (long seed = 10; seed < 13; seed++) {
            for (boolean reuse : new boolean[] {false, true}) {
                CastProblem p = new CastProblem(new CastModel(random(seed, 40), reuse));
                double bestGreedy = Double.NEGATIVE_INFINITY;
                for (GreedySolver.Variant v : GreedySolver.Variant.values()) {
                    bestGreedy =
                            Math.max(bestGreedy, score(p, new GreedySolver(v).solve(p, SolveOptions.seeded(seed))));
                }
                for (String name : List.of("sa", "optaplanner")) {
                    Assignment a = Solvers.byName(name)
                            .solve(p, SolveOptions.seeded(seed).withEvaluations(3_000));
                    assertTrue(score(p, a) >= bestGreedy - 1e-12, name + " on seed " + seed + " reuse " + reuse);
                }
            }
        }
    }

    @Test
    void greedyOverProvisioned_buysCapacityThatExactFitDoesNot() {
        CastProblem p = new CastProblem(new CastModel(
                io.locus.hdfs.cast.model.PaperWorkloads.table44(Cluster.DEFAULT, TierCatalog.paper()), false));
        Assignment exact = new GreedySolver(GreedySolver.Variant.EXACT_FIT).solve(p, SolveOptions.seeded(0));
        Assignment over = new GreedySolver(GreedySolver.Variant.OVER_PROVISIONED).solve(p, SolveOptions.seeded(0));
        for (int l : exact.levelOfTier()) {
            assertEquals(0, l);
        }
        assertTrue(java.util.Arrays.stream(over.levelOfTier()).anyMatch(l -> l > 0));
        assertTrue(score(p, over) > score(p, exact));
    }

    @Test
    void progress_isReportedUpToTheEnd() {
        CastProblem p = new CastProblem(new CastModel(random(5, 20), false));
        long[] last = {0, 0};
        new AnnealingSolver()
                .solve(p, SolveOptions.seeded(1).withEvaluations(1_000).withProgress((done, total, best) -> {
                    last[0] = done;
                    last[1] = total;
                }));
        assertEquals(1_000, last[0]);
        assertEquals(1_000, last[1]);
        assertFalse(Double.isNaN(score(p, InitialPlans.best(p))));
    }

    static double score(Problem p, Assignment a) {
        Score s = a.score(p);
        return s.feasible() ? s.soft() : Double.NEGATIVE_INFINITY;
    }
}
