package io.locus.hdfs.cast.solve;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.locus.hdfs.cast.model.CastModel;
import io.locus.hdfs.cast.model.Cluster;
import io.locus.hdfs.cast.model.Evaluation;
import io.locus.hdfs.cast.model.Job;
import io.locus.hdfs.cast.model.PaperWorkloads;
import io.locus.hdfs.cast.model.TierCatalog;
import io.locus.hdfs.cast.model.Workflow;
import io.locus.hdfs.cast.model.WorkflowModel;
import io.locus.hdfs.cast.model.Workload;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * §4.4 of the dissertation in the model: the orderings of Fig. 4.7 on the 100-job workload of Table 4.4, and the
 * deadline results of Fig. 4.9 on the workflow workload. Orderings, not the paper's ratios (its figures' values are not
 * recoverable, and its quoted ratios contradict each other).
 *
 * <p>Basic CAST and the greedy baselines plan reuse-oblivious, CAST++ plans reuse-aware; every plan is then evaluated
 * with the same reuse-aware model ({@link Planning#truth}), since the jobs share their datasets whichever planner
 * placed them.
 */
class PaperEvaluationTest {
    private static final TierCatalog TIERS = TierCatalog.paper();
    private static Workload table44;
    private static CastProblem basic;
    private static final Map<String, Evaluation> EVALUATION = new LinkedHashMap<>();
    private static final Map<String, Double> UTILITY = new LinkedHashMap<>();

    @BeforeAll
    static void plan() {
        table44 = PaperWorkloads.table44(Cluster.DEFAULT, TIERS);
        basic = new CastProblem(new CastModel(table44, false));
        EVALUATION.putAll(Planning.baselines(table44, false));
        for (String s : new String[] {"sa", "optaplanner"}) {
            for (boolean reuse : new boolean[] {false, true}) {
                Planning.Result r = Planning.plan(
                        table44, Solvers.byName(s), Planning.Objective.UTILITY, reuse, SolveOptions.seeded(42));
                EVALUATION.put((reuse ? "CAST++ " : "CAST ") + s, r.evaluation());
            }
        }
        EVALUATION.forEach((k, e) -> UTILITY.put(k, e.utility()));
        System.out.println("Table 4.4 workload, every plan evaluated reuse-aware:");
        System.out.printf("%-26s %8s %9s %11s %11s%n", "configuration", "T (min)", "cost ($)", "utility", "vs CAST++");
        double best = UTILITY.get("CAST++ sa");
        EVALUATION.forEach((k, e) -> System.out.printf(
                java.util.Locale.ROOT,
                "%-26s %8.1f %9.2f %11.4e %11.3f%n",
                k,
                e.runtimeMin(),
                e.totalCost(),
                e.utility(),
                e.utility() / best));
    }

    @Test
    void table44_has100JobsAnd19455MapTasks() {
        assertEquals(100, table44.jobs().size());
        assertEquals(19_455, table44.jobs().stream().mapToInt(j -> j.maps()).sum());
        assertEquals(
                15, table44.jobs().stream().filter(j -> j.dataset() != null).count());
        assertEquals(3, table44.groups(true).size() - 85);
    }

    @Test
    void singleTiers_persSsdFirst_thenEphSsd_persHdd_objStore() {
        assertTrue(UTILITY.get("persSSD 100%") > UTILITY.get("ephSSD 100%"), UTILITY.toString());
        assertTrue(UTILITY.get("ephSSD 100%") > UTILITY.get("persHDD 100%"), UTILITY.toString());
        assertTrue(UTILITY.get("persHDD 100%") > UTILITY.get("objStore 100%"), UTILITY.toString());
    }

    @Test
    void cast_beatsEverySingleTierConfiguration_andGreedy() {
        for (String cast : new String[] {"CAST sa", "CAST optaplanner"}) {
            double u = UTILITY.get(cast);
            for (String other : new String[] {
                "ephSSD 100%", "persSSD 100%", "persHDD 100%", "objStore 100%", "greedy", "greedy-exact-fit"
            }) {
                assertTrue(u > UTILITY.get(other), cast + " vs " + other + ": " + UTILITY);
            }
            // A tie, not a win: reuse-oblivious greedy over-provisioned finds annealing's plan (DESIGN.md §4).
            assertTrue(u >= UTILITY.get("greedy-over-provisioned"), cast + ": " + UTILITY);
        }
    }

    @Test
    void castPlusPlus_beatsCast_andEveryOtherConfiguration() {
        for (String s : new String[] {"sa", "optaplanner"}) {
            double u = UTILITY.get("CAST++ " + s);
            for (Map.Entry<String, Double> other : UTILITY.entrySet()) {
                if (!other.getKey().startsWith("CAST++")) {
                    assertTrue(u > other.getValue(), "CAST++ " + s + " vs " + other.getKey() + ": " + UTILITY);
                }
            }
        }
    }

    @Test
    void castPlusPlus_beatsCast_alsoWithTheFifteenSharingJobsReadingOneDataset() {
        // "15% of the jobs share the same input data" read literally: one dataset instead of three.
        List<Job> jobs = table44.jobs().stream()
                .map(j -> j.dataset() == null
                        ? j
                        : new Job(
                                j.id(),
                                j.profile(),
                                j.inputGb(),
                                j.interGb(),
                                j.outputGb(),
                                j.maps(),
                                j.reduces(),
                                "shared"))
                .toList();
        Workload one = table44.with("table-4.4-one-dataset", jobs, List.of());
        double[] u = new double[2];
        for (int reuse = 0; reuse < 2; reuse++) {
            u[reuse] = Planning.plan(
                            one, Solvers.byName("sa"), Planning.Objective.UTILITY, reuse == 1, SolveOptions.seeded(42))
                    .evaluation()
                    .utility();
        }
        assertTrue(u[1] > u[0], "CAST++ " + u[1] + " vs CAST " + u[0]);
    }

    @Test
    void cast_losesWhatItSplitsAcrossTiers() {
        // Basic CAST puts a shared dataset's Grep and Sort readers on objStore and the rest on persSSD; the truth
        // charges the copy between them, which its own model never saw.
        Planning.Result r = Planning.plan(
                table44, Solvers.byName("sa"), Planning.Objective.UTILITY, false, SolveOptions.seeded(42));
        Evaluation believed = basic.model().evaluate(r.tierOfJob(), r.floors());
        assertTrue(r.evaluation().runtimeMin() > believed.runtimeMin(), r.evaluation() + " vs " + believed);
        java.util.Set<Integer> tiersOfShared = new java.util.HashSet<>();
        for (int i = 0; i < table44.jobs().size(); i++) {
            if ("shared-c".equals(table44.jobs().get(i).dataset())) {
                tiersOfShared.add(r.tierOfJob()[i]);
            }
        }
        assertTrue(tiersOfShared.size() > 1, "shared-c on " + tiersOfShared);
    }

    @Test
    void greedyExactFit_isWorseThanTheBestSingleTier() {
        assertTrue(UTILITY.get("greedy-exact-fit") < UTILITY.get("persSSD 100%"), UTILITY.toString());
        assertTrue(UTILITY.get("greedy-over-provisioned") > UTILITY.get("greedy-exact-fit"), UTILITY.toString());
    }

    @Test
    void workflows_castPlusPlusMeetsEveryDeadlineAtTheLowestCost_singleTiersMissAsInFig49() {
        Workload w = PaperWorkloads.workflows(Cluster.DEFAULT, TIERS);
        WorkflowModel model = new WorkflowModel(w);
        assertEquals(31, w.jobs().size());
        int[] missed = new int[TIERS.size()];
        for (Workflow f : w.workflows()) {
            assertTrue(f.deadlineMin() >= 15 && f.deadlineMin() <= 40, f.id() + " deadline " + f.deadlineMin());
            WorkflowProblem p = new WorkflowProblem(w, f);
            Assignment a = Solvers.byName("sa").solve(p, SolveOptions.seeded(1));
            WorkflowModel.Result castpp = p.evaluate(a.tierOfGroup(), a.levelOfTier());
            assertTrue(castpp.meetsDeadline(), f.id() + ": " + castpp);
            for (int t = 0; t < TIERS.size(); t++) {
                boolean met = false;
                for (int l = 0; l < TIERS.get(t).levels().length; l++) {
                    int[] all = new int[w.jobs().size()];
                    Arrays.fill(all, t);
                    double[] floors = new double[TIERS.size()];
                    floors[t] = TIERS.get(t).levels()[l];
                    WorkflowModel.Result r = model.evaluate(f, all, floors, true);
                    if (r.meetsDeadline()) {
                        met = true;
                        assertTrue(
                                castpp.totalCost() <= r.totalCost() + 1e-9,
                                f.id() + " on " + TIERS.get(t).name() + " level " + l);
                    }
                }
                missed[t] += met ? 0 : 1;
            }
        }
        // The deadline rule is set so that the single tiers miss what Fig. 4.9 reports: ephSSD 1, persSSD 2 of 5.
        assertEquals("[1, 2, 5, 5]", Arrays.toString(missed), "ephSSD, persSSD, persHDD, objStore");
    }

    @Test
    void workflows_castMissesDeadlines_mispredictsEveryWorkflow_andCostsMoreInAll() {
        Workload w = PaperWorkloads.workflows(Cluster.DEFAULT, TIERS);
        WorkflowModel model = new WorkflowModel(w);
        Planning.Result cast =
                Planning.plan(w, Solvers.byName("sa"), Planning.Objective.UTILITY, false, SolveOptions.seeded(1));
        Planning.Result castpp =
                Planning.plan(w, Solvers.byName("sa"), Planning.Objective.DEADLINE_COST, true, SolveOptions.seeded(1));
        System.out.println("Workflow workload: CAST (utility, transfers unseen) against CAST++ (deadline-cost):");
        System.out.printf(
                "%-5s %9s %11s %9s %9s %11s %9s%n",
                "", "deadline", "CAST (min)", "believed", "CAST $", "CAST++ min", "CAST++ $");
        int castMisses = 0;
        double castCost = 0;
        double castppCost = 0;
        for (int k = 0; k < w.workflows().size(); k++) {
            Workflow f = w.workflows().get(k);
            WorkflowModel.Result real = cast.workflows().get(k);
            WorkflowModel.Result believed = model.evaluate(f, cast.tierOfJob(), cast.floors(), false);
            WorkflowModel.Result pp = castpp.workflows().get(k);
            System.out.printf(
                    java.util.Locale.ROOT,
                    "%-5s %9.1f %11.1f %9.1f %9.2f %11.1f %9.2f%n",
                    f.id(),
                    f.deadlineMin(),
                    real.runtimeMin(),
                    believed.runtimeMin(),
                    real.totalCost(),
                    pp.runtimeMin(),
                    pp.totalCost());
            castMisses += real.meetsDeadline() ? 0 : 1;
            castCost += real.totalCost();
            castppCost += pp.totalCost();
            assertTrue(real.runtimeMin() > believed.runtimeMin(), f.id() + ": " + real + " vs " + believed);
            assertTrue(pp.meetsDeadline(), f.id() + ": " + pp);
            if (real.meetsDeadline()) {
                assertTrue(pp.totalCost() <= real.totalCost(), f.id() + ": " + pp + " vs " + real);
            }
        }
        // A workflow CAST misses can cost it less than CAST++ pays to meet the deadline; over all five it costs more.
        System.out.printf(
                java.util.Locale.ROOT,
                "all   CAST misses %d of 5, $%.2f; CAST++ $%.2f%n",
                castMisses,
                castCost,
                castppCost);
        assertTrue(castMisses >= 1, "CAST meets every deadline");
        assertTrue(castppCost < castCost, "CAST++ $" + castppCost + " vs CAST $" + castCost);
    }

    @Test
    void evaluation_reportsCapacitySharesThatSumToOne() {
        Evaluation e = EVALUATION.get("CAST++ sa");
        assertEquals(1, Arrays.stream(e.capacityShare()).sum(), 1e-9);
    }
}
