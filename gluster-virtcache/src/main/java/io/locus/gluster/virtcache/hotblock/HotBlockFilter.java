package io.locus.gluster.virtcache.hotblock;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.charset.StandardCharsets;
import java.util.zip.CRC32C;

/**
 * The Bloom filter of a file's hottest blocks in the last completed window, as the {@code virtcache} brick translator
 * serves it in the virtual xattrs {@code trusted.virtcache.bloom} (chunk 0) and {@code trusted.virtcache.bloom.<i>}.
 *
 * <p>Each chunk is a 64-byte little-endian header followed by up to 60 KiB of the bit array:
 *
 * <pre>
 *  0 magic "VCBF"   4 version u16 = 1   6 k u16          8 m_bits u64      16 n_inserted u64
 * 24 block_size u32 28 chunk_index u32  32 epoch u64     40 window_start_ms u64
 * 48 window_len_ms u32  52 chunk_count u32  56 crc32c(whole bit array) u32  60 chunk_len u32
 * </pre>
 *
 * A block b is in the filter if bits (h1 + i·h2) mod m_bits are set for i = 0..k-1, where (h1, h2) is
 * {@link Murmur3#hash128 MurmurHash3 x64/128} of b's 8 little-endian bytes with seed "VCBF"; bit x lives in 64-bit
 * word x/64 at position x%64. Immutable and thread-safe.
 */
public final class HotBlockFilter {
    /** The xattr of chunk 0. */
    public static final String XATTR = "trusted.virtcache.bloom";

    static final int HEADER_BYTES = 64;
    static final int VERSION = 1;
    static final int MAX_K = 30;
    private static final int MAX_READS = 3;

    private final int k;
    private final long mBits;
    private final long inserted;
    private final int blockSize;
    private final long epoch;
    private final long windowStartMillis;
    private final long windowLengthMillis;
    private final long[] words;

    private HotBlockFilter(Header h, long[] words) {
        this.k = h.k;
        this.mBits = h.mBits;
        this.inserted = h.inserted;
        this.blockSize = h.blockSize;
        this.epoch = h.epoch;
        this.windowStartMillis = h.windowStartMillis;
        this.windowLengthMillis = h.windowLengthMillis;
        this.words = words;
    }

    /** Where the filter's chunks come from: usually {@code getxattr} on the file through libgfapi. */
    @FunctionalInterface
    public interface ChunkSource {
        /** The value of the xattr {@code name}. */
        byte[] get(String name) throws IOException;
    }

    /** The xattr name of chunk {@code i}. */
    public static String chunkName(int i) {
        if (i < 0) {
            throw new IllegalArgumentException("chunk index " + i + " (expected: >= 0)");
        }
        return i == 0 ? XATTR : XATTR + "." + i;
    }

    /**
     * Reads all chunks of one filter. A window that ends between two chunk reads changes the epoch; the whole filter
     * is then read again, at most three times.
     *
     * @throws IOException from the source, or if the epoch kept changing
     * @throws IllegalArgumentException if a chunk is malformed (the message names the chunk and the field)
     */
    public static HotBlockFilter read(ChunkSource source) throws IOException {
        IllegalStateException changing = null;
        for (int attempt = 0; attempt < MAX_READS; attempt++) {
            byte[] first = source.get(chunkName(0));
            Header h0 = Header.parse(first, 0);
            byte[][] chunks = new byte[h0.chunkCount][];
            chunks[0] = first;
            try {
                for (int i = 1; i < h0.chunkCount; i++) {
                    chunks[i] = source.get(chunkName(i));
                }
                return parse(chunks);
            } catch (EpochChanged e) {
                changing = e;
            } catch (IOException e) {
                // A filter with fewer chunks replaced ours: the last chunk we asked for no longer exists.
                changing = new IllegalStateException(e.getMessage(), e);
            }
        }
        throw new IOException("hot-block filter changed during " + MAX_READS + " reads: " + changing.getMessage());
    }

    /**
     * Parses a filter from all of its chunks, in order.
     *
     * @throws IllegalArgumentException if a chunk is malformed, out of order, from another epoch, or the bit array's
     *     CRC-32C does not match
     */
    public static HotBlockFilter parse(byte[]... chunks) {
        if (chunks.length == 0) {
            throw new IllegalArgumentException("hot-block filter: no chunks (expected: at least chunk 0)");
        }
        Header h0 = Header.parse(chunks[0], 0);
        if (chunks.length != h0.chunkCount) {
            throw new IllegalArgumentException(
                    "hot-block filter: " + chunks.length + " chunks given, header says " + h0.chunkCount);
        }
        ByteBuffer body = ByteBuffer.allocate(Math.toIntExact(h0.mBits / 8)).order(ByteOrder.LITTLE_ENDIAN);
        for (int i = 0; i < chunks.length; i++) {
            Header h = i == 0 ? h0 : Header.parse(chunks[i], i);
            if (h.epoch != h0.epoch || h.mBits != h0.mBits || h.chunkCount != h0.chunkCount || h.k != h0.k) {
                throw new EpochChanged("hot-block filter chunk " + i + " is of epoch " + h.epoch + " (m_bits " + h.mBits
                        + "), chunk 0 of epoch " + h0.epoch + " (m_bits " + h0.mBits + ")");
            }
            if (h.chunkLength > body.remaining()) {
                throw new IllegalArgumentException("hot-block filter chunk " + i + ": " + h.chunkLength
                        + " body bytes overflow the " + h0.mBits / 8 + "-byte bit array");
            }
            body.put(chunks[i], HEADER_BYTES, h.chunkLength);
        }
        if (body.hasRemaining()) {
            throw new IllegalArgumentException(
                    "hot-block filter: chunks hold " + body.position() + " of " + h0.mBits / 8 + " bit-array bytes");
        }
        CRC32C crc = new CRC32C();
        crc.update(body.array());
        if ((int) crc.getValue() != h0.crc32c) {
            throw new IllegalArgumentException(String.format(
                    "hot-block filter epoch %d: CRC-32C of the bit array is %08x, header says %08x",
                    h0.epoch, (int) crc.getValue(), h0.crc32c));
        }
        body.flip();
        long[] words = new long[(int) (h0.mBits / 64)];
        body.asLongBuffer().get(words);
        return new HotBlockFilter(h0, words);
    }

