package io.locus.gluster.virtcache.client;

import io.locus.gluster.gfapi.GlusterVolume;
import java.nio.file.Path;
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
