package io.locus.memcached.balance;

import io.locus.memcached.balance.HotspotDetector.Hotspot;
import io.locus.memcached.balance.LoadMonitor.BackendLoad;
import java.util.List;

/**
 * Chooses the cheapest sufficient remedy for an overloaded backend (MBal §3.1; MBal gives
 * only the qualitative Table 2 [MBal §3.1], the numbers are decisions of BALANCE.md).
 *
 * <p>Excess {@code X_b = max(0, L_b - T_b)}. Replication removes {@code B1 = Σ r_read,k (1 - 1/R_k)} from the home
 * (reads spread over R_k copies) and costs {@code Σ r_write,k (R_k - 1)} extra writes/s. Phase 1 is chosen if
 * {@code B1 >= lb.p1_benefit_fraction · X_b} and the home is below {@code lb.repl_high}; otherwise Phase 3. The byte
 * cost of duplicates ({@code Σ size_k (R_k - 1)}) is not weighed here: item sizes are not in the sampled
 * statistics, and {@code lb.repl_high} bounds the number of duplicates instead. Stateless and thread-safe.
 */
public final class CostBenefitAnalyzer {
    private final BalanceConfig config;

    /** The remedy for one backend. */
    public enum Remedy {
        /** Not overloaded. */
        NONE,
        /** Phase 1 suffices. */
        REPLICATE,
        /** Phase 1 cannot remove enough: hand to Phase 3. */
        MIGRATE
    }

    /**
     * @param backend the backend assessed
     * @param excessOpsPerSecond X_b
     * @param replicationBenefitOpsPerSecond B1
     * @param replicationExtraWritesPerSecond write fan-out cost of Phase 1
     * @param remedy the choice
     */
    public record Assessment(
            int backend,
            double excessOpsPerSecond,
            double replicationBenefitOpsPerSecond,
            double replicationExtraWritesPerSecond,
            Remedy remedy) {}

    public CostBenefitAnalyzer(BalanceConfig config) {
        this.config = config;
    }

    /**
     * Assesses {@code load}'s backend given the hotspots whose home it is.
     *
     * @param replicatedKeys keys already replicated from this backend (compared with {@code lb.repl_high})
     */
    public <K> Assessment assess(BackendLoad load, List<Hotspot<K>> hotOnBackend, int replicatedKeys) {
        double excess = Math.max(0, load.opsPerSecond() - load.capacityOpsPerSecond());
        double benefit = 0;
        double extraWrites = 0;
        for (Hotspot<K> h : hotOnBackend) {
            if (h.home() != load.backend() || h.wantedCopies() < 2) {
                continue;
            }
            int r = h.wantedCopies();
            benefit += h.stats().readOpsPerSecond() * (1 - 1.0 / r);
            extraWrites += h.stats().writeOpsPerSecond() * (r - 1);
        }
        Remedy remedy;
        if (excess <= 0) {
            remedy = Remedy.NONE;
        } else if (benefit >= config.p1BenefitFraction() * excess && replicatedKeys < config.replHigh()) {
            remedy = Remedy.REPLICATE;
        } else {
            remedy = Remedy.MIGRATE;
        }
        return new Assessment(load.backend(), excess, benefit, extraWrites, remedy);
    }
}
