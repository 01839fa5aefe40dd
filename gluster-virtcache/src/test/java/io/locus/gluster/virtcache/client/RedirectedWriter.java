package io.locus.gluster.virtcache.client;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;

import io.locus.gluster.gfapi.GlusterVolume;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.Random;

/**
 * A child JVM for {@link VirtCacheClientIT}: opens a disk through VirtCache, redirects it, and writes region after
 * region, printing {@code ACK <i>} once write i returned and, after every few writes, {@code FLUSHED <i>} once a
 * flush covering writes 0 to i returned, until it is killed.
 *
 * <p>Arguments: server, primary volume, log volume, gfapi log file, disk path, block size, region bytes, regions,
 * writes per flush.
 */
public final class RedirectedWriter {
    static final int FLUSH_EVERY = 4;

    private RedirectedWriter() {}

    /** The bytes of region {@code i}, which the parent recomputes to check. */
    static byte[] region(int i, int bytes) {
        byte[] data = new byte[bytes];
        new Random(1000 + i).nextBytes(data);
        return data;
    }

    /**
     * Checks a disk the writer was killed on against what it had printed, as the client's durability contract says: a
     * write survives a crash once a flush that began after it has returned, and an unflushed one leaves each of its
     * bytes as before or as written. So regions 0 to {@code flushed} hold their bytes exactly; each byte of regions
     * {@code flushed + 1} to {@code acked + 1} (the last acknowledged, and the one that may have been in flight) is
     * zero, the disk's byte before, or the region's; every byte after them is zero, as no write reached it.
     *
     * @throws AssertionError naming the first region and byte that break it, and {@code when}
     */
    static void checkRegions(byte[] disk, int regionBytes, int acked, int flushed, String when) {
        for (int i = 0; i <= flushed; i++) {
            assertArrayEquals(
                    region(i, regionBytes),
                    Arrays.copyOfRange(disk, i * regionBytes, (i + 1) * regionBytes),
                    "region " + i + ", flushed (flushes up to region " + flushed + "), " + when);
        }
        for (int i = flushed + 1; i <= acked + 1 && (long) (i + 1) * regionBytes <= disk.length; i++) {
            byte[] written = region(i, regionBytes);
            for (int k = 0; k < regionBytes; k++) {
                byte got = disk[i * regionBytes + k];
                if (got != 0 && got != written[k]) {
                    throw new AssertionError("region " + i + " byte " + k + " is " + got + " (expected: 0 or "
                            + written[k] + "; acknowledged up to region " + acked + "), " + when);
                }
            }
        }
        int untouched = Math.min(disk.length, (acked + 2) * regionBytes);
        for (int at = untouched; at < disk.length; at++) {
            if (disk[at] != 0) {
                throw new AssertionError("byte " + at + " (region " + at / regionBytes + ") is " + disk[at]
                        + " (expected: 0, never written: acknowledged up to region " + acked + "), " + when);
            }
        }
    }

    public static void main(String[] args) throws Exception {
        String server = args[0];
        Path gfapiLog = Path.of(args[3]);
        String path = args[4];
        int blockSize = Integer.parseInt(args[5]);
        int regionBytes = Integer.parseInt(args[6]);
        int regions = Integer.parseInt(args[7]);
        int flushEvery = Integer.parseInt(args[8]);
        GlusterVolume primary = GlusterVolume.connect(server, args[1], gfapiLog);
        GlusterVolume log = GlusterVolume.connect(server, args[2], gfapiLog);
        VirtCacheClient client = VirtCacheClient.open(primary, log, path, blockSize);
        client.startRedirect();
        client.warm(Integer.MAX_VALUE);
        System.out.println("REDIRECTED");
        System.out.flush();
        for (int i = 0; i < regions; i++) {
            client.write((long) i * regionBytes, region(i, regionBytes));
            System.out.println("ACK " + i);
            System.out.flush();
            if (i % flushEvery == flushEvery - 1) {
                client.flush();
                System.out.println("FLUSHED " + i);
                System.out.flush();
            }
        }
        System.out.println("DONE");
        System.out.flush();
        // Wait to be killed: the parent decides when.
        Thread.sleep(Long.MAX_VALUE);
    }
}
