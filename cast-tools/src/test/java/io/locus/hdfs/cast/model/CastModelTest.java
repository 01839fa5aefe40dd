package io.locus.hdfs.cast.model;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import org.junit.jupiter.api.Test;

/** Eqs. 4.2-4.7: capacity, cost, utility and reuse accounting. */
class CastModelTest {
    private static final Cluster C = Cluster.DEFAULT;
    private static final TierCatalog TIERS = TierCatalog.paper();
    private static final int EPH = 0;
    private static final int PSSD = 1;
    private static final int PHDD = 2;
    private static final int OBJ = 3;

    private static Workload of(Job... jobs) {
        return new Workload("t", C, TIERS, List.of(jobs), List.of());
    }

    @Test
    void storeCost_billsEveryStartedHour() {
        double[] cap = {1000, 0};
        double[] price = {0.01, 0.5};
        assertEquals(10, CastModel.storeCost(cap, price, 60), 1e-9);
        assertEquals(20, CastModel.storeCost(cap, price, 61), 1e-9);
        assertEquals(10, CastModel.storeCost(cap, price, 1), 1e-9);
    }

    @Test
    void vmCost_isVmsTimesPriceTimesMinutes() {
        assertEquals(25 * 0.8 / 60 * 90, CastModel.vmCost(C, 90), 1e-9);
    }

    @Test
    void utility_isInverseTimeOverCost() {
        Job j = Job.ofMaps("j", JobProfile.SORT, 400, C, null);
        Evaluation e = new CastModel(of(j), false).evaluateSingleTier(PSSD, 0);
        assertEquals(1 / e.runtimeMin() / (e.vmCost() + e.storeCost()), e.utility(), 1e-15);
        assertEquals(
                e.capacityGb()[PSSD] * TIERS.get(PSSD).pricePerGbHour(730) * Math.ceil(e.runtimeMin() / 60),
                e.storeCost(),
                1e-9);
    }

    @Test
    void capacity_coversInputIntermediateAndOutput_atLeastTheMinimumVolume() {
        Job j = Job.ofMaps("j", JobProfile.SORT, 40_000, C, null); // 10,000 GB in, 30,000 GB in all
        Evaluation e = new CastModel(of(j), false).evaluateSingleTier(PSSD, 0);
        assertEquals(j.needGb(), e.capacityGb()[PSSD], 1e-6);
        Job small = Job.ofMaps("s", JobProfile.SORT, 4, C, null);
        Evaluation es = new CastModel(of(small), false).evaluateSingleTier(PSSD, 0);
        assertEquals(100 * C.nVm(), es.capacityGb()[PSSD], 1e-9, "persSSD is bought in volumes of at least 100 GB");
        Evaluation floor = new CastModel(of(small), false).evaluateSingleTier(PSSD, 300);
        assertEquals(300 * C.nVm(), floor.capacityGb()[PSSD], 1e-9, "over-provisioning raises capacity to the floor");
    }

    @Test
    void ephemeralSsd_roundsToWholeVolumes_keepsABackingCopy_andCapsAtFourVolumes() {
        Job j = Job.ofMaps("j", JobProfile.SORT, 4_000, C, null); // 1,000 GB in: 3,000 GB = 120 GB/VM
        Evaluation e = new CastModel(of(j), false).evaluateSingleTier(EPH, 0);
        assertEquals(375 * C.nVm(), e.capacityGb()[EPH], 1e-9);
        assertEquals(j.inputGb() + j.outputGb(), e.capacityGb()[OBJ], 1e-9, "input and output persist in objStore");
        assertTrue(e.feasible());
        Job huge = Job.ofMaps("h", JobProfile.SORT, 60_000, C, null); // 45,000 GB = 1,800 GB/VM > 4 × 375
        assertFalse(new CastModel(of(huge), false).evaluateSingleTier(EPH, 0).feasible());
    }

