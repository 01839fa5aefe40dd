package io.locus.memcached.balance;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.locus.memcached.balance.HotKeyTracker.HotKey;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;

class HotKeyTrackerTest {
    private static BalanceConfig config(int tableSize, double sampleRate) {
        return BalanceConfig.defaults()
                .withOverrides(Map.of(
                        "lb.hot_keys", Integer.toString(tableSize), "lb.sample_rate", Double.toString(sampleRate)));
    }

    @Test
    void table_neverExceedsCapacity_andHotnessNeverNegative() {
        HotKeyTracker<Integer> t = new HotKeyTracker<>(config(16, 1), new SplittableRandom(1));
        SplittableRandom r = new SplittableRandom(2);
        for (int i = 0; i < 10_000; i++) {
            int key = r.nextInt(500);
            if (r.nextInt(4) == 0) {
                t.recordWrite(key);
            } else {
                t.recordRead(key);
            }
            assertTrue(t.size() <= 16, "size " + t.size() + " after " + i + " ops");
            assertTrue(t.hotness(key) >= 0, "hotness of " + key);
        }
    }

    @Test
    void writes_subtractWriteWeight_flooredAtZero() {
        HotKeyTracker<String> t = new HotKeyTracker<>(config(8, 1), new SplittableRandom(1));
        for (int i = 0; i < 10; i++) {
            t.offerRead("k");
        }
        t.offerWrite("k");
        assertEquals(6, t.hotness("k")); // 10 reads - 4 (w_w) for one write
        t.offerWrite("k");
        t.offerWrite("k");
        assertEquals(0, t.hotness("k")); // 6 - 8 floors at 0
        t.offerWrite("absent");
        assertEquals(0, t.hotness("absent"));
    }

    @Test
    void writeHeavyKey_isNeverReported_readHeavyKeyIs() {
        // [MBal §4.2.2]: weighted read+/write- keeps write-intensive keys out of replication.
        HotKeyTracker<String> t = new HotKeyTracker<>(config(8, 1), new SplittableRandom(1));
        for (int i = 0; i < 1000; i++) {
            t.offerRead("session");
            t.offerWrite("session"); // 50/50 mix: +1 -4 per pair
            t.offerRead("profile");
        }
        List<HotKey<String>> out = t.endEpoch(1);
        assertEquals(1, out.size(), out.toString());
        assertEquals("profile", out.get(0).key());
    }

    @Test
    void rateEstimate_convergesToTrueRate_atFivePercentSampling() {
        // 20,000 reads/s of one key, ps = 0.05, decay 0.5: steady state h = 1000 / (1 - 0.5) = 2000 samples,
        // rate = h (1 - d) / (ps E) = 20,000. Sampling noise: sd of 1000 samples ~ 3 %.
        HotKeyTracker<String> t = new HotKeyTracker<>(config(64, 0.05), new SplittableRandom(42));
        HotKey<String> last = null;
        for (int epoch = 0; epoch < 12; epoch++) {
            for (int i = 0; i < 20_000; i++) {
                t.recordRead("hot");
            }
            last = t.endEpoch(1).get(0);
        }
        assertEquals(20_000, last.rateOpsPerSecond(), 20_000 * 0.1, last.toString());
        assertEquals(20_000, last.readOpsPerSecond(), 20_000 * 0.1, last.toString());
        assertEquals(0, last.writeOpsPerSecond());
    }

    @Test
    void decay_halvesEveryEpoch_andDropsDeadKeys() {
        HotKeyTracker<String> t = new HotKeyTracker<>(config(8, 1), new SplittableRandom(1));
        for (int i = 0; i < 8; i++) {
            t.offerRead("k");
        }
        t.endEpoch(1);
        assertEquals(4, t.hotness("k"));
        for (int i = 0; i < 10; i++) {
            t.endEpoch(1);
        }
        assertEquals(0, t.size());
    }

    @Test
    void spaceSaving_holdsEveryKeyAboveNOverK_withLowerBound() {
        // Model-based check against exact counts: Space-Saving guarantees every key with true count > N/K is held,
        // and count - error <= true count (reads only, no decay, so the classic bounds apply).
        SplittableRandom r = new SplittableRandom(7);
        int k = 32;
        HotKeyTracker<Integer> t = new HotKeyTracker<>(config(k, 1), new SplittableRandom(1));
        Map<Integer, Integer> exact = new HashMap<>();
        int n = 50_000;
        BalanceSimulationTest.Zipf zipf = new BalanceSimulationTest.Zipf(2000, 0.99, r);
        for (int i = 0; i < n; i++) {
            int key = zipf.next();
            exact.merge(key, 1, Integer::sum);
            t.offerRead(key);
        }
        for (Map.Entry<Integer, Integer> e : exact.entrySet()) {
            double lower = t.hotness(e.getKey());
            assertTrue(
                    lower <= e.getValue(), "key " + e.getKey() + " lower bound " + lower + " > true " + e.getValue());
            if (e.getValue() > n / k) {
                assertTrue(
                        lower > 0,
                        "key " + e.getKey() + " with " + e.getValue() + " > N/K = " + n / k + " not held (seed 7)");
            }
        }
    }

    @Test
    void badSampleRateOrEpoch_isRejected() {
        HotKeyTracker<String> t = new HotKeyTracker<>(BalanceConfig.defaults(), new SplittableRandom(1));
        assertEquals(
                "lb.sample_rate: 0.0 (expected: 0 < value <= 1)",
                assertThrows(IllegalArgumentException.class, () -> t.setSampleRate(0))
                        .getMessage());
        assertEquals(
                "epoch length 0.0 s (expected: > 0)",
                assertThrows(IllegalArgumentException.class, () -> t.endEpoch(0))
                        .getMessage());
    }
}
