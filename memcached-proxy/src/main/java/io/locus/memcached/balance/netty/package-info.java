/**
 * MBal in the proxy (design note {@code memcached-proxy/BALANCE.md}): the Netty side of
 * {@link io.locus.memcached.balance}, which stays free of host types.
 *
 * <p>Doors: {@link io.locus.memcached.balance.netty.BalancingServices#create}, the state all I/O threads share and
 * the replication thread, which carries out Phase 1 ({@code ShadowReplicator}: versioned writes to shadows) and
 * Phase 3 ({@code BucketMover}: copying a moved bucket's keys) over its own ordered connections
 * ({@code ReplicationLink}), and replication for availability ({@code AvailabilityReplication}); and
 * {@link io.locus.memcached.balance.netty.BalancingHandler}, one per I/O thread, which only routes: it counts each
 * request in the {@link io.locus.memcached.balance.Balancer}, sends reads of replicated keys to a shadow
 * ({@code ShadowReads}), keys of moved buckets to their owner ({@code MovedBucketRouter}), and hands writes of
 * replicated keys to the replication thread.
 *
 * <p>Uses {@code backend}, {@code stats} and {@code balance}; not the deadline path.
 */
package io.locus.memcached.balance.netty;
