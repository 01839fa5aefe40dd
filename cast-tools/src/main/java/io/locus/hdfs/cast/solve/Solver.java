package io.locus.hdfs.cast.solve;

/** A tiering solver; every one answers the same {@link Problem}. */
public interface Solver {
    /** Its name on the command line. */
    String name();

    Assignment solve(Problem problem, SolveOptions options);
}
