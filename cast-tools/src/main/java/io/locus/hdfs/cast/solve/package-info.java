/**
 * Tiering solvers behind one interface ({@link io.locus.hdfs.cast.solve.Solver}, chosen by name in {@link
 * io.locus.hdfs.cast.solve.Solvers}): greedy (Algorithm 3) and its two baselines, the reference simulated annealing
 * (Algorithm 4) and OptaPlanner; the problems they solve (utility, deadline-cost) in plain Java.
 */
package io.locus.hdfs.cast.solve;
