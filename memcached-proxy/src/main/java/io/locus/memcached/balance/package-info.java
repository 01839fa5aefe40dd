/**
 * The load balancer: MBal's hot-key replication and cachelet migration, adapted to a proxy in front of unmodified
 * memcached servers (MBal §3; design note {@code memcached-proxy/BALANCE.md}).
 *
 * <p>Entry point: {@link io.locus.memcached.balance.Balancer}, configured by
 * {@link io.locus.memcached.balance.BalanceConfig}. The proxy reports each request ({@code onRead}, {@code onWrite})
 * and gets its targets; once per epoch {@code tick()} returns the work to do. The parts, each usable alone:
 * <ul>
 *   <li>statistics: {@link io.locus.memcached.balance.LoadMonitor} (exact per-backend and per-bucket rates),
 *       {@link io.locus.memcached.balance.HotKeyTracker} (sampled Space-Saving hotness),
 *       {@link io.locus.memcached.balance.HotspotDetector}, {@link io.locus.memcached.balance.Imbalance};</li>
 *   <li>decisions: {@link io.locus.memcached.balance.PhaseStateMachine} over
 *       {@link io.locus.memcached.balance.Phase}, {@link io.locus.memcached.balance.CostBenefitAnalyzer};</li>
 *   <li>Phase 1: {@link io.locus.memcached.balance.ReplicationPlanner} and the per-request
 *       {@link io.locus.memcached.balance.ReplicaDirectory} (with its read-your-writes rule);</li>
 *   <li>Phase 3: {@link io.locus.memcached.balance.VirtualBucketTable} (the ketama ring cut into buckets),
 *       {@link io.locus.memcached.balance.MigrationPlanner}, {@link io.locus.memcached.balance.BucketMigration};</li>
 *   <li>availability: {@link io.locus.memcached.balance.AvailabilityPlacement}.</li>
 * </ul>
 * Phase 2 is absent on purpose; {@link io.locus.memcached.balance.Phase} says why.
 *
 * <p>No host types: no Netty, no protocol or proxy classes; time comes from an injected {@code LongSupplier} of
 * nanoseconds and randomness from an injected {@code RandomGenerator}. {@code BalanceHasNoHostTypesTest} fails if
 * that changes.
 */
package io.locus.memcached.balance;
