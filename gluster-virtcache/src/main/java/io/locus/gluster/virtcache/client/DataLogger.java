package io.locus.gluster.virtcache.client;

import java.io.IOException;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;
import java.util.function.BooleanSupplier;

/**
 * A disk's data logger: the hot blocks NORMAL reads found missing from the log, queued in the order found, and the
 * batches that copy them from the primary to the log off the request path, with one sync of the log per batch, so
 * that a later redirection finds them there.
 *
 * <p>Locks, as the disk's javadoc states them: batches are serialised by this object's own lock, held across a batch's I/O, which a redirection takes to
 * wait for a batch to end ({@link #stop}); the disk's lock guards the queue, the map and the disk's set of blocks under
 * copy, and is taken inside the batch lock, never across I/O.
 */
final class DataLogger {
    /** Most hot blocks queued; further ones wait for the next read of them. */
    static final int MAX_QUEUED = 4096;

    private final Object disk;
    private final BlockMap map;
    private final BlockStore primary;
    private final BlockStore log;
    private final int blockSize;
    /** The disk's blocks under copy to the log; a write to one removes it, so that its copy is not trusted. */
    private final Set<Long> copying;

    private final Object batchLock = new Object();
    // Guarded by the disk's lock.
    private final Set<Long> queue = new LinkedHashSet<>();
    private long logged;

    DataLogger(Object disk, BlockMap map, BlockStore primary, BlockStore log, int blockSize, Set<Long> copying) {
        this.disk = disk;
        this.map = map;
        this.primary = primary;
        this.log = log;
        this.blockSize = blockSize;
        this.copying = copying;
    }

    /** Queues a hot block the log lacks; wakes a waiting logger if the queue was empty. Under the disk's lock. */
    void queue(long block) {
        if (queue.size() < MAX_QUEUED && queue.add(block) && queue.size() == 1) {
            disk.notifyAll();
        }
    }

    /** Under the disk's lock. */
    int queued() {
        return queue.size();
    }

    /** Blocks recorded in the log by batches. Under the disk's lock. */
    long logged() {
        return logged;
    }

    /** Under the disk's lock. */
    boolean idle() {
        return queue.isEmpty() && copying.isEmpty();
    }

    /** Waits up to {@code millis} for blocks to be queued; whether any are. Without the disk's lock. */
    boolean await(long millis) throws InterruptedException {
        synchronized (disk) {
            if (queue.isEmpty() && millis > 0) {
                disk.wait(millis);
            }
            return !queue.isEmpty();
        }
    }

    /**
     * Copies up to {@code maxBlocks} queued blocks and records them valid once the log is synced; a block written
     * meanwhile is not recorded (its copy may be older). Does nothing, and empties the queue, unless {@code normal}
     * (asked under the disk's lock). Returns how many blocks were recorded. Without the disk's lock.
     */
    int logBatch(int maxBlocks, BooleanSupplier normal) throws IOException {
        synchronized (batchLock) {
            List<Long> batch = new ArrayList<>();
            synchronized (disk) {
                if (!normal.getAsBoolean()) {
                    queue.clear();
                    return 0;
                }
                Iterator<Long> it = queue.iterator();
                while (it.hasNext() && batch.size() < maxBlocks) {
                    long block = it.next();
                    it.remove();
                    if (!map.inLog(block)) {
                        batch.add(block);
                        copying.add(block);
                    }
                }
            }
            if (batch.isEmpty()) {
                return 0;
            }
            try {
                for (long block : batch) {
                    log.write(
                            block * blockSize,
                            RedirectingDisk.padded(primary.read(block * blockSize, blockSize), blockSize));
                }
                // The copies must be durable before the map vouches for them.
                log.flush();
                int recorded = 0;
                synchronized (disk) {
                    for (long block : batch) {
                        if (copying.contains(block) && !map.inLog(block)) {
                            map.markValid(block);
                            recorded++;
                        }
                    }
                    logged += recorded;
                }
                return recorded;
            } finally {
                synchronized (disk) {
                    copying.removeAll(batch);
                }
            }
        }
    }

    /**
     * Waits for a batch under way to end, then runs {@code then} and empties the queue under the disk's lock, before
     * another batch can start. Without the disk's lock.
     */
    void stop(Runnable then) {
        synchronized (batchLock) {
            synchronized (disk) {
                then.run();
                queue.clear();
            }
        }
    }
}
