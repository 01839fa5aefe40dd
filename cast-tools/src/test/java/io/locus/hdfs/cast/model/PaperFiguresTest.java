package io.locus.hdfs.cast.model;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import org.junit.jupiter.api.Test;

/** The model reproduces the qualitative findings of §4.2 of the dissertation (Figs. 4.1, 4.2, 4.5). */
class PaperFiguresTest {
    private static final Cluster C = Cluster.DEFAULT;
    private static final TierCatalog TIERS = TierCatalog.paper();

    /** Best utility of one job alone on one tier, over that tier's capacity levels. */
    private static double bestUtility(JobProfile app, int tier) {
        Job j = Job.ofMaps("j", app, 1000, C, null);
        CastModel m = new CastModel(new Workload("one", C, TIERS, List.of(j), List.of()), false);
        double best = 0;
        for (double level : TIERS.get(tier).levels()) {
            best = Math.max(best, m.evaluateSingleTier(tier, level).utility());
        }
        return best;
    }

    private static String winner(JobProfile app) {
        int best = 0;
        for (int t = 1; t < TIERS.size(); t++) {
            if (bestUtility(app, t) > bestUtility(app, best)) {
                best = t;
            }
        }
        return TIERS.get(best).name();
    }

    @Test
    void fig41_eachApplicationHasItsOwnBestTier() {
        assertEquals("ephSSD", winner(JobProfile.SORT));
        assertEquals("persSSD", winner(JobProfile.JOIN));
        assertEquals("objStore", winner(JobProfile.GREP));
        assertEquals("persHDD", winner(JobProfile.KMEANS));
    }

    @Test
    void fig41_joinIsWorstOnTheObjectStore() {
        double obj = bestUtility(JobProfile.JOIN, 3);
        for (int t = 0; t < 3; t++) {
            assertTrue(bestUtility(JobProfile.JOIN, t) > obj, TIERS.get(t).name());
        }
    }

    @Test
    void fig41_grepOnTheObjectStoreBeatsPersSsdByUtility() {
        assertTrue(bestUtility(JobProfile.GREP, 3) > 1.3 * bestUtility(JobProfile.GREP, 1));
    }

    @Test
    void fig42_doublingPersSsdCapacityCutsSortAndGrepRuntimeByMoreThan40Percent() {
        // 10 VMs as in Fig. 4.2: Sort on 100 GB, Grep on 300 GB, persSSD from 100 to 200 GB per VM.
        Cluster ten = new Cluster(10, 16, 16, 0.8, 256, 730, 1);
        for (Job j : List.of(
                Job.ofMaps("sort", JobProfile.SORT, 400, ten, null),
                Job.ofMaps("grep", JobProfile.GREP, 1200, ten, null))) {
            CastModel m = new CastModel(new Workload("f", ten, TIERS, List.of(j), List.of()), false);
            double at100 = m.evaluateSingleTier(1, 100).runtimeMin();
            double at200 = m.evaluateSingleTier(1, 200).runtimeMin();
            assertTrue(at200 < 0.6 * at100, j.id() + ": " + at100 + " -> " + at200 + " min");
        }
    }

    @Test
    void fig45_splittingAJobAcrossTiersIsNoFasterThanTheSlowTier() {
        // Grep, 6 GB in 24 maps: one wave. ephSSD tasks at 45.8 MB/s, persSSD (500 GB) at 14.6 MB/s.
        Job grep = new Job("grep", JobProfile.GREP, 6, 0.06, 0.06, 24, 6, null);
        double slow = Straggler.mapPhaseSec(C, grep, 0, 45.8, 14.6);
        for (double share : new double[] {0.1, 0.5, 0.9}) {
            assertEquals(slow, Straggler.mapPhaseSec(C, grep, share, 45.8, 14.6), 1e-9, "share " + share);
        }
        assertTrue(Straggler.mapPhaseSec(C, grep, 1, 45.8, 14.6) < slow);
    }
}
