package io.locus.memcached.cache;

import java.nio.charset.StandardCharsets;
import java.util.Arrays;

/**
 * A key as map key: the bytes (not copied, never modified) with a precomputed, well-mixed hash. Tables that print
 * their keys (stats, logs, errors) turn them into text only then ({@link #toString}).
 */
public final class ByteKey {
    private final byte[] bytes;
    private final int hash;

    public ByteKey(byte[] bytes) {
        this.bytes = bytes;
        // Arrays.hashCode is weak in the low bits for short ASCII keys; a murmur3 finaliser spreads it so the
        // partition index (low bits) and HashMap buckets are balanced.
        int h = Arrays.hashCode(bytes);
        h ^= h >>> 16;
        h *= 0x85ebca6b;
        h ^= h >>> 13;
        h *= 0xc2b2ae35;
        h ^= h >>> 16;
        this.hash = h;
    }

    public byte[] bytes() {
        return bytes;
    }

    /** Whether the key begins with {@code prefix}. */
    public boolean startsWith(byte[] prefix) {
        return bytes.length >= prefix.length && Arrays.equals(bytes, 0, prefix.length, prefix, 0, prefix.length);
    }

    /** The key as text, one char per byte: for printing only. */
    @Override
    public String toString() {
        return new String(bytes, StandardCharsets.ISO_8859_1);
    }

    @Override
    public int hashCode() {
        return hash;
    }

    @Override
    public boolean equals(Object o) {
        return o instanceof ByteKey other && other.hash == hash && Arrays.equals(other.bytes, bytes);
    }
}
