package io.locus.cassandra.drop;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;

/**
 * A token ring: sorted node tokens and their owners. The range {@code (previous, t]} belongs to the owner of token
 * {@code t}; keys above the largest token wrap to the owner of the smallest. Immutable and thread-safe.
 */
public final class Ring {
    private final byte[][] tokens;
    private final int[] owners;

    /** A ring from (token, owner) pairs in any order; tokens must be distinct. */
    public Ring(List<byte[]> tokens, List<Integer> owners) {
        if (tokens.isEmpty() || tokens.size() != owners.size()) {
            throw new IllegalArgumentException("ring of " + tokens.size() + " tokens and " + owners.size()
                    + " owners (expected: the same non-zero count)");
        }
        List<Integer> idx = new ArrayList<>();
        for (int i = 0; i < tokens.size(); i++) {
            idx.add(i);
        }
        idx.sort(Comparator.comparing(tokens::get, TokenMath::compare));
        this.tokens = new byte[tokens.size()][];
        this.owners = new int[tokens.size()];
        for (int i = 0; i < idx.size(); i++) {
            this.tokens[i] = tokens.get(idx.get(i));
            this.owners[i] = owners.get(idx.get(i));
            if (i > 0 && TokenMath.compare(this.tokens[i - 1], this.tokens[i]) == 0) {
                throw new IllegalArgumentException(
                        "duplicate ring token " + TokenMath.toHex(this.tokens[i]) + " (expected: distinct tokens)");
            }
        }
    }

    /** Index (in token order) of the range that holds {@code token}. */
    public int rangeOf(byte[] token) {
        int lo = 0;
        int hi = tokens.length - 1;
        if (TokenMath.compare(token, tokens[hi]) > 0) {
            return 0;
        }
        while (lo < hi) {
            int mid = (lo + hi) >>> 1;
            if (TokenMath.compare(tokens[mid], token) >= 0) {
                hi = mid;
            } else {
                lo = mid + 1;
            }
        }
        return lo;
    }

    /** The node that owns {@code token}. */
    public int ownerOf(byte[] token) {
        return owners[rangeOf(token)];
    }

    /** Number of ranges (= tokens). */
    public int size() {
        return tokens.length;
    }

    /** Token {@code i} in ring order. */
    public byte[] token(int i) {
        return tokens[i];
    }

    /** Owner of token {@code i} in ring order. */
    public int owner(int i) {
        return owners[i];
    }
}
