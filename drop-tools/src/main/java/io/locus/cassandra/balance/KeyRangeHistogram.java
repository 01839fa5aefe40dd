package io.locus.cassandra.balance;

import io.locus.cassandra.drop.TokenMath;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

/**
 * Key-range density histogram of one vnode (thesis §6.4.1, "range density of the keys"): sorted sample tokens, each
 * standing for a number of keys.
 *
 * <p>Immutable and thread-safe. {@link #weight()} is the estimated key count of the range; splitting conserves it
 * ({@code left.weight() + right.weight() == weight()}).
 */
public final class KeyRangeHistogram {
    private final byte[][] tokens;
    private final long[] cumulative; // cumulative[i] = keys represented by samples 0..i

    private KeyRangeHistogram(byte[][] tokens, long[] cumulative) {
        this.tokens = tokens;
        this.cumulative = cumulative;
    }

    /**
     * A histogram over {@code sortedTokens} where every sample stands for {@code keysPerSample} keys.
     *
     * @throws IllegalArgumentException if the tokens are not in non-decreasing token order or keysPerSample &lt; 1
     */
    public static KeyRangeHistogram ofSorted(List<byte[]> sortedTokens, long keysPerSample) {
        if (keysPerSample < 1) {
            throw new IllegalArgumentException("keysPerSample " + keysPerSample + " (expected: >= 1)");
        }
        byte[][] t = sortedTokens.toArray(new byte[0][]);
        long[] c = new long[t.length];
        for (int i = 0; i < t.length; i++) {
            if (i > 0 && TokenMath.compare(t[i - 1], t[i]) > 0) {
                throw new IllegalArgumentException("sample " + i + " is smaller than sample " + (i - 1)
                        + " (expected: tokens in non-decreasing order)");
            }
            c[i] = (i == 0 ? 0 : c[i - 1]) + keysPerSample;
        }
        return new KeyRangeHistogram(t, c);
    }

    /** Estimated number of keys in the range. */
    public long weight() {
        return cumulative.length == 0 ? 0 : cumulative[cumulative.length - 1];
    }

    /** Number of samples. */
    public int size() {
        return tokens.length;
    }

    /** Sample {@code i} in token order (a copy is not made: do not modify). */
    public byte[] token(int i) {
        return tokens[i];
    }

    /** Keys represented by samples {@code 0..i}. */
    public long cumulativeWeight(int i) {
        return cumulative[i];
    }

    /** The equi-depth summary published in a histogram exchange: up to {@code buckets} upper-bound tokens. */
    public List<byte[]> equiDepthBounds(int buckets) {
        List<byte[]> bounds = new ArrayList<>();
        if (tokens.length == 0) {
            return bounds;
        }
        for (int b = 1; b <= buckets; b++) {
            int idx = (int) Math.min(tokens.length - 1, (long) b * tokens.length / buckets - 1);
            if (idx >= 0 && (bounds.isEmpty() || TokenMath.compare(bounds.get(bounds.size() - 1), tokens[idx]) < 0)) {
                bounds.add(tokens[idx]);
            }
        }
        return bounds;
    }

    /** Samples {@code [from, to)} as a new histogram (weights kept). */
    public KeyRangeHistogram slice(int from, int to) {
        byte[][] t = Arrays.copyOfRange(tokens, from, to);
        long base = from == 0 ? 0 : cumulative[from - 1];
        long[] c = new long[to - from];
        for (int i = from; i < to; i++) {
            c[i - from] = cumulative[i] - base;
        }
        return new KeyRangeHistogram(t, c);
    }
}
