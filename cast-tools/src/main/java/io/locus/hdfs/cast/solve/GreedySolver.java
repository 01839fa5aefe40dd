package io.locus.hdfs.cast.solve;

import java.util.Arrays;

/**
 * Greedy static tiering (Algorithm 3 of Yue Cheng's dissertation, §4.3.2) and the two greedy baselines of §4.4.1.
 * Groups are placed one at a time, in order, each on the tier that scores best for it; a decision is never revisited,
 * which is why greedy goes stale once later jobs change a tier's capacity and so its speed.
 *
 * <ul>
 *   <li>{@link Variant#PER_JOB} ({@code greedy}): Algorithm 3 as written: each group's utility on each tier as if it
 *       ran alone, capacity exactly what it needs;
 *   <li>{@link Variant#EXACT_FIT} ({@code greedy-exact-fit}): each group scored with the groups placed before it
 *       (capacity accumulates), never provisioning more than needed;
 *   <li>{@link Variant#OVER_PROVISIONED} ({@code greedy-over-provisioned}): as exact-fit, but for each group also
 *       the tier's capacity level that scores best, to buy bandwidth on tiers that scale with capacity.
 * </ul>
 */
public final class GreedySolver implements Solver {
    public enum Variant {
        PER_JOB("greedy"),
        EXACT_FIT("greedy-exact-fit"),
        OVER_PROVISIONED("greedy-over-provisioned");

        private final String cliName;

        Variant(String cliName) {
            this.cliName = cliName;
        }
    }

    private final Variant variant;

    public GreedySolver(Variant variant) {
        this.variant = variant;
    }

    @Override
    public String name() {
        return variant.cliName;
    }

    @Override
    public Assignment solve(Problem p, SolveOptions options) {
        int[] placed = new int[p.groups()];
        Arrays.fill(placed, -1);
        int[] levels = new int[p.tiers()];
        for (int g = 0; g < p.groups(); g++) {
            int[] trial = variant == Variant.PER_JOB ? blank(p.groups()) : placed.clone();
            int bestTier = 0;
            int bestLevel = levels[0];
            Score best = Score.WORST;
            for (int t = 0; t < p.tiers(); t++) {
                trial[g] = t;
                int from = variant == Variant.OVER_PROVISIONED ? 0 : levels[t];
                int to = variant == Variant.OVER_PROVISIONED ? p.levels(t).length - 1 : levels[t];
                for (int l = from; l <= to; l++) {
                    int[] trialLevels = levels.clone();
                    trialLevels[t] = l;
                    Score s = p.score(trial, trialLevels);
                    if (s.betterThan(best)) {
                        best = s;
                        bestTier = t;
                        bestLevel = l;
                    }
                }
            }
            placed[g] = bestTier;
            levels[bestTier] = bestLevel;
            options.progress().update(g + 1, p.groups(), best);
        }
        return new Assignment(placed, levels);
    }

    private static int[] blank(int n) {
        int[] a = new int[n];
        Arrays.fill(a, -1);
        return a;
    }
}
