/**
 * DROP's token scheme (Arumugam, <i>Performance Enhancements in Large Scale Storage Systems</i>, ch. 6; design:
 * {@code cassandra-partitioner/DESIGN.md}): the mode-H path encoder ({@link io.locus.cassandra.drop.PathEncoder} over
 * the layout of {@link io.locus.cassandra.drop.TokenLayout}), 384-bit token arithmetic ({@link
 * io.locus.cassandra.drop.TokenMath}), rings, the reserved region for keys that are not paths, and the token intervals
 * of a directory.
 *
 * <p>This is what a Cassandra node loads, so it is Java 11 bytecode and has no dependency. No host types either:
 * nothing here imports {@code org.apache.cassandra} (a unit test enforces it), so the same code runs inside a node, in
 * the DataStax driver helper and in the {@code locus-drop} tools.
 */
package io.locus.cassandra.drop;
