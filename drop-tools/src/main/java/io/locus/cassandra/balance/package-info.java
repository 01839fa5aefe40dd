/**
 * Where DROP's tokens should be (Arumugam, <i>Performance Enhancements in Large Scale Storage Systems</i>, §6.4 and
 * §6.6): the initial token planner per data center, key-range density histograms, the HDLB balancer (shed selection,
 * multi-stage knapsack, split snapped to a subtree boundary), the neighbour adjustment that {@code rebalance
 * --execute} runs on one-token rings, and the locality and balance metrics with the baselines they are compared to.
 *
 * <p>Pure: no Cassandra or driver types, so it is unit-tested and benchmarked without a node. It runs in the operator's
 * tools only; a node never loads it.
 */
package io.locus.cassandra.balance;
