package io.locus.hdfs.cast.solve;

/**
 * What every solver searches: a tier for each placement group, and a capacity level for each tier.
 *
 * <p>A group is a job, or all jobs reading one shared dataset (CAST++ Eq. 4.7 holds by construction). A level is
 * an index into {@link #levels(int)}, per-VM capacities (GB) the tier may be provisioned with above the exact fit.
 */
public interface Problem {
    int groups();

    int tiers();

    /** Per-VM capacity floors (GB) of tier {@code tier}; index 0 is 0, the exact fit. */
    double[] levels(int tier);

    /** Scores a placement; a group on tier -1 is left out (how greedy sees the groups it has not placed yet). */
    Score score(int[] tierOfGroup, int[] levelOfTier);

    /** Plans worth starting a search from besides greedy and the single-tier plans (see {@link InitialPlans}). */
    default java.util.List<Assignment> hints() {
        return java.util.List.of();
    }

    /** A short description for progress output. */
    String describe();
}
