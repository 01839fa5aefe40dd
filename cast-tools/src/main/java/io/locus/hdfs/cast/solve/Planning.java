package io.locus.hdfs.cast.solve;

import io.locus.hdfs.cast.model.CastModel;
import io.locus.hdfs.cast.model.Evaluation;
import io.locus.hdfs.cast.model.Job;
import io.locus.hdfs.cast.model.Workflow;
import io.locus.hdfs.cast.model.WorkflowModel;
import io.locus.hdfs.cast.model.Workload;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * Plans a whole workload with one solver and one objective, and evaluates the configurations a plan is compared
 * with (every single tier, the greedy baselines).
 *
 * <ul>
 *   <li>{@link Objective#UTILITY}: CAST (or CAST++ with reuse groups) over all jobs, maximising Eq. 4.2;
 *   <li>{@link Objective#DEADLINE_COST}: CAST++'s workflow enhancement: each workflow on its own at minimum cost
 *       within its deadline (Eqs. 4.8-4.10); the jobs in no workflow by utility.
 * </ul>
 */
public final class Planning {
    private Planning() {}

    public enum Objective {
        UTILITY("utility"),
        DEADLINE_COST("deadline-cost");

        public final String cliName;

        Objective(String cliName) {
            this.cliName = cliName;
        }

        public static Objective of(String name) {
            for (Objective o : values()) {
                if (o.cliName.equals(name)) {
                    return o;
                }
            }
            throw new IllegalArgumentException("unknown objective '" + name + "' (expected utility or deadline-cost)");
        }
    }

    /**
     * A planned workload: every job's tier, each tier's per-VM floor, the model's evaluation, and for workflows their
     * own time, cost and deadline.
     *
     * <p>Every plan is evaluated with the reuse-aware model, whichever model planned it: jobs that read one dataset
     * read it whether or not the planner knew, so a reuse-oblivious plan (basic CAST) is charged what its placement
     * really costs (one copy per tier, copies between tiers), not what it believed.
     */
    public record Result(
            int[] tierOfJob, double[] floors, Evaluation evaluation, List<WorkflowModel.Result> workflows) {}

    public static Result plan(Workload w, Solver solver, Objective objective, boolean reuseAware, SolveOptions o) {
        if (objective == Objective.UTILITY || w.workflows().isEmpty()) {
            CastProblem p = new CastProblem(new CastModel(w, reuseAware));
            Assignment a = solver.solve(p, o);
            int[] s = p.tierOfJob(a.tierOfGroup());
            double[] floors = p.floors(a.levelOfTier());
            return new Result(s, floors, truth(w).evaluate(s, floors), workflows(w, s, floors));
        }
        int[] s = new int[w.jobs().size()];
        Arrays.fill(s, -1);
        double[] floors = new double[w.tiers().size()];
        List<WorkflowModel.Result> results = new ArrayList<>();
        int parts = w.workflows().size() + 1;
        int part = 0;
        for (Workflow f : w.workflows()) {
            WorkflowProblem p = new WorkflowProblem(w, f);
            Assignment a = solver.solve(p, o.withProgress(offset(o, part++, parts)));
            for (int g = 0; g < p.groups(); g++) {
                s[p.job(g)] = a.tierOfGroup()[g];
            }
            double[] fl = p.floors(a.levelOfTier());
            for (int t = 0; t < floors.length; t++) {
                floors[t] = Math.max(floors[t], fl[t]);
            }
            results.add(p.evaluate(a.tierOfGroup(), a.levelOfTier()));
        }
        Set<String> inFlows = new HashSet<>();
        w.workflows().forEach(f -> inFlows.addAll(f.jobs()));
        List<Job> rest =
                w.jobs().stream().filter(j -> !inFlows.contains(j.id())).toList();
        if (!rest.isEmpty()) {
            CastProblem p = new CastProblem(new CastModel(w.with(w.name(), rest, List.of()), reuseAware));
            Assignment a = solver.solve(p, o.withProgress(offset(o, part, parts)));
            int[] sr = p.tierOfJob(a.tierOfGroup());
            for (int i = 0; i < rest.size(); i++) {
                s[w.indexOf(rest.get(i).id())] = sr[i];
            }
            double[] fl = p.floors(a.levelOfTier());
            for (int t = 0; t < floors.length; t++) {
                floors[t] = Math.max(floors[t], fl[t]);
            }
        }
        o.progress().update(o.evaluations() * parts, o.evaluations() * parts, null);
        return new Result(s, floors, truth(w).evaluate(s, floors), results);
    }

    /** The model every plan is judged by: reuse-aware (see {@link Result}). */
    public static CastModel truth(Workload w) {
        return new CastModel(w, true);
    }

    private static SolveOptions.ProgressListener offset(SolveOptions o, int part, int parts) {
        long base = o.evaluations() * part;
        long total = o.evaluations() * parts;
        return (done, max, best) ->
                o.progress().update(base + Math.min(done, max) * o.evaluations() / Math.max(1, max), total, best);
    }

    private static List<WorkflowModel.Result> workflows(Workload w, int[] s, double[] floors) {
        WorkflowModel m = new WorkflowModel(w);
        List<WorkflowModel.Result> out = new ArrayList<>();
        for (Workflow f : w.workflows()) {
            out.add(m.evaluate(f, s, floors, true));
        }
        return out;
    }

    /**
     * The configurations a plan is compared with, evaluated with the same model as plans are ({@link #truth}): each
     * tier alone at its best capacity level ("persSSD 100%"), and the three greedy plans (planned reuse-aware or not
     * as {@code reuseAware} says).
     */
    public static Map<String, Evaluation> baselines(Workload w, boolean reuseAware) {
        CastProblem p = new CastProblem(new CastModel(w, reuseAware));
        CastModel truth = truth(w);
        Map<String, Evaluation> out = new LinkedHashMap<>();
        for (int t = 0; t < p.tiers(); t++) {
            Evaluation best = null;
            for (int l = 0; l < p.levels(t).length; l++) {
                Assignment a = Assignment.allOn(p, t, l);
                Evaluation e = truth.evaluate(p.tierOfJob(a.tierOfGroup()), p.floors(a.levelOfTier()));
                if (e.feasible() && (best == null || e.utility() > best.utility())) {
                    best = e;
                }
            }
            if (best != null) {
                out.put(w.tiers().get(t).name() + " 100%", best);
            }
        }
        for (GreedySolver.Variant v : GreedySolver.Variant.values()) {
            GreedySolver g = new GreedySolver(v);
            Assignment a = g.solve(p, SolveOptions.seeded(0));
            out.put(g.name(), truth.evaluate(p.tierOfJob(a.tierOfGroup()), p.floors(a.levelOfTier())));
        }
        return out;
    }
}
