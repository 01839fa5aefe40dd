package io.locus.hdfs.cast.solve.optaplanner;

import java.util.List;
import org.optaplanner.core.api.domain.entity.PlanningEntity;
import org.optaplanner.core.api.domain.valuerange.ValueRangeProvider;
import org.optaplanner.core.api.domain.variable.PlanningVariable;

/** Planning entity: the capacity level of one tier (an index into its per-VM capacity floors). */
@PlanningEntity
public class TierLevel {
    private int tier;
    private List<Integer> levelRange;

    @PlanningVariable(valueRangeProviderRefs = "levels")
    private Integer level;

    public TierLevel() {}

    TierLevel(int tier, List<Integer> levelRange, int level) {
        this.tier = tier;
        this.levelRange = levelRange;
        this.level = level;
    }

    public int getTier() {
        return tier;
    }

    @ValueRangeProvider(id = "levels")
    public List<Integer> getLevelRange() {
        return levelRange;
    }

    public Integer getLevel() {
        return level;
    }

    public void setLevel(Integer level) {
        this.level = level;
    }
}
