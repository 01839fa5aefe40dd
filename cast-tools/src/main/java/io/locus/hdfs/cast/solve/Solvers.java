package io.locus.hdfs.cast.solve;

import io.locus.hdfs.cast.solve.optaplanner.OptaPlannerSolver;
import java.util.List;

/** Every solver by its command-line name. */
public final class Solvers {
    private Solvers() {}

    public static final List<String> NAMES =
            List.of("optaplanner", "sa", "greedy", "greedy-exact-fit", "greedy-over-provisioned");

    public static Solver byName(String name) {
        return switch (name) {
            case "optaplanner" -> new OptaPlannerSolver();
            case "sa" -> new AnnealingSolver();
            case "greedy" -> new GreedySolver(GreedySolver.Variant.PER_JOB);
            case "greedy-exact-fit" -> new GreedySolver(GreedySolver.Variant.EXACT_FIT);
            case "greedy-over-provisioned" -> new GreedySolver(GreedySolver.Variant.OVER_PROVISIONED);
            default ->
                throw new IllegalArgumentException(
                        "unknown solver '" + name + "' (expected one of " + String.join(", ", NAMES) + ")");
        };
    }
}
