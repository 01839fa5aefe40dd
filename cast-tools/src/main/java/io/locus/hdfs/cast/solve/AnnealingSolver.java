package io.locus.hdfs.cast.solve;

import java.util.SplittableRandom;

/**
 * The reference simulated annealing of Algorithm 4 (Yue Cheng's dissertation, §4.3.2), in plain Java.
 *
 * <p>The algorithm as written: cool once per outer loop; draw random neighbours of the current plan, keeping the best
 * seen, until one is accepted; that neighbour becomes the current plan and the next outer loop starts; stop after
 * {@code iter_max} evaluated neighbours. The dissertation gives no temperature, cooling, acceptance rule or
 * neighbourhood; these are: Metropolis acceptance on the score ({@code soft + 100·hard}, so ln U for a feasible plan),
 * starting temperature 0.05 (a 5 % utility drop is accepted with probability 1/e), geometric cooling by 0.95, and
 * neighbours drawn uniformly from: move one group to another tier, move one tier's capacity level up or down by one,
 * swap the tiers of two groups.
 */
public final class AnnealingSolver implements Solver {
    public static final double START_TEMPERATURE = 0.05;
    public static final double COOLING = 0.95;
    private static final double HARD_WEIGHT = 100;

    private final Assignment initial;

    /** Starts from {@link InitialPlans#best}. */
    public AnnealingSolver() {
        this(null);
    }

    /** Starts from {@code initial} (null: {@link InitialPlans#best}). */
    public AnnealingSolver(Assignment initial) {
        this.initial = initial;
    }

    @Override
    public String name() {
        return "sa";
    }

    @Override
    public Assignment solve(Problem p, SolveOptions options) {
        SplittableRandom rnd = new SplittableRandom(options.seed());
        Assignment start = initial != null ? initial : InitialPlans.best(p);
        int[] cur = start.tierOfGroup();
        int[] curLevels = start.levelOfTier();
        Score curScore = p.score(cur, curLevels);
        int[] best = cur.clone();
        int[] bestLevels = curLevels.clone();
        Score bestScore = curScore;
        double temp = START_TEMPERATURE;
        long deadline = options.timeLimit() == null
                ? Long.MAX_VALUE
                : System.nanoTime() + options.timeLimit().toNanos();
        long iter = 0;
        long max = options.evaluations();
        outer:
        while (iter < max) {
            temp *= COOLING;
            while (true) {
                if (iter >= max || System.nanoTime() > deadline) {
                    break outer;
                }
                int[] nb = cur.clone();
                int[] nbLevels = curLevels.clone();
                if (!neighbour(p, rnd, nb, nbLevels)) {
                    break outer;
                }
                Score s = p.score(nb, nbLevels);
                iter++;
                if (s.betterThan(bestScore)) {
                    bestScore = s;
                    best = nb.clone();
                    bestLevels = nbLevels.clone();
                }
                if ((iter & 255) == 0) {
                    options.progress().update(iter, max, bestScore);
                }
                double delta = value(s) - value(curScore);
                if (delta >= 0 || rnd.nextDouble() < Math.exp(delta / temp)) {
                    cur = nb;
                    curLevels = nbLevels;
                    curScore = s;
                    break;
                }
            }
        }
        options.progress().update(max, max, bestScore);
        return new Assignment(best, bestLevels);
    }

    private static double value(Score s) {
        return s.soft() + HARD_WEIGHT * s.hard();
    }

    /** Changes {@code g}/{@code l} into a random neighbour; false when the plan has none. */
    static boolean neighbour(Problem p, SplittableRandom rnd, int[] g, int[] l) {
        for (int attempt = 0; attempt < 64; attempt++) {
            switch (rnd.nextInt(3)) {
                case 0 -> {
                    if (p.tiers() > 1) {
                        int i = rnd.nextInt(g.length);
                        int t = rnd.nextInt(p.tiers() - 1);
                        g[i] = t >= g[i] ? t + 1 : t;
                        return true;
                    }
                }
                case 1 -> {
                    int t = rnd.nextInt(p.tiers());
                    int n = p.levels(t).length;
                    if (n > 1) {
                        int up = l[t] == 0 ? 1 : l[t] == n - 1 ? -1 : (rnd.nextBoolean() ? 1 : -1);
                        l[t] += up;
                        return true;
                    }
                }
                default -> {
                    if (g.length > 1) {
                        int a = rnd.nextInt(g.length);
                        int b = rnd.nextInt(g.length);
                        if (g[a] != g[b]) {
                            int x = g[a];
                            g[a] = g[b];
                            g[b] = x;
                            return true;
                        }
                    }
                }
            }
        }
        return false;
    }
}
