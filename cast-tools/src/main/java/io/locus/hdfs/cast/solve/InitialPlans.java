package io.locus.hdfs.cast.solve;

import java.util.ArrayList;
import java.util.List;

/**
 * The starting point of the annealing solvers (P̂_init of Algorithm 4): the best of the greedy plans and of every
 * single-tier plan at every capacity level, and the problem's own hints (for CAST: each application type on its best
 * tier, the "application characteristics" start the dissertation names). Algorithm 4 starts from "the greedy result or the application
 * characteristics"; taking the best of the cheap candidates means annealing never ends below any of them.
 */
public final class InitialPlans {
    private InitialPlans() {}

    public static List<Assignment> candidates(Problem p) {
        List<Assignment> all = new ArrayList<>();
        for (GreedySolver.Variant v : GreedySolver.Variant.values()) {
            all.add(new GreedySolver(v).solve(p, SolveOptions.seeded(0)));
        }
        for (int t = 0; t < p.tiers(); t++) {
            for (int l = 0; l < p.levels(t).length; l++) {
                all.add(Assignment.allOn(p, t, l));
            }
        }
        all.addAll(p.hints());
        return all;
    }

    public static Assignment best(Problem p) {
        Assignment best = null;
        Score bestScore = Score.WORST;
        for (Assignment a : candidates(p)) {
            Score s = a.score(p);
            if (best == null || s.betterThan(bestScore)) {
                best = a;
                bestScore = s;
            }
        }
        return best;
    }
}
