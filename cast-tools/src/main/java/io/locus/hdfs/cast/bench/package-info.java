/** Benchmarks run by {@code ./locus bench cast} (never by the tests). */
package io.locus.hdfs.cast.bench;
