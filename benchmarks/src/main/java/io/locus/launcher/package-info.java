/**
 * The launcher behind {@code ./locus demo} and {@code ./locus bench}: the areas, the demo's steps, the child JVMs they
 * run in and the class paths the build wrote for them, and the bench result files ({@code target/bench/}, kept copies
 * in {@code benchmarks/results/} with {@code --save}).
 */
package io.locus.launcher;
