package io.locus.hdfs.cast.solve;

/**
 * A placement's score: {@code hard} is minus how far it breaks hard limits (0 when feasible), {@code soft} the
 * objective (ln U for utility, −ln cost for deadline-cost). Higher is better, hard first.
 */
public record Score(double hard, double soft) implements Comparable<Score> {
    public static final Score WORST = new Score(Double.NEGATIVE_INFINITY, Double.NEGATIVE_INFINITY);

    @Override
    public int compareTo(Score o) {
        int h = Double.compare(hard, o.hard);
        return h != 0 ? h : Double.compare(soft, o.soft);
    }

    public boolean betterThan(Score o) {
        return compareTo(o) > 0;
    }

    public boolean feasible() {
        return hard >= -1e-9;
    }
}
