package io.locus.hdfs.cast.model;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import org.junit.jupiter.api.Test;

/** The incremental evaluator agrees with the full model after any sequence of moves. */
class IncrementalEvaluatorTest {
    private static final List<JobProfile> APPS =
            List.of(JobProfile.SORT, JobProfile.JOIN, JobProfile.GREP, JobProfile.KMEANS);

    private static Workload random(long seed) {
        Random r = new Random(seed);
        List<Job> jobs = new ArrayList<>();
        for (int i = 0; i < 60; i++) {
            int maps = 1 + r.nextInt(r.nextBoolean() ? 10 : 3000);
            String d = r.nextInt(3) == 0 ? "d" + r.nextInt(4) : null;
            jobs.add(Job.ofMaps("j" + i, APPS.get(r.nextInt(4)), maps, Cluster.DEFAULT, d));
        }
        for (int i = 0; i < 6; i++) {
            // Readers of one size: which tier is the dataset's home is decided by the tie-break alone.
            jobs.add(Job.ofMaps("same" + i, APPS.get(i % 4), 500, Cluster.DEFAULT, "same-size"));
        }
        jobs.add(new Job("empty", JobProfile.SORT, 0, 0, 0, 1, 1, null));
        return new Workload("r" + seed, Cluster.DEFAULT, TierCatalog.paper(), jobs, List.of());
    }

    @Test
    void agreesWithTheFullModel_afterRandomMoves() {
        for (long seed = 1; seed <= 4; seed++) {
            for (boolean reuse : new boolean[] {false, true}) {
                Workload w = random(seed);
                CastModel full = new CastModel(w, reuse);
                IncrementalEvaluator inc = new IncrementalEvaluator(full);
                Random r = new Random(seed * 31);
                int n = w.jobs().size();
                int[] s = new int[n];
                java.util.Arrays.fill(s, -1);
                for (int step = 0; step < 400; step++) {
                    int j = r.nextInt(n);
                    s[j] = r.nextInt(5) - 1;
                    inc.place(j, s[j]);
                    if (step % 40 == 39) {
                        double[] floors = {0, 100 * r.nextInt(6), 100 * r.nextInt(6), 0};
                        if (java.util.Arrays.stream(s).allMatch(t -> t < 0)) {
                            continue;
                        }
                        Evaluation e = full.evaluate(s, floors);
                        double[] fast = inc.evaluate(floors);
                        String at = "seed " + seed + " reuse " + reuse + " step " + step;
                        assertEquals(e.runtimeMin(), fast[0], 1e-6 * e.runtimeMin(), at);
                        assertEquals(e.totalCost(), fast[1], 1e-6 * e.totalCost(), at);
                        assertEquals(e.violation(), fast[2], 1e-6 * Math.max(1, e.violation()), at);
                    }
                }
            }
        }
    }
}
