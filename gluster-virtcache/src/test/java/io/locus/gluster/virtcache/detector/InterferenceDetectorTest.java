package io.locus.gluster.virtcache.detector;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.locus.gluster.virtcache.detector.InterferenceDetector.Decision;
import io.locus.gluster.virtcache.detector.InterferenceDetector.Sample;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.Test;

class InterferenceDetectorTest {
    static final double MS = 0.001;

    /** Two VMs with 0.5 ms and 1 ms service times; vm2 is the noisy one. */
    private static Map<String, Sample> load(double vm1Iops, double vm2Iops) {
        Map<String, Sample> m = new LinkedHashMap<>();
        m.put("vm1", new Sample(vm1Iops, 0, 0.5 * MS));
        m.put("vm2", new Sample(vm2Iops, 0, 1 * MS));
        return m;
    }

    private static void window(InterferenceDetector d, Map<String, Sample> load, double queueDepth) {
        for (int i = 0; i < DetectorConfig.DEFAULTS.samplesPerWindow(); i++) {
            d.sample(load, queueDepth);
        }
    }

    @Test
    void modelFollowsEquation35() {
        InterferenceDetector d = new InterferenceDetector(DetectorConfig.DEFAULTS);
        // U = 1.1·(300/16·0.0005 + 2000/16·0.001) = 0.1478...; R_vm2 = 0.001 / (1 − U)
        window(d, load(300, 2000), 1);
        Decision decision = d.evaluate(vm -> 0);
        double u = 1.1 * (300.0 / 16 * 0.0005 + 2000.0 / 16 * 0.001);
        assertEquals(0.001 / (1 - u), decision.reports().get(1).p90(), 1e-12);
        assertEquals(0.0005 / (1 - u), decision.reports().get(0).lowLoadP90(), 1e-12);
    }

    @Test
    void saturatedDevice_isNeverLowLoad_andViolates() {
        InterferenceDetector d = new InterferenceDetector(DetectorConfig.DEFAULTS);
        window(d, load(300, 200), 1);
        // U = 1.1·(300/16·0.0005 + 20000/16·0.001) > 1, seen with a short queue above the device.
        window(d, load(300, 20000), 1);
        Decision first = d.evaluate(vm -> 0.5);
        for (InterferenceDetector.VmReport r : first.reports()) {
            assertTrue(Double.isFinite(r.lowLoadP90()), "the baseline kept its finite predictions: " + r);
            assertTrue(r.violating(), "an unbounded prediction violates: " + r);
        }
    }

    @Test
    void peakOnTheDevice_selectsAVm_afterConfirmation() {
        InterferenceDetector d = new InterferenceDetector(DetectorConfig.DEFAULTS);
        window(d, load(300, 200), 1);
        assertEquals(Optional.empty(), d.evaluate(vm -> 0.5).selected(), "low load: nothing to do");
        window(d, load(300, 4000), 12);
        Decision first = d.evaluate(vm -> 0.5);
        assertTrue(first.reports().stream().allMatch(InterferenceDetector.VmReport::violating), first.toString());
        assertEquals(Optional.empty(), first.selected(), "one violating evaluation is not enough");
        Decision second = d.evaluate(vm -> 0.5);
        // Equal hit rates: the larger deviation wins, which is vm2's (its service time is twice vm1's).
        assertEquals(Optional.of("vm2"), second.selected(), second.toString());
        assertEquals(Optional.empty(), d.evaluate(vm -> 0.5).selected(), "settling");
        assertEquals(Optional.empty(), d.evaluate(vm -> 0.5).selected(), "settling");
        assertEquals(Optional.of("vm1"), d.evaluate(vm -> 0.5).selected(), "then the next violating VM");
    }

    @Test
    void higherHitRate_winsOverLargerDeviation() {
        InterferenceDetector d = new InterferenceDetector(DetectorConfig.DEFAULTS);
        window(d, load(300, 200), 1);
        window(d, load(300, 4000), 12);
        d.evaluate(vm -> 0);
        Decision decision = d.evaluate(vm -> vm.equals("vm1") ? 0.6 : 0.3);
        assertEquals(Optional.of("vm1"), decision.selected(), decision.toString());
    }

    @Test
    void hitRatesWithinOneStep_countAsEqual() {
        InterferenceDetector d = new InterferenceDetector(DetectorConfig.DEFAULTS);
        window(d, load(300, 200), 1);
        window(d, load(300, 4000), 12);
        d.evaluate(vm -> 0);
        Decision decision = d.evaluate(vm -> vm.equals("vm1") ? 0.61 : 0.59);
        assertEquals(Optional.of("vm2"), decision.selected(), decision.toString());
    }

    @Test
    void saturatedDevice_predictsInfiniteLatency_andViolates() {
        InterferenceDetector d = new InterferenceDetector(DetectorConfig.DEFAULTS);
        window(d, load(300, 200), 1);
        window(d, load(300, 20000), 40);
        Decision decision = d.evaluate(vm -> 0);
        assertTrue(Double.isInfinite(decision.reports().get(0).p90()));
        assertTrue(decision.reports().get(0).violating());
    }

    @Test
    void redirectedLoadStillCounts_andRevertedVmMayBeSelectedAgain() {
        InterferenceDetector d = new InterferenceDetector(DetectorConfig.DEFAULTS);
        window(d, load(300, 200), 1);
        window(d, load(300, 4000), 12);
        d.evaluate(vm -> 0);
        assertEquals(Optional.of("vm2"), d.evaluate(vm -> 0).selected());
        // vm2 now sends most of its load elsewhere; the model still sees it, so vm2 is not taken for idle.
        Map<String, Sample> redirected = new LinkedHashMap<>();
        redirected.put("vm1", new Sample(300, 0, 0.5 * MS));
        redirected.put("vm2", new Sample(200, 3800, 1 * MS));
        window(d, redirected, 2);
        Decision during = d.evaluate(vm -> 0);
        assertTrue(during.reports().get(1).violating(), during.toString());
        d.reverted("vm2");
        window(d, load(300, 200), 1);
        assertFalse(d.evaluate(vm -> 0).reports().get(1).violating(), "low load again");
    }

    @Test
    void badInput_isRefusedWithTheValueNamed() {
        assertMessage("arrivalsPerSecond -1.0", () -> new Sample(-1, 0, MS));
        assertMessage("redirectedPerSecond NaN", () -> new Sample(1, Double.NaN, MS));
        assertMessage("deviceSeconds 0.0", () -> new Sample(1, 0, 0));
        assertMessage("detector parallelIo 0.0", () -> new DetectorConfig(0.1, 0, 4, 0.05, 30, 2, 2, 0.05));
        InterferenceDetector d = new InterferenceDetector(DetectorConfig.DEFAULTS);
        assertMessage("averageQueueDepth -1.0", () -> d.sample(load(1, 1), -1));
        window(d, load(300, 200), 1);
        window(d, load(300, 4000), 12);
        assertMessage("hit rate 1.5", () -> {
            d.evaluate(vm -> 1.5);
            d.evaluate(vm -> 1.5);
        });
    }

    private static void assertMessage(String expected, Runnable r) {
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class, r::run);
        assertTrue(e.getMessage().contains(expected), e.getMessage());
    }
}
