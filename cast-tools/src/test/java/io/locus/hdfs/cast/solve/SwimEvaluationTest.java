package io.locus.hdfs.cast.solve;

import static org.junit.jupiter.api.Assertions.assertTrue;

import io.locus.hdfs.cast.io.SwimTraces;
import io.locus.hdfs.cast.model.Cluster;
import io.locus.hdfs.cast.model.Evaluation;
import io.locus.hdfs.cast.model.TierCatalog;
import io.locus.hdfs.cast.model.Workload;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.Locale;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * The Table 4.4 comparison on the SWIM traces: CAST++ annealing ends at or above every single tier and every greedy
 * plan. Prints the table (every plan evaluated reuse-aware), with basic CAST beside CAST++.
 */
class SwimEvaluationTest {
    private static Path swim(String file) {
        return Path.of(System.getProperty("locus.data.dir", "../data"), "swim", file);
    }

    private static void castBeatsTheBaselines(String trace, int jobs) {
        Workload w = SwimTraces.read(swim(trace), Cluster.DEFAULT, TierCatalog.paper(), jobs);
        Map<String, Evaluation> baselines = Planning.baselines(w, true);
        Map<String, Evaluation> table = new LinkedHashMap<>(baselines);
        for (String solver : new String[] {"sa", "optaplanner"}) {
            Planning.Result basic = Planning.plan(
                    w,
                    Solvers.byName(solver),
                    Planning.Objective.UTILITY,
                    false,
                    SolveOptions.seeded(42).withEvaluations(5_000));
            table.put("CAST " + solver, basic.evaluation());
            Planning.Result r = Planning.plan(
                    w,
                    Solvers.byName(solver),
                    Planning.Objective.UTILITY,
                    true,
                    SolveOptions.seeded(42).withEvaluations(5_000));
            table.put("CAST++ " + solver, r.evaluation());
            assertTrue(r.evaluation().feasible(), solver);
            for (Map.Entry<String, Evaluation> b : baselines.entrySet()) {
                if (b.getValue().feasible()) {
                    assertTrue(
                            r.evaluation().utility() >= b.getValue().utility() * (1 - 1e-9),
                            trace + " " + solver + " vs " + b.getKey());
                }
            }
            assertTrue(r.evaluation().utility() > baselines.get("persHDD 100%").utility(), solver);
            assertTrue(r.evaluation().utility() > baselines.get("objStore 100%").utility(), solver);
        }
        System.out.println(trace + ", first " + jobs + " jobs, every plan evaluated reuse-aware:");
        System.out.printf("%-26s %9s %10s %11s%n", "configuration", "T (min)", "cost ($)", "utility");
        table.forEach((k, e) -> System.out.printf(
                Locale.ROOT,
                "%-26s %9.1f %10.2f %11.4e%s%n",
                k,
                e.runtimeMin(),
                e.totalCost(),
                e.utility(),
                e.feasible() ? "" : "  infeasible"));
    }

    @Test
    void fb2009_first1000Jobs() {
        castBeatsTheBaselines("FB-2009_samples_24_times_1hr_0.tsv", 1_000);
    }

    @Test
    void fb2010_first1000Jobs_withReuseGroups() {
        castBeatsTheBaselines("FB-2010_samples_24_times_1hr_withInputPaths_0.tsv", 1_000);
    }
}
