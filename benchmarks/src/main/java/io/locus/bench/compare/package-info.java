/**
 * {@code ./locus bench compare}: JMH regression checks. {@link io.locus.bench.compare.JmhResults} reads the JSON JMH
 * writes with {@code -rf json}, {@link io.locus.bench.compare.Comparison} sets two runs side by side and
 * {@link io.locus.bench.compare.CompareCommand} prints the table and exits 1 on a slowdown beyond the threshold and
 * the error.
 */
package io.locus.bench.compare;
