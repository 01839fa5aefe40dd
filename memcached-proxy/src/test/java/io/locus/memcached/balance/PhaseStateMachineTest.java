package io.locus.memcached.balance;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.locus.memcached.balance.PhaseStateMachine.Observation;
import io.locus.memcached.balance.PhaseStateMachine.Step;
import java.util.Set;
import org.junit.jupiter.api.Test;

class PhaseStateMachineTest {
    private static final double[] CAPS = {100, 100, 100, 100};
    // rdev of {150, 50, 50, 50} = mean 75, dev (75 + 25·3)/4 = 37.5, rdev 0.5 > 0.20; one above T, three below mean.
    private static final double[] IMBALANCED = {150, 50, 50, 50};
    private static final double[] BALANCED = {60, 60, 60, 60};
    private static final double[] ALL_HOT = {150, 150, 150, 150};

    private static Observation obs(
            double[] loads, boolean hot, boolean leased, boolean p1Insufficient, boolean migrating) {
        return new Observation(loads, CAPS, hot, leased, p1Insufficient, migrating, false);
    }

    @Test
    void normal_untilAHotKeyPersists_thenKeyReplication_thenBackToNormal() {
        PhaseStateMachine m = new PhaseStateMachine(BalanceConfig.defaults());
        assertEquals(
                Set.of(Phase.NORMAL),
                m.onEpoch(obs(BALANCED, false, false, false, false)).active());
        Step s = m.onEpoch(obs(BALANCED, true, false, false, false));
        assertEquals(Set.of(Phase.KEY_REPLICATION), s.active());
        assertTrue(s.replicate());
        // Leases outstanding keep Phase 1 active (to renew or let them expire).
        assertEquals(
                Set.of(Phase.KEY_REPLICATION),
                m.onEpoch(obs(BALANCED, false, true, false, false)).active());
        assertEquals(
                Set.of(Phase.NORMAL),
                m.onEpoch(obs(BALANCED, false, false, false, false)).active());
        assertEquals(1, m.triggerCount(Phase.KEY_REPLICATION));
    }

    @Test
    void migration_needsFourImbalancedEpochs_andInsufficientReplication() {
        PhaseStateMachine m = new PhaseStateMachine(BalanceConfig.defaults());
        for (int e = 1; e <= 3; e++) {
            assertFalse(m.onEpoch(obs(IMBALANCED, false, false, true, false)).planMigration(), "epoch " + e);
        }
        Step s = m.onEpoch(obs(IMBALANCED, false, false, true, false));
        assertTrue(s.planMigration());
        assertEquals(0.5, s.rdev(), 1e-12);
        assertEquals(Set.of(Phase.COORDINATED_MIGRATION), s.active());
        // While migrations run, no second wave is planned, and the phase stays active.
        Step running = m.onEpoch(obs(IMBALANCED, false, false, true, true));
        assertFalse(running.planMigration());
        assertEquals(Set.of(Phase.COORDINATED_MIGRATION), running.active());
    }

    @Test
    void migration_notPlanned_whenReplicationSuffices_orImbalanceBreaks() {
        PhaseStateMachine m = new PhaseStateMachine(BalanceConfig.defaults());
        for (int e = 1; e <= 6; e++) {
            assertFalse(m.onEpoch(obs(IMBALANCED, true, false, false, false)).planMigration());
        }
        PhaseStateMachine n = new PhaseStateMachine(BalanceConfig.defaults());
        for (int e = 1; e <= 3; e++) {
            n.onEpoch(obs(IMBALANCED, false, false, true, false));
        }
        n.onEpoch(obs(BALANCED, false, false, true, false)); // streak resets
        for (int e = 1; e <= 3; e++) {
            assertFalse(n.onEpoch(obs(IMBALANCED, false, false, true, false)).planMigration(), "epoch " + e);
        }
        assertTrue(n.onEpoch(obs(IMBALANCED, false, false, true, false)).planMigration());
    }

    @Test
    void allHot_forFourEpochs_advisesScaleOut_andNeverMigrates() {
        PhaseStateMachine m = new PhaseStateMachine(BalanceConfig.defaults());
        Step s = null;
        for (int e = 1; e <= 4; e++) {
            s = m.onEpoch(obs(ALL_HOT, false, false, true, false));
            assertFalse(s.planMigration());
        }
        assertEquals(Set.of(Phase.SCALE_OUT_ADVISED), s.active());
        assertEquals(1.0, s.overloadedFraction());
        assertEquals(
                Set.of(Phase.SCALE_OUT_ADVISED),
                m.onEpoch(new Observation(BALANCED, CAPS, false, false, false, false, true))
                        .active());
    }

    @Test
    void disabledPhases_areNeverEntered() {
        PhaseStateMachine m =
                new PhaseStateMachine(BalanceConfig.defaults().withOverrides(java.util.Map.of("lb.phases", "none")));
        for (int e = 1; e <= 6; e++) {
            Step s = m.onEpoch(obs(IMBALANCED, true, true, true, false));
            assertFalse(s.replicate() || s.planMigration());
            assertEquals(Set.of(Phase.NORMAL), s.active());
        }
    }

    @Test
    void mismatchedArrays_areRejected() {
        PhaseStateMachine m = new PhaseStateMachine(BalanceConfig.defaults());
        assertEquals(
                "loads for 2 backends, capacities for 4 (expected: the same number, >= 1)",
                assertThrows(
                                IllegalArgumentException.class,
                                () -> m.onEpoch(
                                        new Observation(new double[2], CAPS, false, false, false, false, false)))
                        .getMessage());
    }
}
