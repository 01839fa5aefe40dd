package io.locus.hdfs.cast.solve;

import io.locus.hdfs.cast.model.CastModel;
import io.locus.hdfs.cast.model.Evaluation;
import io.locus.hdfs.cast.model.IncrementalEvaluator;
import io.locus.hdfs.cast.model.Job;
import io.locus.hdfs.cast.model.Workload;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The utility objective (Eq. 4.2): maximise ln U = −ln T − ln($vm + $store) (log-utility keeps annealing temperatures
 * scale-free). Basic CAST has one group per job; CAST++ one group per shared dataset, so Eq. 4.7 holds.
 */
public final class CastProblem implements Problem {
    private final CastModel model;
    private final List<int[]> groups;
    private final int jobs;

    public CastProblem(CastModel model) {
        this.model = model;
        this.groups = model.workload().groups(model.reuseAware());
        this.jobs = model.workload().jobs().size();
    }

    public CastModel model() {
        return model;
    }

    public Workload workload() {
        return model.workload();
    }

    /** The jobs (indexes into the workload) of group {@code g}. */
    public int[] members(int g) {
        return groups.get(g).clone();
    }

    @Override
    public int groups() {
        return groups.size();
    }

    @Override
    public int tiers() {
        return model.workload().tiers().size();
    }

    @Override
    public double[] levels(int tier) {
        return model.workload().tiers().get(tier).levels();
    }

    /**
     * Scores through an {@link IncrementalEvaluator}: only the groups whose tier changed since the last call are moved,
     * so a solver's step does not re-estimate every job (the full model gives the same numbers; see its test).
     */
    @Override
    public synchronized Score score(int[] tierOfGroup, int[] levelOfTier) {
        if (incremental == null) {
            incremental = new IncrementalEvaluator(model);
            placed = new int[groups.size()];
            Arrays.fill(placed, -1);
        }
        // Arrays.mismatch compares in wide chunks: a step of a 25,000-job search differs in one or two groups.
        int g = Arrays.mismatch(placed, tierOfGroup);
        while (g >= 0) {
            for (int j : groups.get(g)) {
                incremental.place(j, tierOfGroup[g]);
            }
            placed[g] = tierOfGroup[g];
            int next = Arrays.mismatch(placed, g + 1, placed.length, tierOfGroup, g + 1, placed.length);
            g = next < 0 ? -1 : g + 1 + next;
        }
        if (++scoredSinceResync >= RESYNC_EVERY) {
            incremental.resync();
            scoredSinceResync = 0;
        }
        double[] e = incremental.evaluate(floors(levelOfTier));
        if (e[0] <= 0) {
            return new Score(-e[2], 0);
        }
        return new Score(-e[2], -Math.log(e[0]) - Math.log(e[1]));
    }

    private static final int RESYNC_EVERY = 100_000;
    private IncrementalEvaluator incremental;
    private int[] placed;
    private int scoredSinceResync;

    /** The model's full verdict on an assignment. */
    public Evaluation evaluate(int[] tierOfGroup, int[] levelOfTier) {
        return model.evaluate(tierOfJob(tierOfGroup), floors(levelOfTier));
    }

    public Evaluation evaluate(Assignment a) {
        return evaluate(a.tierOfGroup(), a.levelOfTier());
    }

    /** The tier of every job under a group assignment. */
    public int[] tierOfJob(int[] tierOfGroup) {
        int[] s = new int[jobs];
        Arrays.fill(s, -1);
        for (int g = 0; g < groups.size(); g++) {
            for (int j : groups.get(g)) {
                s[j] = tierOfGroup[g];
            }
        }
        return s;
    }

    /** Per-VM floors (GB) per tier under a level assignment. */
    public double[] floors(int[] levelOfTier) {
        double[] f = new double[levelOfTier.length];
        for (int t = 0; t < f.length; t++) {
            f[t] = levels(t)[levelOfTier[t]];
        }
        return f;
    }

    /**
     * Two starts: every application type on the tier (and level) where its jobs alone score best, the way the
     * dissertation seeds annealing from Table 4.2's characteristics; and, for CAST++, the reuse-oblivious greedy
     * over-provisioned plan with each shared dataset moved to the tier most of its jobs had.
     */
    @Override
    public List<Assignment> hints() {
        List<Assignment> hints = new ArrayList<>();
        hints.add(byProfile());
        if (model.reuseAware()) {
            CastProblem basic = new CastProblem(new CastModel(model.workload(), false));
            Assignment b = new GreedySolver(GreedySolver.Variant.OVER_PROVISIONED).solve(basic, SolveOptions.seeded(0));
            int[] perJob = basic.tierOfJob(b.tierOfGroup());
            int[] g = new int[groups()];
            for (int i = 0; i < g.length; i++) {
                int[] votes = new int[tiers()];
                for (int j : groups.get(i)) {
                    votes[perJob[j]]++;
                }
                int best = 0;
                for (int t = 1; t < votes.length; t++) {
                    best = votes[t] > votes[best] ? t : best;
                }
                g[i] = best;
            }
            hints.add(new Assignment(g, b.levelOfTier()));
        }
        return hints;
    }

    private Assignment byProfile() {
        Workload w = model.workload();
        Map<String, int[]> best = new LinkedHashMap<>();
        for (Job j : w.jobs()) {
            best.putIfAbsent(j.profile().name(), null);
        }
        int[] levels = new int[tiers()];
        for (String profile : best.keySet()) {
            int[] only = new int[groups()];
            double bestScore = Double.NEGATIVE_INFINITY;
            for (int t = 0; t < tiers(); t++) {
                for (int l = 0; l < levels(t).length; l++) {
                    for (int g = 0; g < groups(); g++) {
                        only[g] = ofProfile(g, profile) ? t : -1;
                    }
                    int[] lv = new int[tiers()];
                    lv[t] = l;
                    Score s = score(only, lv);
                    if (s.feasible() && s.soft() > bestScore) {
                        bestScore = s.soft();
                        best.put(profile, new int[] {t, l});
                    }
                }
            }
        }
        int[] g = new int[groups()];
        for (int i = 0; i < g.length; i++) {
            int[] tl = best.get(w.jobs().get(groups.get(i)[0]).profile().name());
            g[i] = tl == null ? 0 : tl[0];
        }
        for (int[] tl : best.values()) {
            if (tl != null) {
                levels[tl[0]] = Math.max(levels[tl[0]], tl[1]);
            }
        }
        return new Assignment(g, levels);
    }

    private boolean ofProfile(int group, String profile) {
        return model.workload()
                .jobs()
                .get(groups.get(group)[0])
                .profile()
                .name()
                .equals(profile);
    }

    @Override
    public String describe() {
        return (model.reuseAware() ? "CAST++" : "CAST") + " utility, " + jobs + " jobs in " + groups.size() + " groups";
    }
}
