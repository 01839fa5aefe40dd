package io.locus.hdfs.cast.solve;

import java.util.Arrays;

/** A solver's answer: the tier of each group and the capacity level of each tier. */
public record Assignment(int[] tierOfGroup, int[] levelOfTier) {
    public Assignment {
        tierOfGroup = tierOfGroup.clone();
        levelOfTier = levelOfTier.clone();
    }

    /** Every group on {@code tier}, at level {@code level}, other tiers at the exact fit. */
    public static Assignment allOn(Problem p, int tier, int level) {
        int[] g = new int[p.groups()];
        Arrays.fill(g, tier);
        int[] l = new int[p.tiers()];
        l[tier] = level;
        return new Assignment(g, l);
    }

    public Score score(Problem p) {
        return p.score(tierOfGroup, levelOfTier);
    }

    @Override
    public boolean equals(Object o) {
        return o instanceof Assignment a
                && Arrays.equals(a.tierOfGroup, tierOfGroup)
                && Arrays.equals(a.levelOfTier, levelOfTier);
    }

    @Override
    public int hashCode() {
        return 31 * Arrays.hashCode(tierOfGroup) + Arrays.hashCode(levelOfTier);
    }
}
