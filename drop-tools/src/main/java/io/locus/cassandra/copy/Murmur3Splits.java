package io.locus.cassandra.copy;

import java.math.BigInteger;
import java.util.ArrayList;
import java.util.List;

/**
 * The Murmur3 token ring cut into equal slices. Murmur3Partitioner's tokens are the longs in (MIN, MAX] (it maps a
 * hash of {@code Long.MIN_VALUE} to {@code MAX_VALUE}), so slices {@code (start, end]} from {@code MIN} to {@code MAX}
 * hold every row exactly once.
 */
public final class Murmur3Splits {
    private Murmur3Splits() {}

    /** A slice {@code (start, end]} of the ring. */
    public record Split(int index, long start, long end) {}

    /** {@code count} slices covering the whole ring, in token order. */
    public static List<Split> of(int count) {
        if (count < 1 || count > 1 << 20) {
            throw new IllegalArgumentException("splits " + count + " (expected: 1 to " + (1 << 20) + ")");
        }
        BigInteger min = BigInteger.valueOf(Long.MIN_VALUE);
        BigInteger width = BigInteger.valueOf(Long.MAX_VALUE).subtract(min);
        List<Split> splits = new ArrayList<>(count);
        long start = Long.MIN_VALUE;
        for (int i = 0; i < count; i++) {
            long end = i == count - 1
                    ? Long.MAX_VALUE
                    : min.add(width.multiply(BigInteger.valueOf(i + 1)).divide(BigInteger.valueOf(count)))
                            .longValueExact();
            splits.add(new Split(i, start, end));
            start = end;
        }
        return splits;
    }
}
