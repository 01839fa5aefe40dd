/**
 * Moving an existing table onto a DROP cluster. Cassandra cannot change a cluster's partitioner, so a Murmur3 cluster's
 * data reaches DROP only by reading it out and writing it into a new cluster: {@link TableCopy} reads the source by
 * slices of the Murmur3 token ring ({@link Murmur3Splits}), writes each row into the target, records each finished
 * slice in a {@link CopyCheckpoint} so that an interrupted copy resumes where it stopped, and compares the two tables
 * by row count and an order-independent {@link RowDigest} at the end.
 */
package io.locus.cassandra.copy;
