package io.locus.memcached.cache;

import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.nio.ByteOrder;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;

/**
 * A key as map key: the bytes (not copied, never modified) with a precomputed, well-mixed hash. Tables that print
 * their keys (stats, logs, errors) turn them into text only then ({@link #toString}).
 */
public final class ByteKey {
    private final byte[] bytes;
    private final int hash;

    private static final VarHandle LONGS = MethodHandles.byteArrayViewVarHandle(long[].class, ByteOrder.LITTLE_ENDIAN);
    private static final long K1 = 0x9E3779B97F4A7C15L;
    private static final long K2 = 0xC2B2AE3D27D4EB4FL;

    public ByteKey(byte[] bytes) {
        this.bytes = bytes;
        this.hash = hash(bytes);
    }

    /**
     * A well-mixed hash of the bytes, read eight at a time: a key's hash is computed on every cache lookup, and a
     * byte-at-a-time polynomial ({@code Arrays.hashCode}) is one dependent multiply per byte. The partition index (low
     * bits) and the table buckets (high bits) both depend on every byte through the murmur3 finaliser at the end.
     */
    static int hash(byte[] b) {
        long h = b.length * K2;
        int i = 0;
        for (; i + Long.BYTES <= b.length; i += Long.BYTES) {
            h = Long.rotateLeft(h ^ ((long) LONGS.get(b, i) * K1), 31) * K2;
        }
        long tail = 0;
        for (int shift = 0; i < b.length; i++, shift += 8) {
            tail |= (b[i] & 0xFFL) << shift;
        }
        h = Long.rotateLeft(h ^ (tail * K1), 31) * K2;
        h ^= h >>> 33;
        h *= 0xff51afd7ed558ccdL;
        h ^= h >>> 33;
        h *= 0xc4ceb9fe1a85ec53L;
        h ^= h >>> 33;
        return (int) h;
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
