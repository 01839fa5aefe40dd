/**
 * The pure core of DROP (drop-virtcache.md Part A): the mode-H path encoder ({@link io.locus.cassandra.drop.PathEncoder}
 * over the layout of {@link io.locus.cassandra.drop.TokenLayout}), 384-bit token arithmetic
 * ({@link io.locus.cassandra.drop.TokenMath}), key-range density histograms, the HDLB balancer
 * ({@link io.locus.cassandra.drop.HdlbBalancer}), the initial token planner and the A.6.2 metrics.
 *
 * <p>No host types: nothing here imports {@code org.apache.cassandra} (a unit test enforces it), so the same code runs
 * inside a Cassandra node, in the DataStax driver helper and in the {@code locus-drop} CLI.
 */
package io.locus.cassandra.drop;
