/**
 * JMH benchmarks of CAST/CAST++ ({@code hdfs-tiering-policy}): the solvers' score evaluation and the runtime/cost
 * model, on the pure {@code io.locus.hdfs.cast.model} and {@code io.locus.hdfs.cast.solve} classes (no Hadoop).
 */
package io.locus.bench.cast;
