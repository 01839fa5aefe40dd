/**
 * Benchmarks of CAST/CAST++ ({@code hdfs-tiering-policy}). JMH: the solvers' score evaluation and the runtime/cost
 * model, on the pure {@code io.locus.hdfs.cast.model} and {@code io.locus.hdfs.cast.solve} classes (no Hadoop).
 * {@code NameNodeBench}: NameNode create+addBlock with the default policy and with CastBlockPlacementPolicy on
 * MiniDFSClusters, the second half of {@code ./locus bench cast}; it runs in its own JVM on cast-tools' test class
 * path, since Hadoop is not on this module's.
 */
package io.locus.bench.cast;
