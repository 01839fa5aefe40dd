/**
 * The Cassandra adapter: {@link io.locus.cassandra.DropPartitioner}, the class named in cassandra.yaml's
 * {@code partitioner:}. It translates between Cassandra's {@code Token}/{@code ByteBuffer} types and the pure core in
 * {@link io.locus.cassandra.drop}, in one place.
 */
package io.locus.cassandra;
