/**
 * The pure core of DROP (Arumugam, <i>Performance Enhancements in Large Scale Storage Systems</i>, ch. 6;
 * design: {@code cassandra-partitioner/DESIGN.md}): the mode-H path encoder ({@link
 * io.locus.cassandra.drop.PathEncoder} over the layout of {@link io.locus.cassandra.drop.TokenLayout}), 384-bit token
 * arithmetic ({@link io.locus.cassandra.drop.TokenMath}), key-range density histograms, the HDLB balancer ({@link
 * io.locus.cassandra.drop.HdlbBalancer}), the initial token planner and the locality and balance metrics of the
 * thesis's §6.6.
 *
 * <p>No host types: nothing here imports {@code org.apache.cassandra} (a unit test enforces it), so the same code runs
 * inside a Cassandra node, in the DataStax driver helper and in the {@code locus-drop} CLI.
 */
package io.locus.cassandra.drop;
