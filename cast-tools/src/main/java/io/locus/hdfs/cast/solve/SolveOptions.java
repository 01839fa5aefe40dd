package io.locus.hdfs.cast.solve;

import java.time.Duration;

/**
 * How long and how a search runs.
 *
 * @param seed random seed (equal seeds give equal plans)
 * @param evaluations placements scored before stopping (iter_max of Algorithm 4)
 * @param timeLimit wall-clock limit on top of that, or null
 * @param progress told how far the search is
 */
public record SolveOptions(long seed, long evaluations, Duration timeLimit, ProgressListener progress) {
    public static final long DEFAULT_EVALUATIONS = 20_000;

    public static SolveOptions seeded(long seed) {
        return new SolveOptions(seed, DEFAULT_EVALUATIONS, null, ProgressListener.NONE);
    }

    public SolveOptions withEvaluations(long n) {
        return new SolveOptions(seed, n, timeLimit, progress);
    }

    public SolveOptions withProgress(ProgressListener p) {
        return new SolveOptions(seed, evaluations, timeLimit, p);
    }

    public SolveOptions withTimeLimit(Duration d) {
        return new SolveOptions(seed, evaluations, d, progress);
    }

    /** Progress of a search: {@code done} of {@code total} steps, with the best score so far. */
    public interface ProgressListener {
        ProgressListener NONE = (done, total, best) -> {};

        void update(long done, long total, Score best);
    }
}
