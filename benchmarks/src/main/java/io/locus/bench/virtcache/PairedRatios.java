package io.locus.bench.virtcache;

import java.util.Arrays;
import java.util.List;
import java.util.Random;

/**
 * The median of paired ratios (B over A, one per pair of rounds run back to back) with a percentile bootstrap
 * confidence interval, and whether a target "B at least {@code floor} times A" is met, not met, or undecided by the
 * data. Pairing cancels the machine's slow drifts of load, which fall on both members of a pair alike; the bootstrap
 * resamples the pairs with replacement and needs no assumption about how the ratios are distributed (Efron and
 * Tibshirani, "An Introduction to the Bootstrap", ch. 13). Pure: no clock, a seeded random source.
 *
 * @param median the median of the paired ratios
 * @param low the lower end of the confidence interval of the median
 * @param high the upper end
 * @param pairs how many pairs
 */
public record PairedRatios(double median, double low, double high, int pairs) {

    /** Resamples drawn for the interval. */
    public static final int RESAMPLES = 10_000;

    /** What the interval says about a target. */
    public enum Verdict {
        MET,
        NOT_MET,
        UNDECIDED
    }

    /**
     * The median of {@code ratios} and its {@code confidence} interval from {@link #RESAMPLES} bootstrap resamples
     * drawn with {@code seed}.
     *
     * @throws IllegalArgumentException if there are fewer than 2 ratios, a ratio is not finite and positive, or the
     *     confidence is not between 0 and 1
     */
    public static PairedRatios of(List<Double> ratios, double confidence, long seed) {
        if (ratios.size() < 2) {
            throw new IllegalArgumentException(ratios.size() + " paired ratios (expected: at least 2)");
        }
        if (!(confidence > 0 && confidence < 1)) {
            throw new IllegalArgumentException("confidence " + confidence + " (expected: between 0 and 1)");
        }
        double[] r = new double[ratios.size()];
        for (int i = 0; i < r.length; i++) {
            double v = ratios.get(i);
            if (!(v > 0) || Double.isInfinite(v)) {
                throw new IllegalArgumentException(
                        "paired ratio " + (i + 1) + " is " + v + " (expected: a finite value > 0)");
            }
            r[i] = v;
        }
        Random random = new Random(seed);
        double[] medians = new double[RESAMPLES];
        double[] sample = new double[r.length];
        for (int s = 0; s < RESAMPLES; s++) {
            for (int i = 0; i < r.length; i++) {
                sample[i] = r[random.nextInt(r.length)];
            }
            medians[s] = median(sample);
        }
        Arrays.sort(medians);
        double tail = (1 - confidence) / 2;
        return new PairedRatios(median(r.clone()), quantile(medians, tail), quantile(medians, 1 - tail), r.length);
    }

    /**
     * Against the target "B is at least {@code floor} times A": met when the whole interval is at or above the floor,
     * not met when it is below, undecided when it straddles the floor (the interval is wider than the data can settle).
     */
    public Verdict atLeast(double floor) {
        if (low >= floor) {
            return Verdict.MET;
        }
        return high < floor ? Verdict.NOT_MET : Verdict.UNDECIDED;
    }

    /** Against the target "B is at most {@code ceiling} times A", the mirror of {@link #atLeast}. */
    public Verdict atMost(double ceiling) {
        if (high <= ceiling) {
            return Verdict.MET;
        }
        return low > ceiling ? Verdict.NOT_MET : Verdict.UNDECIDED;
    }

    /** Sorts {@code values} in place and returns their median (the mean of the middle two for an even count). */
    static double median(double[] values) {
        Arrays.sort(values);
        int n = values.length;
        return n % 2 == 1 ? values[n / 2] : (values[n / 2 - 1] + values[n / 2]) / 2;
    }

    /** The {@code q} quantile of sorted {@code values}, by linear interpolation between the nearest ranks. */
    static double quantile(double[] sorted, double q) {
        double pos = q * (sorted.length - 1);
        int i = (int) Math.floor(pos);
        int j = Math.min(i + 1, sorted.length - 1);
        return sorted[i] + (pos - i) * (sorted[j] - sorted[i]);
    }
}
