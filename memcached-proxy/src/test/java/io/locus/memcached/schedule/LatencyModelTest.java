package io.locus.memcached.schedule;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.Arrays;
import java.util.Random;
import org.junit.jupiter.api.Test;

class LatencyModelTest {
    private static final long US = 1_000;
    private static final long MS = 1_000_000;

    @Test
    void coldStart_usesInitialEstimateUntil32Samples() {
        LatencyModel m = new LatencyModel(SchedulerConfig.defaults());
        for (int i = 0; i < 31; i++) {
            m.observe(10 * MS);
            assertEquals(500 * US, m.meanNanos(), 0.0, "sample " + i);
            assertEquals(500 * US, m.quantileNanos());
        }
        m.observe(10 * MS);
        assertEquals(10 * MS, m.meanNanos(), 0.0);
        assertEquals(10 * MS, m.quantileNanos());
    }

    /** After a step from 1 ms to 3 ms, the EWMA (alpha 0.2) is within 1 % of 3 ms after 30 samples. */
    @Test
    void mean_convergesAfterStepChange() {
        LatencyModel m = new LatencyModel(SchedulerConfig.defaults());
        for (int i = 0; i < 100; i++) {
            m.observe(1 * MS);
        }
        for (int i = 0; i < 30; i++) {
            m.observe(3 * MS);
        }
        assertEquals(3 * MS, m.meanNanos(), 0.01 * 3 * MS);
    }

    /** The p90 of uniform [1, 3] ms is 2.8 ms; 512 seeded samples estimate it within 3 %. */
    @Test
    void quantile_convergesToP90OfUniform() {
        long seed = 7L;
        System.out.println("quantile_convergesToP90OfUniform seed=" + seed);
        Random rnd = new Random(seed);
        LatencyModel m = new LatencyModel(SchedulerConfig.defaults());
        for (int i = 0; i < 4_096; i++) {
            m.observe(1 * MS + (long) (rnd.nextDouble() * 2 * MS));
        }
        assertEquals(2.8 * MS, m.quantileNanos(), 0.03 * 2.8 * MS);
        assertEquals(2 * MS, m.meanNanos(), 0.5 * MS, "EWMA stays within the sample range around the mean");
    }

    /** The quantile follows a regime change within one window (512) plus one refresh period (64). */
    @Test
    void quantile_forgetsOldRegimeAfterWindow() {
        LatencyModel m = new LatencyModel(SchedulerConfig.defaults());
        for (int i = 0; i < 1_000; i++) {
            m.observe(10 * MS);
        }
        for (int i = 0; i < 512 + LatencyModel.REFRESH_EVERY; i++) {
            m.observe(1 * MS);
        }
        assertEquals(1 * MS, m.quantileNanos());
    }

    /**
     * Selection finds what sorting would: every rank of seeded windows of every size up to 70, with values drawn from
     * a small range (many ties), a wide one, and sorted and reversed runs.
     */
    @Test
    void select_agreesWithSortedOrder() {
        long seed = 11L;
        System.out.println("select_agreesWithSortedOrder seed=" + seed);
        Random rnd = new Random(seed);
        for (int n = 1; n <= 70; n++) {
            for (int shape = 0; shape < 4; shape++) {
                long[] a = new long[n];
                for (int i = 0; i < n; i++) {
                    a[i] = switch (shape) {
                        case 0 -> rnd.nextInt(4);
                        case 1 -> rnd.nextLong() >>> 1;
                        case 2 -> i;
                        default -> n - i;
                    };
                }
                long[] sorted = a.clone();
                Arrays.sort(sorted);
                for (int k = 0; k < n; k++) {
                    assertEquals(
                            sorted[k], LatencyModel.select(a.clone(), n, k), "n " + n + " shape " + shape + " k " + k);
                }
            }
        }
    }

    /** The model's quantile is the nearest-rank quantile of its last window, at every refresh. */
    @Test
    void quantile_isNearestRankOfWindow() {
        long seed = 13L;
        System.out.println("quantile_isNearestRankOfWindow seed=" + seed);
        Random rnd = new Random(seed);
        SchedulerConfig config = SchedulerConfig.defaults();
        LatencyModel m = new LatencyModel(config);
        int window = config.sampleWindow();
        long[] all = new long[3 * window];
        for (int i = 0; i < all.length; i++) {
            all[i] = (long) (rnd.nextDouble() * rnd.nextDouble() * 5 * MS);
            m.observe(all[i]);
            if ((i + 1) % LatencyModel.REFRESH_EVERY == 0 && i + 1 >= config.coldStartSamples()) {
                int n = Math.min(i + 1, window);
                long[] last = Arrays.copyOfRange(all, i + 1 - n, i + 1);
                Arrays.sort(last);
                int rank = (int) Math.ceil(config.quantile() * n) - 1;
                assertEquals(last[Math.max(0, rank)], m.quantileNanos(), "after sample " + (i + 1));
            }
        }
    }

    @Test
    void observe_negative_isRejected() {
        LatencyModel m = new LatencyModel(SchedulerConfig.defaults());
        assertEquals(
                "service time -1 ns (expected: >= 0)",
                assertThrows(IllegalArgumentException.class, () -> m.observe(-1))
                        .getMessage());
        assertTrue(m.coldStart());
    }
}
