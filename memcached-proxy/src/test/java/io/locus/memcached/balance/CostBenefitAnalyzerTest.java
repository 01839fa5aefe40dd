package io.locus.memcached.balance;

import static org.junit.jupiter.api.Assertions.assertEquals;

import io.locus.memcached.balance.CostBenefitAnalyzer.Assessment;
import io.locus.memcached.balance.CostBenefitAnalyzer.Remedy;
import io.locus.memcached.balance.HotKeyTracker.HotKey;
import io.locus.memcached.balance.HotspotDetector.Hotspot;
import io.locus.memcached.balance.LoadMonitor.BackendLoad;
import java.util.List;
import org.junit.jupiter.api.Test;

class CostBenefitAnalyzerTest {
    private final CostBenefitAnalyzer analyzer = new CostBenefitAnalyzer(BalanceConfig.defaults());

    private static Hotspot<String> hot(double reads, double writes, int copies) {
        return new Hotspot<>(new HotKey<>("k", reads, reads - 4 * writes, reads, writes), 0, 4, true, copies);
    }

    @Test
    void replicate_whenBenefitCoversHalfTheExcess() {
        // X = 12,000 - 10,000 = 2,000; B1 = 2,000 reads/s × (1 - 1/2) = 1,000 >= 0.5 × 2,000.
        Assessment a = analyzer.assess(new BackendLoad(0, 12_000, 0, 10_000, -1), List.of(hot(2000, 10, 2)), 0);
        assertEquals(Remedy.REPLICATE, a.remedy());
        assertEquals(2000, a.excessOpsPerSecond());
        assertEquals(1000, a.replicationBenefitOpsPerSecond());
        assertEquals(10, a.replicationExtraWritesPerSecond()); // 10 writes/s × (2 - 1) shadow
    }

    @Test
    void migrate_whenBenefitTooSmall_orReplHighReached() {
        // B1 = 1,998 × 0.5 = 999 < 1,000.
        assertEquals(
                Remedy.MIGRATE,
                analyzer.assess(new BackendLoad(0, 12_000, 0, 10_000, -1), List.of(hot(1998, 0, 2)), 0)
                        .remedy());
        assertEquals(
                Remedy.MIGRATE,
                analyzer.assess(new BackendLoad(0, 12_000, 0, 10_000, -1), List.of(hot(2000, 0, 2)), 64)
                        .remedy());
    }

    @Test
    void none_whenNotOverloaded() {
        assertEquals(
                Remedy.NONE,
                analyzer.assess(new BackendLoad(0, 10_000, 0, 10_000, -1), List.of(hot(2000, 0, 2)), 0)
                        .remedy());
    }
}