    @Test
    void ephemeralSsd_paysDownloadAndUpload() {
        Job j = Job.ofMaps("j", JobProfile.GREP, 4_000, C, null);
        CastModel m = new CastModel(of(j), false);
        Evaluation e = m.evaluateSingleTier(EPH, 0);
        double bw = TIERS.get(EPH).bandwidthAt(375);
        double phases = Estimator.runtimeSec(C, j, TIERS.get(EPH), bw, bw);
        double down = Estimator.transferSec(C, j.inputGb(), j.maps(), 265, bw);
        double up = Estimator.transferSec(C, j.outputGb(), j.reduces(), bw, 265);
        assertEquals(phases + down + up, e.jobRuntimeSec()[0], 1e-9);
    }

    @Test
    void objectStore_keepsIntermediateDataOnPersSsd() {
        Job j = Job.ofMaps("j", JobProfile.SORT, 40_000, C, null);
        Evaluation e = new CastModel(of(j), false).evaluateSingleTier(OBJ, 0);
        assertEquals(j.interGb(), e.capacityGb()[PSSD], 1e-6);
        assertEquals(j.inputGb() + j.outputGb(), e.capacityGb()[OBJ], 1e-6);
    }

    @Test
    void reuseAware_storesASharedDatasetOnce_andDownloadsItOnce() {
        Job a = Job.ofMaps("a", JobProfile.GREP, 40_000, C, "d");
        Job b = Job.ofMaps("b", JobProfile.GREP, 40_000, C, "d");
        Workload w = of(a, b);
        Evaluation basic = new CastModel(w, false).evaluateSingleTier(PHDD, 0);
        Evaluation reuse = new CastModel(w, true).evaluateSingleTier(PHDD, 0);
        assertEquals(a.inputGb(), basic.capacityGb()[PHDD] - reuse.capacityGb()[PHDD], 1e-6);
        Evaluation ephBasic = new CastModel(w, false).evaluateSingleTier(EPH, 0);
        Evaluation ephReuse = new CastModel(w, true).evaluateSingleTier(EPH, 0);
        assertEquals(ephBasic.jobRuntimeSec()[0], ephReuse.jobRuntimeSec()[0], 1e-9, "the first job downloads");
        assertTrue(ephReuse.jobRuntimeSec()[1] < ephBasic.jobRuntimeSec()[1], "the second finds the data there");
    }

    @Test
    void reuseAware_copiesASharedDatasetFromItsHomeToEachOtherPersistentTier() {
        // b reads the whole dataset (its largest reader), so the dataset's home is b's tier; a's tier gets a copy.
        Job a = Job.ofMaps("a", JobProfile.SORT, 400, C, "d");
        Job b = Job.ofMaps("b", JobProfile.GREP, 800, C, "d");
        CastModel m = new CastModel(of(a, b), true);
        double[] floors = {0, 500, 0, 0};
        Evaluation split = m.evaluate(new int[] {OBJ, PSSD}, floors);
        Evaluation oblivious = new CastModel(of(a, b), false).evaluate(new int[] {OBJ, PSSD}, floors);
        double copy = Estimator.transferSec(C, a.inputGb(), a.maps(), 234, 265);
        assertEquals(oblivious.jobRuntimeSec()[0] + copy, split.jobRuntimeSec()[0], 1e-9, "a waits for its copy");
        assertEquals(oblivious.jobRuntimeSec()[1], split.jobRuntimeSec()[1], 1e-9, "b reads the home copy");
        Evaluation together = m.evaluate(new int[] {PSSD, PSSD}, floors);
        Evaluation obliviousTogether = new CastModel(of(a, b), false).evaluate(new int[] {PSSD, PSSD}, floors);
        assertEquals(obliviousTogether.runtimeMin(), together.runtimeMin(), 1e-9, "one tier: nothing to copy");
    }

    @Test
    void unplacedJobs_areLeftOut() {
        Job a = Job.ofMaps("a", JobProfile.SORT, 400, C, null);
        Job b = Job.ofMaps("b", JobProfile.SORT, 400, C, null);
        CastModel m = new CastModel(of(a, b), false);
        Evaluation one = m.evaluate(new int[] {PSSD, -1}, new double[4]);
        Evaluation both = m.evaluate(new int[] {PSSD, PSSD}, new double[4]);
        assertTrue(Double.isNaN(one.jobRuntimeSec()[1]));
        assertTrue(one.runtimeMin() < both.runtimeMin());
    }
}
