package io.locus.hdfs.cast.model;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** Eqs. 4.8-4.10 read per job over a DAG. */
class WorkflowModelTest {
    private static final Cluster C = Cluster.DEFAULT;
    private static final TierCatalog TIERS = TierCatalog.paper();
    private static final int PSSD = 1;
    private static final int PHDD = 2;

    private final Job a = Job.ofMaps("a", JobProfile.SORT, 40_000, C, null);
    private final Job b = new Job("b", JobProfile.GREP, a.outputGb(), 1, 1, 40_000, 100, null);
    private final Workflow chain = new Workflow("w", List.of("a", "b"), Map.of("b", List.of("a")), 30);
    private final Workload w = new Workload("wl", C, TIERS, List.of(a, b), List.of(chain));

    @Test
    void sameTier_countsTheIntermediateDatasetOnce_andNoTransfer() {
        WorkflowModel.Result r = new WorkflowModel(w).evaluate(chain, new int[] {PSSD, PSSD}, new double[4], true);
        double expected = a.inputGb() + a.interGb() + a.outputGb() + b.interGb() + b.outputGb();
        assertEquals(expected, r.capacityGb()[PSSD], 1e-6);
        assertEquals(0, r.transferMin(), 0);
    }

    @Test
    void differentTiers_chargeTheChildsCopy_andTheTransferTime() {
        WorkflowModel m = new WorkflowModel(w);
        WorkflowModel.Result r = m.evaluate(chain, new int[] {PSSD, PHDD}, new double[4], true);
        assertEquals(a.inputGb() + a.interGb(), r.capacityGb()[PSSD], 1e-6, "a's output is not kept on persSSD");
        assertEquals(a.outputGb() + b.interGb() + b.outputGb(), r.capacityGb()[PHDD], 1e-6);
        assertTrue(r.transferMin() > 0);
        WorkflowModel.Result oblivious = m.evaluate(chain, new int[] {PSSD, PHDD}, new double[4], false);
        assertEquals(r.runtimeMin() - r.transferMin(), oblivious.runtimeMin(), 1e-9);
    }

    @Test
    void deadline_isMetOrMissedByTheWholeWorkflowTime() {
        WorkflowModel.Result r = new WorkflowModel(w).evaluate(chain, new int[] {PSSD, PSSD}, new double[4], true);
        assertEquals(r.runtimeMin() <= 30, r.meetsDeadline());
        assertEquals(Math.max(0, r.runtimeMin() - 30), r.lateMin(), 1e-12);
    }

    @Test
    void workflow_rejectsEdgesToUnknownOrLaterJobs() {
        assertThrows(
                IllegalArgumentException.class,
                () -> new Workflow("x", List.of("a", "b"), Map.of("a", List.of("b")), 10));
        assertThrows(
                IllegalArgumentException.class, () -> new Workflow("x", List.of("a"), Map.of("a", List.of("z")), 10));
    }
}
