package io.locus.memcached.schedule;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.time.Duration;
import org.junit.jupiter.api.Test;

class AdmissionControllerTest {
    private static final long MS = 1_000_000;
    private static final long SECOND = 1_000 * MS;

    /** MicroFuge §4.2: F(p) = now + kappa * kappaLevel * (max(0, inflight + p - W + 1) * sMean / W + sQ). */
    @Test
    void predictFinish_followsSpecFormula() {
        AdmissionController a =
                new AdmissionController(SchedulerConfig.defaults().withInitialServiceEstimate(Duration.ofMillis(8)));
        // W = 8, sMean = sQ = 8 ms: one completion every 1 ms.
        assertEquals(100 + 8 * MS, a.predictFinishNanos(100, 0, 0, 1.0), "idle: own service only");
        assertEquals(8 * MS, a.predictFinishNanos(0, 7, 0, 1.0), "7 in flight: a window slot is free");
        assertEquals(9 * MS, a.predictFinishNanos(0, 8, 0, 1.0), "full window: wait one completion");
        assertEquals(12 * MS, a.predictFinishNanos(0, 8, 3, 1.0), "3 queued ahead");
        assertEquals(18 * MS, a.predictFinishNanos(0, 8, 3, 1.5), "bronze inflation");
    }

    /** Misses above target raise kappa by 10 % per epoch up to 4; misses below target/2 lower it by 5 %. */
    @Test
    void kappa_followsMissFractionPerEpoch() {
        AdmissionController a = new AdmissionController(SchedulerConfig.defaults());
        long now = 0;
        a.rollEpoch(now);
        for (int epoch = 0; epoch < 20; epoch++) {
            for (int i = 0; i < 80; i++) {
                a.recordOutcome(true, now);
            }
            for (int i = 0; i < 20; i++) {
                a.recordOutcome(false, now); // 20 % misses > 10 %
            }
            now += SECOND;
            a.rollEpoch(now);
            assertEquals(Math.min(4.0, Math.pow(1.1, epoch + 1)), a.kappa(), 1e-9, "epoch " + epoch);
        }
        assertEquals(4.0, a.kappa(), 0.0);
        double before = a.kappa();
        for (int i = 0; i < 100; i++) {
            a.recordOutcome(i % 25 != 0, now); // 4 % misses < 5 %
        }
        now += SECOND;
        a.rollEpoch(now);
        assertEquals(before / 1.05, a.kappa(), 1e-9);
        for (int i = 0; i < 100; i++) {
            a.recordOutcome(i % 14 != 0, now); // 8 %: between target/2 and target, kappa stays
        }
        now += SECOND;
        a.rollEpoch(now);
        assertEquals(before / 1.05, a.kappa(), 1e-9);
        for (int epoch = 0; epoch < 100; epoch++) {
            a.recordOutcome(true, now);
            now += SECOND;
            a.rollEpoch(now);
        }
        assertEquals(0.5, a.kappa(), 0.0, "bounded below");
    }

    @Test
    void kappa_unchangedWithinEpochAndWithoutOutcomes() {
        AdmissionController a = new AdmissionController(SchedulerConfig.defaults());
        a.rollEpoch(0);
        a.recordOutcome(false, 10);
        a.rollEpoch(SECOND - 1);
        assertEquals(1.0, a.kappa(), 0.0, "epoch not over");
        a.rollEpoch(SECOND);
        assertEquals(1.1, a.kappa(), 1e-9);
        a.rollEpoch(5 * SECOND);
        assertEquals(1.1, a.kappa(), 1e-9, "an epoch without outcomes changes nothing");
    }

    /** Misses above target raise kappa within a tenth of an epoch, at most once per tenth; decay waits an epoch. */
    @Test
    void kappa_risesEarlyOnABurstOfMisses() {
        AdmissionController a = new AdmissionController(SchedulerConfig.defaults());
        long tenth = SECOND / 10;
        a.rollEpoch(0);
        for (int i = 0; i < 50; i++) {
            a.recordOutcome(true, tenth / 2);
        }
        a.recordOutcome(false, tenth / 2);
        a.recordOutcome(false, tenth / 2);
        a.recordOutcome(false, tenth / 2);
        assertEquals(1.0, a.kappa(), 0.0, "within the first tenth of the epoch: wait");
        for (int i = 0; i < 10; i++) {
            a.recordOutcome(false, tenth);
        }
        assertEquals(1.1, a.kappa(), 1e-9, "13 of 63 missed after a tenth: raised once");
        a.recordOutcome(false, tenth + 1);
        a.recordOutcome(false, tenth + 2);
        a.recordOutcome(false, tenth + 3);
        assertEquals(1.1, a.kappa(), 1e-9, "at most one raise per tenth");
        a.recordOutcome(false, 2 * tenth);
        assertEquals(1.21, a.kappa(), 1e-9, "still missing a tenth later: raised again");
        for (int i = 0; i < 2; i++) {
            a.recordOutcome(false, 3 * tenth);
        }
        assertEquals(1.21, a.kappa(), 1e-9, "two misses are not a burst");
        for (int i = 0; i < 200; i++) {
            a.recordOutcome(true, 4 * tenth);
        }
        a.recordOutcome(false, 4 * tenth);
        assertEquals(1.21, a.kappa(), 1e-9, "3 of 203 is below the 10 % target");
        a.rollEpoch(2 * tenth + SECOND - 1);
        assertEquals(1.21, a.kappa(), 1e-9, "the epoch restarted at the last raise");
        a.rollEpoch(2 * tenth + SECOND);
        assertEquals(1.21 / 1.05, a.kappa(), 1e-9, "1.5 % misses over the epoch: lowered");
    }
}
