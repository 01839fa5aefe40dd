package io.locus.memcached.balance;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.locus.memcached.balance.HotKeyTracker.HotKey;
import io.locus.memcached.balance.HotspotDetector.Hotspot;
import io.locus.memcached.balance.LoadMonitor.BackendLoad;
import java.util.List;
import org.junit.jupiter.api.Test;

class HotspotDetectorTest {
    // T = 10,000 ops/s: hot if r >= 200 ops/s (0.02 T) and home load >= 5,000 (0.5 T).
    private static final List<BackendLoad> LOADS =
            List.of(new BackendLoad(0, 6000, 0, 10_000, -1), new BackendLoad(1, 4000, 0, 10_000, -1));

    private static HotKey<String> key(String k, double rate) {
        return new HotKey<>(k, rate, rate, rate, 0);
    }

    @Test
    void hot_needsRateAndLoadedHome() {
        HotspotDetector<String> d = new HotspotDetector<>(BalanceConfig.defaults());
        List<Hotspot<String>> hot =
                d.detect(List.of(key("a", 200), key("b", 199.9), key("c", 5000)), k -> k.equals("c") ? 1 : 0, LOADS);
        assertEquals(1, hot.size(), hot.toString()); // b is below 0.02 T; c's home is at 0.4 T
        assertEquals("a", hot.get(0).stats().key());
    }

    @Test
    void wantedCopies_growWithRate_cappedAtReplicasMax() {
        HotspotDetector<String> d = new HotspotDetector<>(BalanceConfig.defaults());
        // 1 + ceil(r / (0.1 T)): 500 -> 2, 2500 -> 4 capped at lb.replicas_max = 2.
        List<Hotspot<String>> hot = d.detect(List.of(key("a", 500), key("b", 2500)), k -> 0, LOADS);
        assertEquals(2, hot.get(0).wantedCopies());
        assertEquals(2, hot.get(1).wantedCopies());
        HotspotDetector<String> four =
                new HotspotDetector<>(BalanceConfig.defaults().withOverrides(java.util.Map.of("lb.replicas_max", "8")));
        assertEquals(
                4, four.detect(List.of(key("b", 2500)), k -> 0, LOADS).get(0).wantedCopies());
    }

    @Test
    void persistence_needsFourConsecutiveEpochs_andResetsOnACold() {
        HotspotDetector<String> d = new HotspotDetector<>(BalanceConfig.defaults());
        for (int epoch = 1; epoch <= 3; epoch++) {
            Hotspot<String> h = d.detect(List.of(key("a", 300)), k -> 0, LOADS).get(0);
            assertEquals(epoch, h.epochsHot());
            assertFalse(h.persistent(), "epoch " + epoch);
        }
        assertTrue(d.detect(List.of(key("a", 300)), k -> 0, LOADS).get(0).persistent());
        assertEquals(List.of(), d.detect(List.of(key("a", 100)), k -> 0, LOADS));
        assertEquals(1, d.detect(List.of(key("a", 300)), k -> 0, LOADS).get(0).epochsHot());
    }
}
