package io.locus.cassandra.drop;

import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.nio.ByteOrder;

/**
 * MurmurHash3 x64_128 (Austin Appleby's public-domain algorithm) over a byte-array slice.
 *
 * <p>This is the standard variant: tail bytes are read unsigned, so results equal Guava's
 * {@code Hashing.murmur3_128(seed)}. It is <em>not</em> Cassandra's {@code MurmurHash.hash3_x64_128}, which
 * sign-extends tail bytes for backward compatibility. The token layout of {@link PathEncoder} depends on every bit of
 * this function: it must never change.
 *
 * <p>Stateless and thread-safe; no allocation.
 */
public final class Murmur3Hash {
    private static final VarHandle LONG_LE = MethodHandles.byteArrayViewVarHandle(long[].class, ByteOrder.LITTLE_ENDIAN);
    private static final long C1 = 0x87c37b91114253d5L;
    private static final long C2 = 0x4cf5ad432745937fL;

    private Murmur3Hash() {
    }

    /** The first 64-bit half (h1) of murmur3_x64_128 over {@code data[offset, offset+length)}. */
    public static long hash128First(byte[] data, int offset, int length, int seed) {
        return hash(data, offset, length, seed, null);
    }

    /**
     * Both halves of murmur3_x64_128 over {@code data[offset, offset+length)}.
     *
     * @param out receives h1 at index 0 and h2 at index 1
     */
    public static void hash128(byte[] data, int offset, int length, int seed, long[] out) {
        hash(data, offset, length, seed, out);
    }

    /** The low 32 bits of h1 as an unsigned value (0..2^32-1); equals Guava's {@code HashCode.asInt()}. */
    public static long low32(byte[] data, int offset, int length, int seed) {
        if (length < 16) {
            return shortH1(data, offset, length, seed) & 0xFFFF_FFFFL;
        }
        return hash(data, offset, length, seed, null) & 0xFFFF_FFFFL;
    }

    /**
     * h1 for inputs shorter than one 16-byte block (most path components): no block loop, so the JIT can inline it
     * into the encoder's per-component loop.
     */
    private static long shortH1(byte[] data, int p, int length, int seed) {
        long h1 = seed;
        long h2 = seed;
        long k1 = 0;
        if (length >= 8) {
            k1 = (long) LONG_LE.get(data, p);
            if (length > 8) {
                long k2 = 0;
                for (int i = length - 1; i >= 8; i--) {
                    k2 = (k2 << 8) | (data[p + i] & 0xFFL);
                }
                h2 ^= mixK2(k2);
            }
        } else {
            for (int i = length - 1; i >= 0; i--) {
                k1 = (k1 << 8) | (data[p + i] & 0xFFL);
            }
        }
        if (length > 0) {
            h1 ^= mixK1(k1);
        }
        h1 ^= length;
        h2 ^= length;
        h1 += h2;
        h2 += h1;
        return fmix64(h1) + fmix64(h2);
    }

    private static long hash(byte[] data, int offset, int length, int seed, long[] out) {
        long h1 = seed;
        long h2 = seed;
        int blocks = length >>> 4;
        int p = offset;
        for (int i = 0; i < blocks; i++, p += 16) {
            long k1 = (long) LONG_LE.get(data, p);
            long k2 = (long) LONG_LE.get(data, p + 8);
            h1 ^= mixK1(k1);
            h1 = Long.rotateLeft(h1, 27);
            h1 += h2;
            h1 = h1 * 5 + 0x52dce729;
            h2 ^= mixK2(k2);
            h2 = Long.rotateLeft(h2, 31);
            h2 += h1;
            h2 = h2 * 5 + 0x38495ab5;
        }
        int rest = length & 15;
        if (rest > 0) {
            long k1 = 0;
            if (rest >= 8) {
                // Path components are mostly 8-15 bytes: one 8-byte read instead of eight single-byte ones.
                k1 = (long) LONG_LE.get(data, p);
                if (rest > 8) {
                    long k2 = 0;
                    for (int i = rest - 1; i >= 8; i--) {
                        k2 = (k2 << 8) | (data[p + i] & 0xFFL);
                    }
                    h2 ^= mixK2(k2);
                }
            } else {
                for (int i = rest - 1; i >= 0; i--) {
                    k1 = (k1 << 8) | (data[p + i] & 0xFFL);
                }
            }
            h1 ^= mixK1(k1);
        }
        h1 ^= length;
        h2 ^= length;
        h1 += h2;
        h2 += h1;
        h1 = fmix64(h1);
        h2 = fmix64(h2);
        h1 += h2;
        if (out != null) {
            h2 += h1;
            out[0] = h1;
            out[1] = h2;
        }
        return h1;
    }

    private static long mixK1(long k1) {
        k1 *= C1;
        k1 = Long.rotateLeft(k1, 31);
        return k1 * C2;
    }

    private static long mixK2(long k2) {
        k2 *= C2;
        k2 = Long.rotateLeft(k2, 33);
        return k2 * C1;
    }

    private static long fmix64(long k) {
        k ^= k >>> 33;
        k *= 0xff51afd7ed558ccdL;
        k ^= k >>> 33;
        k *= 0xc4ceb9fe1a85ec53L;
        k ^= k >>> 33;
        return k;
    }
}
