package io.locus.memcached.schedule;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.time.Duration;
import org.junit.jupiter.api.Test;

class AdmissionControllerTest {
    private static final long MS = 1_000_000;
    private static final long SECOND = 1_000 * MS;

    /** F(p) = now + kappa * kappaLevel * ((inflight + p) * sMean + sQ): the backend serves one request at a time. */
    @Test
    void predictFinish_followsFormula() {
        AdmissionController a =
                new AdmissionController(SchedulerConfig.defaults().withInitialServiceEstimate(Duration.ofMillis(1)));
        // sMean = sQ = 1 ms during cold start.
        assertEquals(100 + 1 * MS, a.predictFinishNanos(100, 0, 0, 1.0), "idle: own service only");
        assertEquals(8 * MS, a.predictFinishNanos(0, 7, 0, 1.0), "7 in flight ahead");
        assertEquals(12 * MS, a.predictFinishNanos(0, 8, 3, 1.0), "8 in flight and 3 queued ahead");
        assertEquals(18 * MS, a.predictFinishNanos(0, 8, 3, 1.5), "bronze inflation");
    }

    /**
     * A service sample runs from the later of the request's dispatch and the previous reply to its own reply, so
     * requests sent together while the backend was busy are not charged each other's service.
     */
    @Test
    void observeReply_leavesOutTheWaitBehindRequestsInFlight() {
        SchedulerConfig d = SchedulerConfig.defaults();
        // alpha 1: the mean is the last sample, so each sample can be read back exactly.
        AdmissionController a = new AdmissionController(new SchedulerConfig(
                d.window(),
                d.maxDemotions(),
                d.maxQueue(),
                d.guard(),
                d.targetMiss(),
                d.quantile(),
                d.kappaMin(),
                d.kappaMax(),
                1.0,
                d.sampleWindow(),
                1,
                d.initialServiceEstimate(),
                d.bestEffortNominalDeadline(),
                d.dropExpired(),
                d.epoch()));
        a.observeReply(0, 2 * MS);
        assertEquals(2 * MS, a.model().meanNanos(), 0.0, "idle backend: dispatch to reply");
        a.observeReply(1 * MS, 3 * MS);
        assertEquals(1 * MS, a.model().meanNanos(), 0.0, "sent while the first was in flight: from its reply at 2 ms");
        a.observeReply(1 * MS, 4 * MS);
        assertEquals(1 * MS, a.model().meanNanos(), 0.0, "from the previous reply at 3 ms");
        a.observeReply(10 * MS, 13 * MS);
        assertEquals(3 * MS, a.model().meanNanos(), 0.0, "backend idle again: from dispatch at 10 ms");
    }

    @Test
    void observeReply_rejectsReplyBeforeDispatch() {
        AdmissionController a = new AdmissionController(SchedulerConfig.defaults());
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> a.observeReply(5, 4));
        assertEquals("reply at 4 ns before dispatch at 5 ns (expected: reply >= dispatch)", e.getMessage());
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
