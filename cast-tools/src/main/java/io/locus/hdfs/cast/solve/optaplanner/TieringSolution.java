package io.locus.hdfs.cast.solve.optaplanner;

import io.locus.hdfs.cast.solve.Problem;
import java.util.List;
import org.optaplanner.core.api.domain.solution.PlanningEntityCollectionProperty;
import org.optaplanner.core.api.domain.solution.PlanningScore;
import org.optaplanner.core.api.domain.solution.PlanningSolution;
import org.optaplanner.core.api.domain.solution.ProblemFactCollectionProperty;
import org.optaplanner.core.api.domain.valuerange.ValueRangeProvider;
import org.optaplanner.core.api.score.buildin.hardsoftlong.HardSoftLongScore;

/** The planning solution: one {@link GroupTier} per placement group and one {@link TierLevel} per tier. */
@PlanningSolution
public class TieringSolution {
    @ProblemFactCollectionProperty
    @ValueRangeProvider(id = "tiers")
    private List<Integer> tierRange;

    @PlanningEntityCollectionProperty
    private List<GroupTier> groups;

    @PlanningEntityCollectionProperty
    private List<TierLevel> tierLevels;

    @PlanningScore
    private HardSoftLongScore score;

    /** What the score calculator evaluates (shared by every clone; never changed by the solver). */
    private ScoringContext context;

    public TieringSolution() {}

    TieringSolution(
            List<Integer> tierRange, List<GroupTier> groups, List<TierLevel> tierLevels, ScoringContext context) {
        this.tierRange = tierRange;
        this.groups = groups;
        this.tierLevels = tierLevels;
        this.context = context;
    }

    public List<Integer> getTierRange() {
        return tierRange;
    }

    public List<GroupTier> getGroups() {
        return groups;
    }

    public List<TierLevel> getTierLevels() {
        return tierLevels;
    }

    public HardSoftLongScore getScore() {
        return score;
    }

    public void setScore(HardSoftLongScore score) {
        this.score = score;
    }

    ScoringContext context() {
        return context;
    }

    /** The problem and the counter of scored placements, for the score calculator. */
    record ScoringContext(Problem problem, Runnable onScore) {}
}
