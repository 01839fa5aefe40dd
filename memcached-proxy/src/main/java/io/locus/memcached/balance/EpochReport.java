package io.locus.memcached.balance;

import io.locus.memcached.balance.HotspotDetector.Hotspot;
import io.locus.memcached.balance.LoadMonitor.BackendLoad;
import java.util.List;

/**
 * The outcome of one epoch ({@link Balancer#tick()}).
 *
 * @param epoch epoch number, from 1
 * @param loads backend loads of the epoch
 * @param maxOverMean max load over mean load
 * @param step the state machine's step
 * @param hotspots this epoch's hot keys
 * @param replication Phase 1 work (empty plan if Phase 1 did not run)
 * @param migration Phase 3 plan, or null if Phase 3 did not plan this epoch
 * @param sampleRate the key sampling rate in force for the next epoch
 */
public record EpochReport<K>(
        long epoch,
        List<BackendLoad> loads,
        double maxOverMean,
        PhaseStateMachine.Step step,
        List<Hotspot<K>> hotspots,
        ReplicationPlanner.Plan<K> replication,
        MigrationPlanner.Plan migration,
        double sampleRate) {}
