package io.locus.cassandra.copy;

import java.nio.ByteBuffer;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;

/**
 * A table's content as a row count and a 64-bit sum of per-row SHA-256 prefixes: independent of the order rows are read
 * in (the two clusters return them in different token orders), and changed by any missing, extra or altered row with
 * overwhelming probability. Each column value is hashed with its length, and a null apart from an empty value.
 * Not thread-safe.
 */
public final class RowDigest {
    private static final byte[] NULL_VALUE = {-1, -1, -1, -1};

    private final MessageDigest sha;
    private final ByteBuffer length = ByteBuffer.allocate(4);
    private long rows;
    private long sum;

    public RowDigest() {
        try {
            sha = MessageDigest.getInstance("SHA-256");
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException("SHA-256 is missing from this Java runtime", e);
        }
    }

    /** Adds one row, its column values in the table's column order ({@code null} for a null value). */
    public void add(ByteBuffer[] values) {
        sha.reset();
        for (ByteBuffer v : values) {
            if (v == null) {
                sha.update(NULL_VALUE);
            } else {
                ByteBuffer d = v.duplicate();
                sha.update(length.putInt(0, d.remaining()).array());
                sha.update(d);
            }
        }
        sum += ByteBuffer.wrap(sha.digest()).getLong();
        rows++;
    }

    public long rows() {
        return rows;
    }

    /** The sum as 16 hex digits. */
    public String sum() {
        return String.format("%016x", sum);
    }

    public boolean sameAs(RowDigest other) {
        return rows == other.rows && sum == other.sum;
    }

    @Override
    public String toString() {
        return rows + " rows, digest " + sum();
    }
}
