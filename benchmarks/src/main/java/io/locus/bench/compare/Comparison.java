package io.locus.bench.compare;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * Two JMH runs set side by side: for each benchmark and parameter set in both, how much slower the new run is.
 *
 * <p>The slowdown is {@code new time per operation / old time per operation}, whatever the mode and unit (a
 * throughput score is turned into time per operation first), so above 1 always means slower. Its error is the two
 * scores' relative errors added in quadrature (first-order propagation for a quotient), with each score's error the
 * half-width of JMH's 99.9% confidence interval. A benchmark is a regression when even the low end of its slowdown,
 * {@code slowdown - error}, is above {@code 1 + threshold}: slower by more than the threshold beyond the error.
 *
 * @param rows the benchmarks in both runs, in the old run's order
 * @param onlyOld keys of benchmarks only the old run has
 * @param onlyNew keys of benchmarks only the new run has
 * @param threshold the allowed slowdown as a fraction (0.10 = 10%)
 */
public record Comparison(List<Row> rows, List<String> onlyOld, List<String> onlyNew, double threshold) {

    /** What a row says. */
    public enum Verdict {
        /** Slower by more than the threshold beyond the error. */
        SLOWER,
        /** Faster by more than the threshold beyond the error. */
        FASTER,
        /** Neither: the change is within the threshold or within the error. */
        SAME,
        /** Units that cannot be converted into each other: not compared. */
        INCOMPARABLE
    }

    /**
     * One benchmark in both runs.
     *
     * @param slowdown new time per operation / old time per operation (NaN when incomparable)
     * @param error the slowdown's error, in the same units as the slowdown (0 when JMH estimated no error)
     * @param errorKnown false if either run has no error estimate (a single measurement)
     */
    public record Row(
            JmhResult old, JmhResult neu, double slowdown, double error, boolean errorKnown, Verdict verdict) {}

    /**
     * Compares two runs.
     *
     * @param threshold allowed slowdown as a fraction, >= 0
     * @throws IllegalArgumentException if {@code threshold} is negative or not finite
     */
    public static Comparison of(Map<String, JmhResult> old, Map<String, JmhResult> neu, double threshold) {
        if (!(threshold >= 0) || Double.isInfinite(threshold)) {
            throw new IllegalArgumentException("threshold " + threshold + " (expected: a finite fraction >= 0)");
        }
        List<Row> rows = new ArrayList<>();
        List<String> onlyOld = new ArrayList<>();
        for (Map.Entry<String, JmhResult> e : old.entrySet()) {
            JmhResult n = neu.get(e.getKey());
            if (n == null) {
                onlyOld.add(e.getKey());
            } else {
                rows.add(row(e.getValue(), n, threshold));
            }
        }
        List<String> onlyNew = new ArrayList<>();
        for (String key : neu.keySet()) {
            if (!old.containsKey(key)) {
                onlyNew.add(key);
            }
        }
        return new Comparison(List.copyOf(rows), List.copyOf(onlyOld), List.copyOf(onlyNew), threshold);
    }

    static Row row(JmhResult old, JmhResult neu, double threshold) {
        double slowdown;
        if (old.unit().equals(neu.unit())) {
            // Same unit: no conversion needed, so units JMH does not name (a custom metric) still compare.
            slowdown = old.higherIsBetter() ? old.score() / neu.score() : neu.score() / old.score();
        } else {
            slowdown = neu.secondsPerOp() / old.secondsPerOp();
        }
        if (Double.isNaN(slowdown)) {
            return new Row(old, neu, Double.NaN, Double.NaN, false, Verdict.INCOMPARABLE);
        }
        boolean errorKnown = !Double.isNaN(old.error()) && !Double.isNaN(neu.error());
        double relOld = Double.isNaN(old.error()) ? 0 : old.error() / old.score();
        double relNew = Double.isNaN(neu.error()) ? 0 : neu.error() / neu.score();
        double error = slowdown * Math.sqrt(relOld * relOld + relNew * relNew);
        Verdict verdict;
        if (slowdown - error > 1 + threshold) {
            verdict = Verdict.SLOWER;
        } else if (slowdown + error < 1 / (1 + threshold)) {
            verdict = Verdict.FASTER;
        } else {
            verdict = Verdict.SAME;
        }
        return new Row(old, neu, slowdown, error, errorKnown, verdict);
    }

    /** The rows that are regressions. */
    public List<Row> slower() {
        return rows.stream().filter(r -> r.verdict() == Verdict.SLOWER).toList();
    }
}
