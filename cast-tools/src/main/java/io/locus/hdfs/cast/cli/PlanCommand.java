package io.locus.hdfs.cast.cli;

import io.locus.cli.JsonOutput;
import io.locus.cli.OutputOptions;
import io.locus.cli.Progress;
import io.locus.hdfs.CastPlan;
import io.locus.hdfs.cast.io.PlanFiles;
import io.locus.hdfs.cast.io.TierFiles;
import io.locus.hdfs.cast.io.WorkloadFiles;
import io.locus.hdfs.cast.model.Evaluation;
import io.locus.hdfs.cast.model.Tier;
import io.locus.hdfs.cast.model.TierCatalog;
import io.locus.hdfs.cast.model.WorkflowModel;
import io.locus.hdfs.cast.model.Workload;
import io.locus.hdfs.cast.solve.Planning;
import io.locus.hdfs.cast.solve.SolveOptions;
import io.locus.hdfs.cast.solve.Solver;
import io.locus.hdfs.cast.solve.Solvers;
import java.io.PrintWriter;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Callable;
import me.tongfei.progressbar.ProgressBar;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.ParameterException;
import picocli.CommandLine.Spec;

/** {@code locus-cast plan}: a tiering plan for a workload, with what the model predicts for it and the baselines. */
@Command(
        name = "plan",
        mixinStandardHelpOptions = true,
        description = "Plan which storage tier each job's data goes to (CAST/CAST++), write the plan file, and"
                + " compare its predicted utility with every single-tier configuration and the greedy baselines.")
final class PlanCommand implements Callable<Integer> {
    @Spec
    CommandSpec spec;

    @Option(names = "--workload", required = true, paramLabel = "FILE", description = "Workload file (YAML/JSON).")
    Path workload;

    @Option(
            names = "--tiers",
            paramLabel = "FILE",
            description = "Tiers file (YAML/JSON; default: the built-in catalogue, examples/tiers-paper.yaml).")
    Path tiers;

    @Option(
            names = "--solver",
            defaultValue = "optaplanner",
            paramLabel = "NAME",
            description =
                    "optaplanner, sa, greedy, greedy-exact-fit or greedy-over-provisioned (default: ${DEFAULT-VALUE}).")
    String solver;

    @Option(
            names = "--objective",
            defaultValue = "utility",
            paramLabel = "NAME",
            description = "utility (maximise 1/T over cost) or deadline-cost (each workflow at minimum cost within its"
                    + " deadline) (default: ${DEFAULT-VALUE}).")
    String objective;

    @Option(
            names = "--no-reuse",
            description = "Plan as basic CAST: ignore shared datasets (each job stores and fetches its own input).")
    boolean noReuse;

    @Option(
            names = "--seed",
            defaultValue = "42",
            paramLabel = "N",
            description = "Random seed (default: ${DEFAULT-VALUE}).")
    long seed;

    @Option(
            names = "--evaluations",
            defaultValue = "20000",
            paramLabel = "N",
            description = "Placements the annealing solvers score (default: ${DEFAULT-VALUE}).")
    long evaluations;

    @Option(names = "--out", required = true, paramLabel = "FILE", description = "Plan file to write (.json or .yaml).")
    Path out;

    @Mixin
    OutputOptions output;

    @Override
    public Integer call() {
        Solver s;
        Planning.Objective obj;
        try {
            s = Solvers.byName(solver);
            obj = Planning.Objective.of(objective);
        } catch (IllegalArgumentException e) {
            throw new ParameterException(spec.commandLine(), e.getMessage());
        }
        if (evaluations < 1) {
            throw new ParameterException(spec.commandLine(), "--evaluations " + evaluations + " (expected: >= 1)");
        }
        TierCatalog catalog = tiers == null ? TierCatalog.paper() : TierFiles.read(tiers);
        Workload w = WorkloadFiles.read(workload, catalog);
        boolean reuse = !noReuse;
        Planning.Result result;
        try (ProgressBar bar = Progress.bar("plan " + solver, 1000)) {
            SolveOptions o = SolveOptions.seeded(seed)
                    .withEvaluations(evaluations)
                    .withProgress((done, total, best) -> bar.stepTo(Math.min(1000, done * 1000 / Math.max(1, total))));
            result = Planning.plan(w, s, obj, reuse, o);
            bar.stepTo(1000);
        }
        Evaluation e = result.evaluation();
        CastPlan plan = PlanFiles.plan(w, result.tierOfJob(), e, solver, obj.cliName, seed);
        PlanFiles.write(plan, out);
        Map<String, Evaluation> baselines = Planning.baselines(w, reuse);
        PrintWriter p = spec.commandLine().getOut();
        if (output.json) {
            p.println(JsonOutput.pretty(toJson(w, result, baselines, reuse)));
        } else {
            printTables(p, w, result, baselines, reuse);
        }
        p.flush();
        return 0;
    }

    private Map<String, Object> toJson(
            Workload w, Planning.Result r, Map<String, Evaluation> baselines, boolean reuse) {
        Map<String, Object> m = new LinkedHashMap<>();
        m.put("plan", out.toString());
        m.put("workload", w.name());
        m.put("jobs", w.jobs().size());
        m.put("solver", solver);
        m.put("objective", objective);
        m.put("reuseAware", reuse);
        m.put("seed", seed);
        m.put("predicted", prediction(r.evaluation()));
        m.put("tiers", tierRows(w, r));
        List<Map<String, Object>> cmp = new ArrayList<>();
        Map<String, Object> self = prediction(r.evaluation());
        self.put("configuration", "plan (" + solver + ")");
        cmp.add(self);
        for (Map.Entry<String, Evaluation> b : baselines.entrySet()) {
            Map<String, Object> row = prediction(b.getValue());
            row.put("configuration", b.getKey());
            cmp.add(row);
        }
        m.put("comparison", cmp);
        List<Map<String, Object>> flows = new ArrayList<>();
        for (WorkflowModel.Result f : r.workflows()) {
            Map<String, Object> row = new LinkedHashMap<>();
            row.put("workflow", f.workflow());
            row.put("runtimeMin", f.runtimeMin());
            row.put("transferMin", f.transferMin());
            row.put("deadlineMin", f.deadlineMin());
            row.put("meetsDeadline", f.meetsDeadline());
            row.put("cost", f.totalCost());
            flows.add(row);
        }
        m.put("workflows", flows);
        return m;
    }

