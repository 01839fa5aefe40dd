package io.locus.hdfs.cast.bench;

import io.locus.hdfs.cast.io.SwimTraces;
import io.locus.hdfs.cast.model.CastModel;
import io.locus.hdfs.cast.model.Cluster;
import io.locus.hdfs.cast.model.Evaluation;
import io.locus.hdfs.cast.model.PaperWorkloads;
import io.locus.hdfs.cast.model.TierCatalog;
import io.locus.hdfs.cast.model.Workload;
import io.locus.hdfs.cast.solve.Assignment;
import io.locus.hdfs.cast.solve.CastProblem;
import io.locus.hdfs.cast.solve.SolveOptions;
import io.locus.hdfs.cast.solve.Solvers;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/**
 * {@code ./locus bench cast}: solve time and plan quality of every solver on the 100-job workload of Table 4.4 and on
 * the first 1,000, 10,000 and all 25,428 jobs of the FB-2010 SWIM trace (CAST++, utility), in one run; then
 * OptaPlanner on the 100-job workload against the best of ten seeded reference-annealing runs.
 *
 * <p>Arguments: the SWIM directory (default {@code data/swim}), then optionally the job counts to run.
 */
public final class SolveBench {
    private SolveBench() {}

    public static void main(String[] args) {
        System.setProperty("org.slf4j.simpleLogger.defaultLogLevel", "warn");
        Path swim = Path.of(args.length > 0 ? args[0] : "data/swim");
        List<Integer> sizes = new ArrayList<>();
        for (int i = 1; i < args.length; i++) {
            sizes.add(Integer.parseInt(args[i]));
        }
        if (sizes.isEmpty()) {
            sizes.addAll(List.of(100, 1_000, 10_000, 25_428));
        }
        TierCatalog tiers = TierCatalog.paper();
        Path fb2010 = swim.resolve("FB-2010_samples_24_times_1hr_withInputPaths_0.tsv");
        System.out.printf("%-8s %-24s %10s %14s %9s%n", "JOBS", "SOLVER", "SOLVE_S", "UTILITY", "VS_BEST");
        for (int n : sizes) {
            Workload w = n == 100
                    ? PaperWorkloads.table44(Cluster.DEFAULT, tiers)
                    : SwimTraces.read(fb2010, Cluster.DEFAULT, tiers, n);
            CastProblem p = new CastProblem(new CastModel(w, true));
            List<String> names = List.of("greedy", "greedy-exact-fit", "greedy-over-provisioned", "sa", "optaplanner");
            double[] utility = new double[names.size()];
            double[] seconds = new double[names.size()];
            for (int s = 0; s < names.size(); s++) {
                long t0 = System.nanoTime();
                Assignment a = Solvers.byName(names.get(s)).solve(p, SolveOptions.seeded(42));
                seconds[s] = (System.nanoTime() - t0) / 1e9;
                Evaluation e = p.evaluate(a);
                utility[s] = e.feasible() ? e.utility() : 0;
            }
            double best = 0;
            for (double u : utility) {
                best = Math.max(best, u);
            }
            for (int s = 0; s < names.size(); s++) {
                // An infeasible plan has no utility: a 0 in the table would read as a plan worth nothing.
                String u = utility[s] > 0 ? String.format(Locale.ROOT, "%.6g", utility[s]) : "infeasible";
                String vsBest = utility[s] > 0 ? String.format(Locale.ROOT, "%.4f", utility[s] / best) : "-";
                System.out.printf(
                        Locale.ROOT,
                        "%-8d %-24s %10.2f %14s %9s%n",
                        w.jobs().size(),
                        names.get(s),
                        seconds[s],
                        u,
                        vsBest);
            }
        }
        Workload w = PaperWorkloads.table44(Cluster.DEFAULT, tiers);
        CastProblem p = new CastProblem(new CastModel(w, true));
        double bestSa = 0;
        for (long seed = 1; seed <= 10; seed++) {
            bestSa = Math.max(
                    bestSa,
                    p.evaluate(Solvers.byName("sa").solve(p, SolveOptions.seeded(seed)))
                            .utility());
        }
        long t0 = System.nanoTime();
        double opta = p.evaluate(Solvers.byName("optaplanner").solve(p, SolveOptions.seeded(42)))
                .utility();
        System.out.printf(
                Locale.ROOT,
                "%ntable-4.4: optaplanner %.6g in %.2f s; best of 10 sa runs %.6g; ratio %.4f (target >= 0.98 in <= 5 s)%n",
                opta,
                (System.nanoTime() - t0) / 1e9,
                bestSa,
                opta / bestSa);
    }
}
