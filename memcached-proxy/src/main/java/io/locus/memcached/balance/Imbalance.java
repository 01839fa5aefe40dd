package io.locus.memcached.balance;

/**
 * The imbalance measures of MBal (MBal §3.1): mean absolute deviation {@code dev}, the
 * relative deviation {@code rdev = dev / L_avg}, and max over mean (the figure the simulation reports).
 * All take loads in any one unit and are 0 for an empty or all-zero input (no load is balanced).
 */
public final class Imbalance {
    private Imbalance() {}

    /** Arithmetic mean; 0 for no values. */
    public static double mean(double[] loads) {
        if (loads.length == 0) {
            return 0;
        }
        double sum = 0;
        for (double l : loads) {
            sum += l;
        }
        return sum / loads.length;
    }

    /** Mean absolute deviation {@code (1/|S|) Σ |L_i - L_avg|} [MBal §3.3, objective (4)]. */
    public static double dev(double[] loads) {
        double avg = mean(loads);
        double sum = 0;
        for (double l : loads) {
            sum += Math.abs(l - avg);
        }
        return loads.length == 0 ? 0 : sum / loads.length;
    }

    /** {@code dev / L_avg}; 0 if the mean is 0. */
    public static double rdev(double[] loads) {
        double avg = mean(loads);
        return avg <= 0 ? 0 : dev(loads) / avg;
    }

    /** {@code max L_i / L_avg}; 1 means perfectly balanced, 0 if the mean is 0. */
    public static double maxOverMean(double[] loads) {
        double avg = mean(loads);
        if (avg <= 0) {
            return 0;
        }
        double max = Double.NEGATIVE_INFINITY;
        for (double l : loads) {
            max = Math.max(max, l);
        }
        return max / avg;
    }
}