    /** True if {@code block} may be among the hot blocks; false means it certainly is not. */
    public boolean mightContain(long block) {
        long[] h = Murmur3.hash128(block, Murmur3.SEED);
        for (int i = 0; i < k; i++) {
            long bit = Long.remainderUnsigned(h[0] + i * h[1], mBits);
            if ((words[(int) (bit >>> 6)] & (1L << (bit & 63))) == 0) {
                return false;
            }
        }
        return true;
    }

    /** The block holding byte {@code offset} of the file, in this filter's block size. */
    public long blockOf(long offset) {
        return Long.divideUnsigned(offset, blockSize);
    }

    public int hashCount() {
        return k;
    }

    public long bits() {
        return mBits;
    }

    /** How many blocks were inserted: the top-N of the window, or fewer if fewer blocks were accessed. */
    public long inserted() {
        return inserted;
    }

    public int blockSize() {
        return blockSize;
    }

    /** Which window this is: 0 before the file's first window ended, then 1, 2, ... */
    public long epoch() {
        return epoch;
    }

    public long windowStartMillis() {
        return windowStartMillis;
    }

    public long windowLengthMillis() {
        return windowLengthMillis;
    }

    /** The false-positive rate this filter's size and fill predict: (1 - e^(-k n / m))^k. */
    public double expectedFalsePositiveRate() {
        return Math.pow(1 - Math.exp(-(double) k * inserted / mBits), k);
    }

    @Override
    public String toString() {
        return "HotBlockFilter[epoch=" + epoch + ", n=" + inserted + ", m=" + mBits + ", k=" + k + ", blockSize="
                + blockSize + "]";
    }

    /** A chunk of another epoch than chunk 0: a window ended while the chunks were read. */
    private static final class EpochChanged extends IllegalStateException {
        EpochChanged(String message) {
            super(message);
        }
    }

    private record Header(
            int k,
            long mBits,
            long inserted,
            int blockSize,
            int chunkIndex,
            long epoch,
            long windowStartMillis,
            long windowLengthMillis,
            int chunkCount,
            int crc32c,
            int chunkLength) {

        static Header parse(byte[] chunk, int expectedIndex) {
            String where = "hot-block filter chunk " + expectedIndex;
            if (chunk == null || chunk.length < HEADER_BYTES) {
                throw new IllegalArgumentException(where + ": " + (chunk == null ? "null" : chunk.length + " bytes")
                        + " (expected: at least the " + HEADER_BYTES + "-byte header)");
            }
            ByteBuffer b = ByteBuffer.wrap(chunk).order(ByteOrder.LITTLE_ENDIAN);
            String magic = new String(chunk, 0, 4, StandardCharsets.ISO_8859_1);
            if (!magic.equals("VCBF")) {
                throw new IllegalArgumentException(where + ": magic \"" + magic + "\" (expected: \"VCBF\")");
            }
            int version = Short.toUnsignedInt(b.getShort(4));
            if (version != VERSION) {
                throw new IllegalArgumentException(where + ": version " + version + " (expected: " + VERSION + ")");
            }
            int k = Short.toUnsignedInt(b.getShort(6));
            long m = b.getLong(8);
            if (k < 1 || k > MAX_K) {
                throw new IllegalArgumentException(where + ": k " + k + " (expected: 1.." + MAX_K + ")");
            }
            if (m < 64 || m % 64 != 0 || m / 8 > Integer.MAX_VALUE) {
                throw new IllegalArgumentException(
                        where + ": m_bits " + m + " (expected: a positive multiple of 64 below 2^34)");
            }
            int index = b.getInt(28);
            int count = b.getInt(52);
            int length = b.getInt(60);
            if (index != expectedIndex) {
                throw new IllegalArgumentException(where + ": header says chunk " + index);
            }
            if (count < 1 || index >= count) {
                throw new IllegalArgumentException(where + ": chunk_count " + count + " (expected: > " + index + ")");
            }
            if (length < 0 || length != chunk.length - HEADER_BYTES) {
                throw new IllegalArgumentException(
                        where + ": chunk_len " + length + " but " + (chunk.length - HEADER_BYTES) + " body bytes");
            }
            int blockSize = b.getInt(24);
            if (blockSize <= 0) {
                throw new IllegalArgumentException(
                        where + ": block_size " + Integer.toUnsignedString(blockSize) + " (expected: 1..2^31-1)");
            }
            return new Header(
                    k,
                    m,
                    b.getLong(16),
                    blockSize,
                    index,
                    b.getLong(32),
                    b.getLong(40),
                    Integer.toUnsignedLong(b.getInt(48)),
                    count,
                    b.getInt(56),
                    length);
        }
    }
}
