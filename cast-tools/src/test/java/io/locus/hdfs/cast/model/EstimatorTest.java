package io.locus.hdfs.cast.model;

import static org.junit.jupiter.api.Assertions.assertEquals;

import org.junit.jupiter.api.Test;

/** Eq. 4.1 on hand-computed cases. */
class EstimatorTest {
    private static final Cluster TWO_VMS = new Cluster(2, 2, 2, 0.6, 1024, 730, 1);

    @Test
    void est_isWavesTimesTimePerWave_perPhase() {
        // 6 maps on 4 slots = 2 waves of 1 GB at 8 MB/s; 3 reduces on 4 slots = 1 wave: 1 GB at 4 MB/s
        // shuffled, 0.5 GB at 2 MB/s written.
        Job job = new Job("j", JobProfile.SORT, 6, 3, 1.5, 6, 3, null);
        assertEquals(2 * 128 + 256 + 256, Estimator.est(TWO_VMS, job, 8, 4, 2, 0), 1e-9);
    }

    @Test
    void est_roundsWavesUp_andAddsPerWaveExtra() {
        // 5 maps on 4 slots is 2 waves, not 1.25.
        Job job = new Job("j", JobProfile.SORT, 5, 1, 1, 5, 1, null);
        double est = Estimator.est(TWO_VMS, job, 1024, 1024, 1024, 7);
        assertEquals(2 * 1 + 1 + 1 + 7, est, 1e-9);
    }

    @Test
    void taskBandwidth_isTheSmallerOfRateAndSlotShare() {
        assertEquals(5, Estimator.taskBandwidth(5, 160, 16), 1e-12);
        assertEquals(3, Estimator.taskBandwidth(60, 48, 16), 1e-12);
    }

    @Test
    void runtime_repeatsForEveryIteration() {
        Job once = new Job("a", JobProfile.GREP, 4, 0.04, 0.04, 4, 1, null);
        JobProfile twice = new JobProfile("Twice", 0.01, 0.01, 80, 60, 60, 2, 1);
        Job again = new Job("b", twice, 4, 0.04, 0.04, 4, 1, null);
        Tier t = TierCatalog.PERS_SSD;
        assertEquals(
                2 * Estimator.runtimeSec(TWO_VMS, once, t, 100, 100),
                Estimator.runtimeSec(TWO_VMS, again, t, 100, 100),
                1e-9);
    }

    @Test
    void transfer_isBoundByTheSlowerSide_andRunsInWavesOfTheJobsTasks() {
        // 8 tasks of 1 GB on 4 slots: 2 waves; each task gets min(265, 100)/2 MB/s.
        assertEquals(2 * 1024 / 50.0, Estimator.transferSec(TWO_VMS, 8, 8, 265, 100), 1e-9);
        assertEquals(0, Estimator.transferSec(TWO_VMS, 0, 8, 265, 100), 0);
    }
}
