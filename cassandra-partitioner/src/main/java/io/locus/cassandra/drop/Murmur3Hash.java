package io.locus.cassandra.drop;

import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.nio.ByteOrder;

/**
 * MurmurHash3 (Austin Appleby's public-domain algorithms) over a byte-array slice: x64_128 and x86_32.
 *
 * <p>These are the standard variants: tail bytes are read unsigned, so results equal Guava's
 * {@code Hashing.murmur3_128(seed)} and {@code Hashing.murmur3_32_fixed(seed)}. They are <em>not</em> Cassandra's
 * {@code MurmurHash.hash3_x64_128}, which sign-extends tail bytes for backward compatibility. The token layout of
 * {@link PathEncoder} depends on every bit of both functions: they must never change.
 *
 * <p>Stateless and thread-safe; no allocation.
 */
public final class Murmur3Hash {
    private static final VarHandle LONG_LE = MethodHandles.byteArrayViewVarHandle(long[].class, ByteOrder.LITTLE_ENDIAN);
    private static final VarHandle LONG_BE = MethodHandles.byteArrayViewVarHandle(long[].class, ByteOrder.BIG_ENDIAN);
    private static final VarHandle INT_LE = MethodHandles.byteArrayViewVarHandle(int[].class, ByteOrder.LITTLE_ENDIAN);
    private static final long C1 = 0x87c37b91114253d5L;
    private static final long C2 = 0x4cf5ad432745937fL;

    private Murmur3Hash() {
    }

    /** The first 64-bit half (h1) of murmur3_x64_128 over {@code data[offset, offset+length)}. */
    public static long hash128First(byte[] data, int offset, int length, int seed) {
        return hash128(data, offset, length, seed, null, 0);
    }

    /**
     * murmur3_x64_128 over {@code data[offset, offset+length)}. If {@code out} is not null, h1 and then h2 are
     * written big-endian to {@code out[outOffset, outOffset+16)}.
     *
     * @return h1
     */
    public static long hash128(byte[] data, int offset, int length, int seed, byte[] out, int outOffset) {
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
            LONG_BE.set(out, outOffset, h1);
            LONG_BE.set(out, outOffset + 8, h2);
        }
        return h1;
    }

    /**
     * MurmurHash3 x86_32 over {@code data[offset, offset+length)}, equal to Guava's
     * {@code Hashing.murmur3_32_fixed(seed).hashBytes(data, offset, length).asInt()}. For the 4-16 byte names that
     * make up paths it does a fraction of x64_128's work: one 32-bit multiply chain per 4 bytes, one 32-bit
     * finalisation (x64_128 always runs two 64-bit finalisations and the h1/h2 cross mixing).
     */
    public static int hash32(byte[] data, int offset, int length, int seed) {
        int h = seed;
        int p = offset;
        int blockEnd = offset + (length & ~3);
        for (; p < blockEnd; p += 4) {
            h = round32(h, (int) INT_LE.get(data, p));
        }
        int k = 0;
        switch (length & 3) {
            case 3:
                k ^= (data[p + 2] & 0xFF) << 16;
                // fall through
            case 2:
                k ^= (data[p + 1] & 0xFF) << 8;
                // fall through
            case 1:
                k ^= data[p] & 0xFF;
                h ^= mix32(k);
                break;
            default:
                break;
        }
        return fmix32(h ^ length);
    }

    /** x86_32: one full 4-byte block {@code k} (little-endian) into the state {@code h}. */
    static int round32(int h, int k) {
        h ^= mix32(k);
        h = Integer.rotateLeft(h, 13);
        return h * 5 + 0xe6546b64;
    }

    /** x86_32: the block/tail mixing of {@code k} (a tail of 1-3 bytes is xor-ed in as {@code h ^= mix32(k)}). */
    static int mix32(int k) {
        k *= 0xcc9e2d51;
        k = Integer.rotateLeft(k, 15);
        return k * 0x1b873593;
    }

    /** x86_32's finalisation; the caller has xor-ed the length into {@code h}. */
    static int fmix32(int h) {
        h ^= h >>> 16;
        h *= 0x85ebca6b;
        h ^= h >>> 13;
        h *= 0xc2b2ae35;
        return h ^ (h >>> 16);
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
