package io.locus.cassandra.balance;

import io.locus.cassandra.drop.TokenLayout;
import io.locus.cassandra.drop.TokenMath;

/**
 * Chooses ring boundaries that cut as shallow a subtree as possible (DESIGN.md, "HDLB": SPLIT and boundary snapping).
 *
 * <p>Among all cuts whose left side holds between {@code target - tolerance} and {@code target + tolerance} keys, it
 * picks the one with the smallest {@link TokenLayout#lcpLevels}, then the one closest to {@code target}. Pure and
 * thread-safe.
 */
public final class BoundarySnapper {
    private BoundarySnapper() {}

    /** A chosen cut: samples {@code 0..index} go left; {@code token} is the new range end. */
    public record Cut(int index, byte[] token, int lcpLevels, long leftWeight) {}

    /**
     * The best cut of {@code histogram} near {@code targetLeftWeight}.
     *
     * @return null if the histogram has no two distinct samples to cut between
     */
    public static Cut snap(KeyRangeHistogram histogram, long targetLeftWeight, long tolerance) {
        int n = histogram.size();
        Cut best = null;
        long bestDistance = Long.MAX_VALUE;
        Cut nearest = null;
        long nearestDistance = Long.MAX_VALUE;
        for (int i = 0; i + 1 < n; i++) {
            long left = histogram.cumulativeWeight(i);
            long distance = Math.abs(left - targetLeftWeight);
            byte[] a = histogram.token(i);
            byte[] b = histogram.token(i + 1);
            if (TokenMath.compare(a, b) == 0) {
                continue;
            }
            if (distance < nearestDistance) {
                nearestDistance = distance;
                nearest = new Cut(i, null, TokenLayout.lcpLevels(a, b), left);
            }
            if (distance > tolerance) {
                if (left > targetLeftWeight) {
                    break;
                }
                continue;
            }
            int lcp = TokenLayout.lcpLevels(a, b);
            if (best == null || lcp < best.lcpLevels() || (lcp == best.lcpLevels() && distance < bestDistance)) {
                best = new Cut(i, null, lcp, left);
                bestDistance = distance;
            }
        }
        Cut chosen = best != null ? best : nearest;
        if (chosen == null) {
            return null;
        }
        byte[] token = shallowBoundary(histogram.token(chosen.index()), histogram.token(chosen.index() + 1));
        return new Cut(chosen.index(), token, chosen.lcpLevels(), chosen.leftWeight());
    }

    /**
     * The largest token below the whole field-prefix subtree that {@code b} starts, given {@code a < b}: keys that
     * later appear in the same subtree as {@code b} stay on {@code b}'s side. Fields are the 20 level codes, the
     * overflow and the name; the result {@code t} satisfies {@code a <= t < b}.
     */
    public static byte[] shallowBoundary(byte[] a, byte[] b) {
        int offset = 0;
        while (offset < TokenLayout.TOKEN_BYTES) {
            int width = offset < TokenLayout.OVERFLOW_OFFSET ? 2 : 4;
            boolean equal = true;
            for (int i = offset; i < offset + width; i++) {
                if (a[i] != b[i]) {
                    equal = false;
                    break;
                }
            }
            if (!equal) {
                break;
            }
            offset += width;
        }
        if (offset >= TokenLayout.TOKEN_BYTES) {
            return a.clone();
        }
        int width = offset < TokenLayout.OVERFLOW_OFFSET ? 2 : 4;
        byte[] t = b.clone();
        for (int i = offset + width; i < t.length; i++) {
            t[i] = 0;
        }
        return TokenMath.decrement(t);
    }
}
