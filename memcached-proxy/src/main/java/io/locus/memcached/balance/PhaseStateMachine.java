package io.locus.memcached.balance;

import java.util.EnumMap;
import java.util.EnumSet;
import java.util.Map;
import java.util.Set;

/**
 * The phase state machine of MBal §3.1 (its Figure 4, reconstructed in BALANCE.md), stepped once per
 * epoch. Several phases may be active at once ([MBal §3.1]: a phase "may also be triggered and executed
 * simultaneously with another lower-priority phase").
 *
 * <p>Transitions (P = {@code lb.persistence}):
 * <ul>
 *   <li>{@link Phase#KEY_REPLICATION} while some hot, read-dominated key has persisted P epochs or replica leases
 *       are outstanding.</li>
 *   <li>{@link Phase#COORDINATED_MIGRATION} is planned when the backends have been imbalanced for P consecutive
 *       epochs ({@code rdev > lb.p2_rdev}, some backend above its capacity, some below the mean), Phase 1 is
 *       insufficient for the hottest backend ({@link CostBenefitAnalyzer}), no migration is running, and the
 *       cluster is not all hot; it stays active while migrations run. This covers MBal's P1→P2 and NORMAL→P2 arcs,
 *       since Phase 2 does not exist for unmodified memcached (see {@link Phase}).</li>
 *   <li>{@link Phase#SCALE_OUT_ADVISED} when more than {@code lb.server_load_thresh} of the backends have been
 *       overloaded for P epochs, or the Phase 3 planner reported that the source stays too hot.</li>
 *   <li>{@link Phase#NORMAL} when none of the above holds.</li>
 * </ul>
 * A phase switched off by {@code lb.phases} is never entered. Not thread-safe: call from the epoch task.
 */
public final class PhaseStateMachine {
    private final BalanceConfig config;
    private int imbalanceStreak;
    private int clusterHotStreak;
    private Set<Phase> active = EnumSet.of(Phase.NORMAL);
    private final Map<Phase, Long> triggers = new EnumMap<>(Phase.class);

    /**
     * What the epoch saw.
     *
     * @param loadsOpsPerSecond backend loads
     * @param capacitiesOpsPerSecond backend capacities T_b
     * @param persistentHotKeys some hotspot is persistent (or already replicated and still hot)
     * @param replicasLeased replica leases outstanding after this epoch's expiry
     * @param replicationInsufficient the cost/benefit analyser chose {@code MIGRATE} for the hottest backend
     * @param migrationsRunning virtual bucket migrations not yet finished
     * @param migrationGaveUp the last Phase 3 plan left its source above capacity
     */
    public record Observation(
            double[] loadsOpsPerSecond,
            double[] capacitiesOpsPerSecond,
            boolean persistentHotKeys,
            boolean replicasLeased,
            boolean replicationInsufficient,
            boolean migrationsRunning,
            boolean migrationGaveUp) {}

    /**
     * The state after an epoch.
     *
     * @param active the active phases (exactly {NORMAL} or a set without NORMAL)
     * @param replicate run the Phase 1 planner this epoch
     * @param planMigration run the Phase 3 planner this epoch
     * @param rdev the relative deviation of the loads
     * @param overloadedFraction fraction of backends above capacity
     */
    public record Step(
            Set<Phase> active, boolean replicate, boolean planMigration, double rdev, double overloadedFraction) {}

    public PhaseStateMachine(BalanceConfig config) {
        this.config = config;
    }

    /** Advances one epoch. */
    public Step onEpoch(Observation o) {
        double[] loads = o.loadsOpsPerSecond();
        double[] caps = o.capacitiesOpsPerSecond();
        if (loads.length != caps.length || loads.length == 0) {
            throw new IllegalArgumentException("loads for " + loads.length + " backends, capacities for " + caps.length
                    + " (expected: the same number, >= 1)");
        }
        double avg = Imbalance.mean(loads);
        double rdev = Imbalance.rdev(loads);
        int overloaded = 0;
        boolean someBelowMean = false;
        for (int b = 0; b < loads.length; b++) {
            if (loads[b] > caps[b]) {
                overloaded++;
            }
            if (loads[b] < avg) {
                someBelowMean = true;
            }
        }
        double overloadedFraction = (double) overloaded / loads.length;
        boolean imbalanced = rdev > config.imbalanceRdev() && overloaded > 0 && someBelowMean;
        imbalanceStreak = imbalanced ? imbalanceStreak + 1 : 0;
        boolean clusterHot = overloadedFraction > config.serverLoadThresh();
        clusterHotStreak = clusterHot ? clusterHotStreak + 1 : 0;
        int p = config.persistenceEpochs();

        boolean replicate = config.phase1Enabled() && (o.persistentHotKeys() || o.replicasLeased());
        boolean planMigration = config.phase3Enabled()
                && imbalanceStreak >= p
                && o.replicationInsufficient()
                && !o.migrationsRunning()
                && !clusterHot;
        boolean scaleOut = clusterHotStreak >= p || o.migrationGaveUp();

        Set<Phase> next = EnumSet.noneOf(Phase.class);
        if (replicate) {
            next.add(Phase.KEY_REPLICATION);
        }
        if (planMigration || o.migrationsRunning()) {
            next.add(Phase.COORDINATED_MIGRATION);
        }
        if (scaleOut) {
            next.add(Phase.SCALE_OUT_ADVISED);
        }
        if (next.isEmpty()) {
            next.add(Phase.NORMAL);
        }
        for (Phase ph : next) {
            if (!active.contains(ph)) {
                triggers.merge(ph, 1L, Long::sum);
            }
        }
        active = next;
        return new Step(Set.copyOf(next), replicate, planMigration, rdev, overloadedFraction);
    }

    /** The phases active after the last epoch. */
    public Set<Phase> active() {
        return Set.copyOf(active);
    }

    /** How often {@code phase} was entered (the analogue of MBal's Fig 13 trigger breakdown). */
    public long triggerCount(Phase phase) {
        return triggers.getOrDefault(phase, 0L);
    }
}