    private static Map<String, Object> prediction(Evaluation e) {
        Map<String, Object> m = new LinkedHashMap<>();
        m.put("runtimeMin", e.runtimeMin());
        m.put("vmCost", e.vmCost());
        m.put("storeCost", e.storeCost());
        m.put("totalCost", e.totalCost());
        m.put("utility", e.utility());
        m.put("feasible", e.feasible());
        return m;
    }

    private static List<Map<String, Object>> tierRows(Workload w, Planning.Result r) {
        Evaluation e = r.evaluation();
        double hours = Math.ceil(e.runtimeMin() / 60 - 1e-12);
        List<Map<String, Object>> rows = new ArrayList<>();
        for (int t = 0; t < w.tiers().size(); t++) {
            Tier tier = w.tiers().get(t);
            int jobs = 0;
            double sec = 0;
            for (int i = 0; i < r.tierOfJob().length; i++) {
                if (r.tierOfJob()[i] == t) {
                    jobs++;
                    sec += e.jobRuntimeSec()[i];
                }
            }
            Map<String, Object> m = new LinkedHashMap<>();
            m.put("tier", tier.name());
            m.put("storageType", tier.storageType());
            m.put("dataNodeGroup", tier.dataNodeGroup());
            m.put("jobs", jobs);
            m.put("perVmGb", e.perVmGb()[t]);
            m.put("capacityGb", e.capacityGb()[t]);
            m.put("capacityShare", e.capacityShare()[t]);
            m.put("runtimeMin", sec / 60);
            m.put(
                    "storeCost",
                    e.capacityGb()[t] * tier.pricePerGbHour(w.cluster().hoursPerMonth()) * hours);
            rows.add(m);
        }
        return rows;
    }

    private void printTables(
            PrintWriter p, Workload w, Planning.Result r, Map<String, Evaluation> baselines, boolean reuse) {
        long shared = w.jobs().stream().filter(j -> j.dataset() != null).count();
        p.printf(
                "# %s: %d jobs (%d read shared datasets), %d workflows; solver %s, objective %s, %s, seed %d%n",
                w.name(),
                w.jobs().size(),
                shared,
                w.workflows().size(),
                solver,
                objective,
                reuse ? "CAST++ (reuse-aware)" : "CAST (reuse-oblivious)",
                seed);
        p.printf(
                "%-10s %-9s %-8s %5s %9s %12s %6s %12s %10s%n",
                "TIER", "TYPE", "GROUP", "JOBS", "GB/VM", "CAPACITY_GB", "SHARE", "RUNTIME_MIN", "STORAGE_$");
        for (Map<String, Object> row : tierRows(w, r)) {
            p.printf(
                    "%-10s %-9s %-8s %5d %9.1f %12.1f %5.1f%% %12.1f %10.2f%n",
                    row.get("tier"),
                    row.get("storageType"),
                    row.get("dataNodeGroup") == null ? "-" : row.get("dataNodeGroup"),
                    row.get("jobs"),
                    row.get("perVmGb"),
                    row.get("capacityGb"),
                    100 * (double) row.get("capacityShare"),
                    row.get("runtimeMin"),
                    row.get("storeCost"));
        }
        Evaluation e = r.evaluation();
        p.printf(
                "predicted: T %.1f min, $vm %.2f + $store %.2f = $%.2f, utility %.4g /(min·$)%s%n%n",
                e.runtimeMin(),
                e.vmCost(),
                e.storeCost(),
                e.totalCost(),
                e.utility(),
                e.feasible() ? "" : "  (breaks a hard limit by " + e.violation() + ")");
        p.printf("%-26s %9s %10s %12s %9s%n", "CONFIGURATION", "T_MIN", "COST_$", "UTILITY", "PLAN/IT");
        p.printf(
                "%-26s %9.1f %10.2f %12.4g %9s%n",
                "plan (" + solver + ")", e.runtimeMin(), e.totalCost(), e.utility(), "1.000");
        for (Map.Entry<String, Evaluation> b : baselines.entrySet()) {
            Evaluation x = b.getValue();
            p.printf(
                    "%-26s %9.1f %10.2f %12.4g %9.3f%n",
                    b.getKey(), x.runtimeMin(), x.totalCost(), x.utility(), e.utility() / x.utility());
        }
        if (!r.workflows().isEmpty()) {
            p.printf("%n%-14s %7s %9s %9s %6s %9s%n", "WORKFLOW", "T_MIN", "XFER_MIN", "DEADLINE", "MET", "COST_$");
            for (WorkflowModel.Result f : r.workflows()) {
                p.printf(
                        "%-14s %7.1f %9.1f %9.1f %6s %9.2f%n",
                        f.workflow(),
                        f.runtimeMin(),
                        f.transferMin(),
                        f.deadlineMin(),
                        f.meetsDeadline() ? "yes" : "NO",
                        f.totalCost());
            }
        }
        p.printf("plan written to %s%n", out);
    }
}
