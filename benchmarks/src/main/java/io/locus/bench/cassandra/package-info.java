/** JMH benchmarks of the Cassandra partitioner: {@link io.locus.bench.cassandra.TokenBenchmark}. */
package io.locus.bench.cassandra;
