package io.locus.hdfs.cast.solve.optaplanner;

import io.locus.hdfs.cast.solve.Score;
import org.optaplanner.core.api.score.buildin.hardsoftlong.HardSoftLongScore;
import org.optaplanner.core.api.score.calculator.EasyScoreCalculator;

/**
 * Scores a whole solution through the model: the objective is a ratio over the whole workload (T and cost are sums
 * over all jobs, and each tier's speed depends on everything placed on it), so it does not decompose into
 * constraint matches. Hard: −1000 × violation; soft: 1e9 × the problem's soft score.
 */
public class TieringScoreCalculator implements EasyScoreCalculator<TieringSolution, HardSoftLongScore> {
    static final double HARD_SCALE = 1e3;
    static final double SOFT_SCALE = 1e9;

    @Override
    public HardSoftLongScore calculateScore(TieringSolution solution) {
        int[] tiers = new int[solution.getGroups().size()];
        for (GroupTier g : solution.getGroups()) {
            tiers[g.getGroup()] = g.getTier() == null ? -1 : g.getTier();
        }
        int[] levels = new int[solution.getTierLevels().size()];
        for (TierLevel t : solution.getTierLevels()) {
            levels[t.getTier()] = t.getLevel() == null ? 0 : t.getLevel();
        }
        Score s = solution.context().problem().score(tiers, levels);
        solution.context().onScore().run();
        return HardSoftLongScore.of(Math.round(s.hard() * HARD_SCALE), Math.round(s.soft() * SOFT_SCALE));
    }
}
