package io.locus.gluster.virtcache.client;

import java.io.IOException;
import java.util.List;
import java.util.function.LongPredicate;

/**
 * A disk's flushes as one group commit: a flush syncs the primary and the log, then journals every block newly dirty
 * in the log with one append and one sync of the journal, however many writes it covers; a flush whose writes one
 * that ran meanwhile covered returns without syncing again. At a flush the journal is compacted once it exceeds
 * {@link #COMPACT_ABOVE_BYTES} and four times what the live map needs.
 *
 * <p>Locks, as the disk's javadoc states them: flushes are serialised by this object's own lock, held across the
 * syncs; the disk's lock guards the map, the blocks the log holds in part and the counters here, and is taken inside
 * the flush lock for bookkeeping and for a compaction, never across the syncs of the data and the journal's append.
 */
final class GroupCommit {
    /** The journal is compacted at a flush once it exceeds this many bytes and four times its live records. */
    static final long COMPACT_ABOVE_BYTES = 1 << 20;

    /** Completes, before the syncs, the blocks the log holds in part among those about to be journaled. */
    interface PartialFill {
        void fill(List<BlockMap.Due> due) throws IOException;
    }

    private final Object disk;
    private final BlockMap map;
    private final BlockStore primary;
    private final BlockStore log;
    private final LongPredicate partial;
    private final PartialFill fill;
    private final Object flushLock = new Object();

    // Guarded by the disk's lock.
    private long flushesRequested;
    private long flushesCovered;
    private long compactAboveBytes = COMPACT_ABOVE_BYTES;
    private long compactions;

    /**
     * @param disk the disk's lock
     * @param partial whether the log holds a dirty block only in part (asked under the disk's lock)
     */
    GroupCommit(
            Object disk, BlockMap map, BlockStore primary, BlockStore log, LongPredicate partial, PartialFill fill) {
        this.disk = disk;
        this.map = map;
        this.primary = primary;
        this.log = log;
        this.partial = partial;
        this.fill = fill;
    }

    /** Makes every write acknowledged before this call durable. Called without the disk's lock. */
    void flush() throws IOException {
        long ticket;
        synchronized (disk) {
            ticket = ++flushesRequested;
        }
        synchronized (flushLock) {
            List<BlockMap.Due> due;
            long covers;
            synchronized (disk) {
                if (flushesCovered >= ticket) {
                    return;
                }
                covers = flushesRequested;
                due = map.dirtyToJournal();
            }
            fill.fill(due);
            primary.flush();
            // Data first, then the records that point at it: a durable DIRTY record must name durable bytes.
            log.flush();
            synchronized (disk) {
                map.journalDirty(due, partial);
            }
            map.sync();
            synchronized (disk) {
                flushesCovered = covers;
                if (map.journalBytes() > compactAboveBytes
                        && map.journalBytes() > 4L * BlockMap.RECORD_BYTES * (map.size() + 1)) {
                    // The compacted journal names every dirty block, so the bytes of all of them must be durable.
                    log.flush();
                    map.compact(partial);
                    compactions++;
                }
            }
        }
    }

    /** Flushes, then journals a clean close. Called without the disk's lock. */
    void close() throws IOException {
        flush();
        synchronized (flushLock) {
            synchronized (disk) {
                map.close();
            }
        }
    }

    /** Called under the disk's lock. */
    void compactAbove(long bytes) {
        compactAboveBytes = bytes;
    }

    /** Called under the disk's lock. */
    long compactions() {
        return compactions;
    }
}
