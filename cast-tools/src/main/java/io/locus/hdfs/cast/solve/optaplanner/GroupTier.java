package io.locus.hdfs.cast.solve.optaplanner;

import org.optaplanner.core.api.domain.entity.PlanningEntity;
import org.optaplanner.core.api.domain.variable.PlanningVariable;

/** Planning entity: the tier of one placement group (a job, or all jobs reading one shared dataset). */
@PlanningEntity
public class GroupTier {
    private int group;

    @PlanningVariable(valueRangeProviderRefs = "tiers")
    private Integer tier;

    public GroupTier() {}

    GroupTier(int group, int tier) {
        this.group = group;
        this.tier = tier;
    }

    public int getGroup() {
        return group;
    }

    public Integer getTier() {
        return tier;
    }

    public void setTier(Integer tier) {
        this.tier = tier;
    }
}
