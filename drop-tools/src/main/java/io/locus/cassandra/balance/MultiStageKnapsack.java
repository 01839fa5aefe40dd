package io.locus.cassandra.balance;

import java.util.ArrayList;
import java.util.List;

/**
 * Multi-stage 0/1 knapsack placement (decision 3 of DESIGN.md, "HDLB"): receivers are taken in descending remaining
 * capacity; each solves a 0/1 knapsack (value = weight) over the still-unplaced items by dynamic programming, and its
 * choice is removed.
 *
 * <p>This minimises the slack of each receiver in turn, which is the thesis's objective (6.1a) read as "minimise
 * total unused capacity". Weights are quantised (rounded up) so the DP table has at most {@code units} columns: a
 * placement never exceeds a capacity. Time O(receivers x items x units).
 */
public final class MultiStageKnapsack {
    private MultiStageKnapsack() {}

    /**
     * @param weights item weights (>= 0)
     * @param capacities receiver capacities (>= 0)
     * @param units maximum DP resolution
     * @return for each item the receiver index, or -1 if it fits nowhere
     */
    public static int[] place(long[] weights, long[] capacities, int units) {
        int[] assignment = new int[weights.length];
        java.util.Arrays.fill(assignment, -1);
        Integer[] order = new Integer[capacities.length];
        for (int i = 0; i < order.length; i++) {
            order[i] = i;
        }
        java.util.Arrays.sort(order, (x, y) -> Long.compare(capacities[y], capacities[x]));
        for (int receiver : order) {
            List<Integer> open = new ArrayList<>();
            for (int i = 0; i < weights.length; i++) {
                if (assignment[i] < 0 && weights[i] <= capacities[receiver]) {
                    open.add(i);
                }
            }
            for (int item : solve(weights, open, capacities[receiver], units)) {
                assignment[item] = receiver;
            }
        }
        return assignment;
    }

    /** The subset of {@code items} with the largest total weight not above {@code capacity}. */
    static List<Integer> solve(long[] weights, List<Integer> items, long capacity, int units) {
        List<Integer> chosen = new ArrayList<>();
        if (items.isEmpty() || capacity <= 0) {
            return chosen;
        }
        long scale = Math.max(1, (capacity + units - 1) / units);
        int cap = (int) (capacity / scale);
        int n = items.size();
        int[] w = new int[n];
        for (int i = 0; i < n; i++) {
            w[i] = (int) Math.min(Integer.MAX_VALUE, (weights[items.get(i)] + scale - 1) / scale);
        }
        long[] best = new long[cap + 1];
        boolean[][] take = new boolean[n][cap + 1];
        for (int i = 0; i < n; i++) {
            long value = weights[items.get(i)];
            for (int c = cap; c >= w[i]; c--) {
                long candidate = best[c - w[i]] + value;
                if (candidate > best[c]) {
                    best[c] = candidate;
                    take[i][c] = true;
                }
            }
        }
        int c = cap;
        for (int i = n - 1; i >= 0; i--) {
            if (take[i][c]) {
                chosen.add(items.get(i));
                c -= w[i];
            }
        }
        return chosen;
    }
}
