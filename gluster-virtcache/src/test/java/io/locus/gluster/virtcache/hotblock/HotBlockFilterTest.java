package io.locus.gluster.virtcache.hotblock;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.util.HashMap;
import java.util.Map;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.zip.CRC32C;
import org.junit.jupiter.api.Test;

class HotBlockFilterTest {
    static final int CHUNK = 61440;

    /** Serializes a filter the way the translator does, so the reader is tested against the documented format. */
    static byte[][] serialize(long[] blocks, long mBits, int k, long epoch, int blockSize) {
        long[] words = new long[(int) (mBits / 64)];
        for (long b : blocks) {
            long[] h = Murmur3.hash128(b, Murmur3.SEED);
            for (int i = 0; i < k; i++) {
                long bit = Long.remainderUnsigned(h[0] + i * h[1], mBits);
                words[(int) (bit >>> 6)] |= 1L << (bit & 63);
            }
        }
        ByteBuffer body = ByteBuffer.allocate((int) (mBits / 8)).order(ByteOrder.LITTLE_ENDIAN);
        body.asLongBuffer().put(words);
        CRC32C crc = new CRC32C();
        crc.update(body.array());
        int count = Math.max(1, (body.capacity() + CHUNK - 1) / CHUNK);
        byte[][] chunks = new byte[count][];
        for (int c = 0; c < count; c++) {
            int len = Math.min(CHUNK, body.capacity() - c * CHUNK);
            ByteBuffer out = ByteBuffer.allocate(64 + len).order(ByteOrder.LITTLE_ENDIAN);
            out.put("VCBF".getBytes())
                    .putShort((short) 1)
                    .putShort((short) k)
                    .putLong(mBits)
                    .putLong(blocks.length)
                    .putInt(blockSize)
                    .putInt(c)
                    .putLong(epoch)
                    .putLong(1_700_000_000_000L)
                    .putInt(600_000)
                    .putInt(count)
                    .putInt((int) crc.getValue())
                    .putInt(len);
            out.put(body.array(), c * CHUNK, len);
            chunks[c] = out.array();
        }
        return chunks;
    }

    @Test
    void insertedBlocksAreMembers_othersMostlyNot() {
        long[] hot = new long[1000];
        for (int i = 0; i < hot.length; i++) {
            hot[i] = i * 7919L;
        }
        HotBlockFilter f = HotBlockFilter.parse(serialize(hot, 9600, 7, 3, 65536));
        for (long b : hot) {
            assertTrue(f.mightContain(b), "block " + b);
        }
        int fp = 0;
        for (long b = 10_000_000; b < 10_100_000; b++) {
            fp += f.mightContain(b) ? 1 : 0;
        }
        assertTrue(fp / 100_000.0 < 0.015, "false positives " + fp + " of 100000");
        assertEquals(3, f.epoch());
        assertEquals(1000, f.inserted());
        assertEquals(65536, f.blockSize());
        assertEquals(2, f.blockOf(131072));
    }

    @Test
    void largeFilter_isReadFromAllItsChunks() throws IOException {
        long[] hot = new long[100_000];
        for (int i = 0; i < hot.length; i++) {
            hot[i] = i;
        }
        byte[][] chunks = serialize(hot, 958_592 * 2, 7, 5, 4096);
        assertEquals(4, chunks.length);
        Map<String, byte[]> xattrs = new HashMap<>();
        for (int i = 0; i < chunks.length; i++) {
            xattrs.put(HotBlockFilter.chunkName(i), chunks[i]);
        }
        HotBlockFilter f = HotBlockFilter.read(xattrs::get);
        for (long b : hot) {
            assertTrue(f.mightContain(b), "block " + b);
        }
        assertEquals("trusted.virtcache.bloom.3", HotBlockFilter.chunkName(3));
    }

    @Test
    void windowEndingDuringTheRead_isReadAgain() throws IOException {
        byte[][] old = serialize(new long[] {1, 2}, 61440 * 8 * 2, 3, 7, 4096);
        byte[][] fresh = serialize(new long[] {9}, 61440 * 8 * 2, 3, 8, 4096);
        AtomicInteger calls = new AtomicInteger();
        HotBlockFilter f = HotBlockFilter.read(name -> {
            int n = calls.getAndIncrement();
            int chunk = name.equals(HotBlockFilter.XATTR) ? 0 : 1;
            return (n == 0 ? old : fresh)[chunk];
        });
        assertEquals(8, f.epoch());
        assertTrue(f.mightContain(9));
    }

    @Test
    void malformedChunks_areRefusedWithTheFieldNamed() {
        byte[] good = serialize(new long[] {1}, 640, 2, 1, 4096)[0];
        byte[] magic = good.clone();
        magic[0] = 'X';
        assertMessage("magic \"XCBF\"", magic);
        byte[] version = good.clone();
        version[4] = 9;
        assertMessage("version 9", version);
        byte[] k = good.clone();
        k[6] = 0;
        assertMessage("k 0", k);
        byte[] crc = good.clone();
        crc[64] ^= 1;
        assertMessage("CRC-32C", crc);
        assertMessage("5 bytes", new byte[5]);
        byte[] truncated = java.util.Arrays.copyOf(good, good.length - 1);
        assertMessage("chunk_len 80 but 79 body bytes", truncated);
        IllegalArgumentException none = assertThrows(IllegalArgumentException.class, HotBlockFilter::parse);
        assertTrue(none.getMessage().contains("no chunks"), none.getMessage());
        assertThrows(IllegalArgumentException.class, () -> HotBlockFilter.chunkName(-1));
    }

    @Test
    void chunksOfDifferentEpochs_areRefused() {
        byte[][] a = serialize(new long[] {1}, 61440 * 8 * 2, 3, 1, 4096);
        byte[][] b = serialize(new long[] {1}, 61440 * 8 * 2, 3, 2, 4096);
        RuntimeException e = assertThrows(RuntimeException.class, () -> HotBlockFilter.parse(a[0], b[1]));
        assertTrue(e.getMessage().contains("chunk 1 is of epoch 2"), e.getMessage());
        assertFalse(e.getMessage().isEmpty());
    }

    private static void assertMessage(String expected, byte[] chunk) {
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> HotBlockFilter.parse(chunk));
        assertTrue(e.getMessage().contains(expected), e.getMessage());
    }
}
