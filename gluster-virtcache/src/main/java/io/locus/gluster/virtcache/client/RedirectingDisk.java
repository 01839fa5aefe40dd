package io.locus.gluster.virtcache.client;

import java.io.IOException;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.BitSet;
import java.util.Deque;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import java.util.function.LongPredicate;

/**
 * One virtual disk seen through VirtCache: reads and writes by byte offset, routed per block between the primary file
 * and its shadow image on the log volume according to the {@link RedirectState} (Arumugam, ch. 3, §3.7.3):
 *
 * <ul>
 *   <li>A read of a block whose newest copy is in the log (dirty) is served from the log in every state: reads see
 *       every acknowledged write.
 *   <li>While WARMING or REDIRECTED, a read of a hot block (the server's filter says so) is served from the log if the
 *       log holds it; a false positive of the filter finds no copy there and goes to the primary.
 *   <li>While NORMAL, a read of a hot block the log lacks is served by the primary and queues the block for the data
 *       logger, which copies queued blocks to the log off the request path ({@link #logHotBlocks}), so that a later
 *       redirection has them. A block whose logged copy a write made stale is logged again only under the next
 *       filter.
 *   <li>While WARMING or REDIRECTED, writes go to the log. A write of part of a block the log lacks writes only its
 *       sectors there (a sector it covers in part takes its other bytes from the primary); the next flush fills in the
 *       block's other sectors from the primary before journaling it, and until then reads merge the two.
 *   <li>While NORMAL or DRAINING, writes go to the primary; a logged copy of the block is first forgotten, and a dirty
 *       block is first copied back, so the log never serves data older than the primary's.
 * </ul>
 *
 * <p>Acknowledged is what a disk with a volatile write cache means by it: a write that returned is seen by every later
 * read, and it survives a crash of the client once a {@link #flush} that began after it has returned. A flush syncs the
 * primary and the log, then journals the blocks written to the log since the last flush in one append and syncs the
 * journal: one fsync per file for all the writes it covers, and concurrent flushes share one (group commit). A crash
 * loses at most writes that no completed flush covered; each of their bytes then reads as it was before or after the
 * write, and every other byte as the last flush left it.
 *
 * <p>The shadow image keeps block b at offset b·blockSize. A restarted disk replays the journal; if it finds dirty
 * blocks it starts DRAINING, whatever the state was.
 *
 * <p>The concerns live apart: which state routes a read where is {@link RedirectState}'s rule; flushes and the
 * journal are a {@link GroupCommit}; the queue of hot blocks for the log and its batches a {@link DataLogger}; this
 * class routes each block and keeps what the log holds of it.
 *
 * <p>Thread-safe, with one lock discipline. The disk's monitor ({@code this}) guards all state: the routing state,
 * the block map, the blocks held in part, the queues and the counters, including those the group commit and the data
 * logger keep. Reads, writes, draining, state changes and a journal compaction run under it with their I/O and the
 * syncs they must order (a disk's I/O is already serialised by the VM's block layer in most setups). Work that may run
 * beside the VM's I/O runs outside it under a lock of its own: a flush's syncs under the group commit's flush lock, a
 * data logger batch's copies under its batch lock; each takes the monitor inside its own lock for its bookkeeping,
 * never the other way round. Warming's reads and copies take no lock but the monitor, for their bookkeeping. So the
 * order is always: flush lock or batch lock (never both), then the monitor.
 */
public final class RedirectingDisk {
    /** The unit in which the log holds part of a block; writes of VM disks are whole sectors of this size. */
    static final int SECTOR_BYTES = 512;

    private final BlockStore primary;
    private final BlockStore log;
    private final BlockMap map;
    private final int blockSize;
    private volatile LongPredicate hot;
    private RedirectState state;
    private long readsFromLog;
    private long readsFromPrimary;
    private long writesToLog;

    /** Blocks the data logger or warming is copying to the log now; a write to one removes it, so its copy is not
     * trusted. */
    private final Set<Long> copying = new HashSet<>();
    /**
     * Blocks whose logged copy a write made stale in this filter's window: not logged again until the next filter, so
     * that a block the VM keeps writing does not keep the data logger copying it.
     */
    private final Set<Long> writtenSinceLogged = new HashSet<>();
    /**
     * Dirty blocks the log holds only in part, with the sectors it holds: a redirected write smaller than a block the
     * log lacked writes only its own sectors, and the next flush fills the rest from the primary before the block is
     * journaled. Reads merge the log's sectors with the primary's.
     */
    private final Map<Long, BitSet> partial = new HashMap<>();

    private final int sector;
    /** Logged blocks still to be read by warming. */
    private final Deque<Long> toWarm = new ArrayDeque<>();
    /**
     * Hot blocks whose logged copy a write made stale, still to be copied to the log by warming: else every read of
     * them while redirected would wait on the contended primary.
     */
    private final Deque<Long> toCopy = new ArrayDeque<>();

    private long copiedWhileWarming;

    private final GroupCommit commit;
    private final DataLogger logger;

    private RedirectingDisk(BlockStore primary, BlockStore log, BlockMap map, int blockSize, LongPredicate hot) {
        this.primary = primary;
        this.log = log;
        this.map = map;
        this.blockSize = blockSize;
        this.hot = hot;
        this.sector = Math.min(SECTOR_BYTES, blockSize);
        this.state = map.dirtyCount() > 0 ? RedirectState.DRAINING : RedirectState.NORMAL;
        this.commit = new GroupCommit(this, map, primary, log, partial::containsKey, this::fillPartial);
        this.logger = new DataLogger(this, map, primary, log, blockSize, copying);
    }

    /**
     * Opens a disk, replaying its journal and rewriting it compactly.
     *
     * @param hot which blocks the server's filter calls hot (false positives are harmless)
     * @throws IllegalArgumentException unless blockSize is a positive power of two
     */
    public static RedirectingDisk open(
            BlockStore primary, BlockStore log, Journal journal, int blockSize, LongPredicate hot) throws IOException {
        if (blockSize <= 0 || Integer.bitCount(blockSize) != 1) {
            throw new IllegalArgumentException("block size " + blockSize + " (expected: a power of two)");
        }
        return new RedirectingDisk(
                Objects.requireNonNull(primary, "primary"),
                Objects.requireNonNull(log, "log"),
                BlockMap.reopen(Objects.requireNonNull(journal, "journal")),
                blockSize,
                Objects.requireNonNull(hot, "hot"));
    }

    /** A new filter from the server (each window); blocks written since they were logged may be logged again. */
    public synchronized void setHotBlocks(LongPredicate hot) {
        this.hot = Objects.requireNonNull(hot, "hot");
        writtenSinceLogged.clear();
    }

    /** Compacts the journal at a flush once it exceeds {@code bytes} (and four times its live records). */
    synchronized void compactAbove(long bytes) {
        commit.compactAbove(bytes);
    }

    public synchronized RedirectState state() {
        return state;
    }

    public synchronized int dirtyBlocks() {
        return map.dirtyCount();
    }

    /** Hot blocks copied to the log by the data logger while NORMAL. */
    public synchronized long loggedOnRead() {
        return logger.logged();
    }

    /** Hot blocks queued for the data logger. */
    public synchronized int blocksToLog() {
        return logger.queued();
    }

    /** Whether the data logger has nothing queued and no batch under way. */
    public synchronized boolean dataLoggerIdle() {
        return logger.idle();
    }

    /** Block reads served from the log. */
    public synchronized long readsFromLog() {
        return readsFromLog;
    }

    /**
     * Block reads served by the primary while not NORMAL: while redirected, the reads of blocks that are not hot (or
     * hot but not yet in the log), which still wait on the contended server.
     */
    public synchronized long readsFromPrimary() {
        return readsFromPrimary;
    }

    /** Hot blocks copied from the primary to the log while WARMING (their logged copies had been made stale). */
    public synchronized long copiedWhileWarming() {
        return copiedWhileWarming;
    }

    /** Block writes that went to the log. */
    public synchronized long writesToLog() {
        return writesToLog;
    }

    /** Records in the journal now, and how many times it was compacted while open. */
    public synchronized long journalRecords() {
        return map.records();
    }

    public synchronized long compactions() {
        return commit.compactions();
    }

    /** Reads {@code length} bytes at {@code offset} (zeros past what was ever written). */
    public synchronized byte[] read(long offset, int length) throws IOException {
        checkRange(offset, length);
        if (state == RedirectState.NORMAL) {
            // No block is dirty while NORMAL: the whole request is one read of the primary, and queueing its hot
            // blocks for the data logger costs a filter lookup each.
            for (long b = offset / blockSize; b <= lastBlock(offset, length); b++) {
                noteHot(b);
            }
            return padded(primary.read(offset, length), length);
        }
        byte[] out = new byte[length];
        int done = 0;
        while (done < length) {
            long pos = offset + done;
            long block = pos / blockSize;
            int inBlock = (int) (pos % blockSize);
            int n = Math.min(length - done, blockSize - inBlock);
            if (logHoldsWhole(block)) {
                // Consecutive blocks the log holds whole are consecutive in the shadow image: one read for the run.
                int blocks = 1;
                while (done + n < length && logHoldsWhole(block + blocks)) {
                    n += Math.min(length - done - n, blockSize);
                    blocks++;
                }
                readsFromLog += blocks;
                System.arraycopy(padded(log.read(pos, n), n), 0, out, done, n);
                done += n;
                continue;
            }
            byte[] part = readBlockPart(block, inBlock, n);
            System.arraycopy(part, 0, out, done, part.length);
            done += n;
        }
        return out;
    }

    /**
     * Writes {@code data} at {@code offset}. Acknowledged when it returns: later reads see it, and the next completed
     * {@link #flush} makes it durable.
     */
    public synchronized void write(long offset, byte[] data) throws IOException {
        checkRange(offset, data.length);
        boolean redirected = state.redirects();
        if (state == RedirectState.NORMAL) {
            // No block is dirty while NORMAL: forget the logged copies the write makes stale, then one write.
            for (long b = offset / blockSize; b <= lastBlock(offset, data.length); b++) {
                forgetLogged(b);
            }
            primary.write(offset, data);
            return;
        }
        if (redirected && offset % sector == 0 && data.length % sector == 0) {
            // Whole sectors: every block part lands at its own offset of the shadow image, so the log takes the
            // request in one write, and the blocks' bookkeeping follows.
            log.write(offset, data);
            for (long pos = offset; pos < offset + data.length; ) {
                long block = pos / blockSize;
                int inBlock = (int) (pos % blockSize);
                int n = (int) Math.min(offset + data.length - pos, blockSize - inBlock);
                logPart(block, inBlock, n, null);
                map.markDirty(block);
                pos += n;
            }
            return;
        }
        int done = 0;
        while (done < data.length) {
            long pos = offset + done;
            long block = pos / blockSize;
            int inBlock = (int) (pos % blockSize);
            int n = Math.min(data.length - done, blockSize - inBlock);
            byte[] part = Arrays.copyOfRange(data, done, done + n);
            if (redirected) {
                logPart(block, inBlock, part.length, part);
                map.markDirty(block);
            } else {
                writeToPrimary(block, inBlock, part);
            }
            done += n;
        }
    }

    /**
     * Makes every write acknowledged before this call durable: syncs the primary and the log, then journals the blocks
     * newly dirty in the log with one append and one sync. The syncs run outside the disk's lock; a flush that finds
     * its writes covered by one that ran meanwhile returns without syncing again.
     */
    public void flush() throws IOException {
        commit.flush();
    }

    /** Flushes, then journals a clean close, after which the next client may trust the log's valid copies. */
    public void close() throws IOException {
        commit.close();
    }

    /**
     * The data logger: copies up to {@code maxBlocks} queued hot blocks from the primary to the log, with one sync of
     * the log for the batch, and records them valid. Runs while NORMAL without holding the disk's lock during the I/O;
     * a block written meanwhile is not recorded (its copy may be older). Returns how many blocks were recorded.
     */
    public int logHotBlocks(int maxBlocks) throws IOException {
        return logger.logBatch(maxBlocks, () -> state == RedirectState.NORMAL);
    }

    /** Waits up to {@code millis} for hot blocks to be queued for the data logger; whether any are. */
    public boolean awaitBlocksToLog(long millis) throws InterruptedException {
        return logger.await(millis);
    }

    /** NORMAL → WARMING: the detector chose this disk. Waits for a data logger batch in progress to end. */
    public void startRedirect() {
        logger.stop(() -> {
            requireState("startRedirect", RedirectState.NORMAL);
            state = RedirectState.WARMING;
            toWarm.clear();
            toWarm.addAll(map.blocks());
            toCopy.clear();
            writtenSinceLogged.stream()
                    .filter(b -> hot.test(b) && !map.inLog(b))
                    .sorted()
                    .forEach(toCopy::add);
        });
    }

    /**
     * Reads up to {@code maxBlocks} logged blocks (each once per redirection) to warm the cache servers, and copies
     * hot blocks whose logged copy a write made stale from the primary to the log, outside the disk's lock; returns
     * how many blocks it read or copied, and when none is left moves WARMING → REDIRECTED. A block written while its
     * copy is under way keeps the write: the copy is dropped.
     */
    public int warm(int maxBlocks) throws IOException {
        List<Long> batch = new ArrayList<>();
        List<Long> copies = new ArrayList<>();
        synchronized (this) {
            requireState("warm", RedirectState.WARMING);
            while (!toWarm.isEmpty() && batch.size() < maxBlocks) {
                batch.add(toWarm.poll());
            }
            while (!toCopy.isEmpty() && batch.size() + copies.size() < maxBlocks) {
                long block = toCopy.poll();
                if (!map.inLog(block) && !partial.containsKey(block)) {
                    copies.add(block);
                    copying.add(block);
                }
            }
        }
        for (long block : batch) {
            log.read(block * blockSize, blockSize);
        }
        try {
            copyToLog(copies);
        } finally {
            synchronized (this) {
                copying.removeAll(copies);
                if (toWarm.isEmpty() && toCopy.isEmpty() && state == RedirectState.WARMING) {
                    state = RedirectState.REDIRECTED;
                }
            }
        }
        return batch.size() + copies.size();
    }

    /**
     * Copies {@code blocks} from the primary to the log and records the copies valid once the log is synced, unless a
     * write reached a block meanwhile. The log is written under the disk's lock, after checking that no redirected
     * write put newer bytes there since.
     */
    private void copyToLog(List<Long> blocks) throws IOException {
        if (blocks.isEmpty()) {
            return;
        }
        List<Long> written = new ArrayList<>();
        for (long block : blocks) {
            byte[] data = padded(primary.read(block * blockSize, blockSize), blockSize);
            synchronized (this) {
                if (copying.contains(block) && !map.inLog(block) && !partial.containsKey(block)) {
                    log.write(block * blockSize, data);
                    written.add(block);
                }
            }
        }
        if (written.isEmpty()) {
            return;
        }
        log.flush();
        synchronized (this) {
            boolean redirected = state.redirects();
            for (long block : written) {
                if (redirected && copying.contains(block) && !map.inLog(block) && !partial.containsKey(block)) {
                    map.markValid(block);
                    writtenSinceLogged.remove(block);
                    copiedWhileWarming++;
                }
            }
        }
    }

    /** WARMING or REDIRECTED → DRAINING: the peak is over. */
    public synchronized void endRedirect() {
        if (!state.redirects()) {
            throw new IllegalStateException("endRedirect in state " + state + " (expected: WARMING or REDIRECTED)");
        }
        state = RedirectState.DRAINING;
        toWarm.clear();
        toCopy.clear();
    }

    /**
     * Copies up to {@code maxBlocks} dirty blocks back to the primary; when none is left, moves DRAINING → NORMAL.
     * Returns how many blocks were copied.
     */
    public synchronized int drain(int maxBlocks) throws IOException {
        requireState("drain", RedirectState.DRAINING);
        long[] dirty = map.dirtyBlocks();
        int n = Math.min(maxBlocks, dirty.length);
        long[] versions = new long[n];
        for (int i = 0; i < n; i++) {
            versions[i] = copyToPrimary(dirty[i]);
        }
        if (n > 0) {
            // The journal may call a block clean only once the primary's copy is durable.
            primary.flush();
            for (int i = 0; i < n; i++) {
                if (partial.remove(dirty[i]) != null) {
                    // Never journaled, and not a whole copy the log could serve later: forgotten, not clean.
                    map.forget(dirty[i]);
                } else {
                    map.markClean(dirty[i], versions[i]);
                }
            }
            map.sync();
        }
        if (map.dirtyCount() == 0) {
            state = RedirectState.NORMAL;
        }
        return n;
    }

    private void noteHot(long block) {
        if (logger.queued() < DataLogger.MAX_QUEUED
                && hot.test(block)
                && !map.inLog(block)
                && !writtenSinceLogged.contains(block)) {
            logger.queue(block);
        }
    }

    /** Whether a read of the block now goes to the log, which holds it whole (not a block written in part). */
    private boolean logHoldsWhole(long block) {
        return readsFromLog(block) && !partial.containsKey(block);
    }

    private boolean readsFromLog(long block) {
        return state.readsFromLog(block, map.isDirty(block), map.inLog(block), hot);
    }

    private byte[] readBlockPart(long block, int inBlock, int n) throws IOException {
        long logOffset = block * blockSize + inBlock;
        if (readsFromLog(block)) {
            readsFromLog++;
            BitSet present = partial.get(block);
            byte[] fromLog = padded(log.read(logOffset, n), n);
            if (present == null) {
                return fromLog;
            }
            int first = inBlock / sector;
            int last = (inBlock + n - 1) / sector;
            if (present.nextClearBit(first) > last) {
                return fromLog;
            }
            byte[] merged = padded(primary.read(logOffset, n), n);
            for (int s = present.nextSetBit(first); s >= 0 && s <= last; s = present.nextSetBit(s + 1)) {
                int from = Math.max(inBlock, s * sector) - inBlock;
                int to = Math.min(inBlock + n, (s + 1) * sector) - inBlock;
                System.arraycopy(fromLog, from, merged, from, to - from);
            }
            return merged;
        }
        readsFromPrimary++;
        return padded(primary.read(block * blockSize + inBlock, n), n);
    }

    /**
     * Logs {@code length} bytes written at {@code inBlock} of {@code block}: writes {@code part} to the log unless it
     * is null (the caller wrote whole sectors there already), and records which sectors the log holds of a block it
     * lacked.
     */
    private void logPart(long block, int inBlock, int length, byte[] part) throws IOException {
        writesToLog++;
        BitSet present = partial.get(block);
        if (map.inLog(block) && present == null) {
            if (part != null) {
                log.write(block * blockSize + inBlock, part);
            }
            return;
        }
        if (!map.inLog(block)) {
            if (length == blockSize) {
                if (part != null) {
                    log.write(block * blockSize, part);
                }
                return;
            }
            // Only the sectors written go to the log now: fetching the rest of the block from a contended primary is
            // what the redirection avoids. The next flush fills it in.
            present = new BitSet(blockSize / sector);
            partial.put(block, present);
        }
        int first = inBlock / sector;
        int last = (inBlock + length - 1) / sector;
        if (part == null) {
            present.set(first, last + 1);
            if (present.cardinality() == blockSize / sector) {
                partial.remove(block);
            }
            return;
        }
        int head = present.get(first) ? 0 : inBlock - first * sector;
        int end = inBlock + part.length;
        int tail = present.get(last) ? 0 : (last + 1) * sector - end;
        // A sector the write covers in part takes the rest of its bytes from the primary, so that the log holds it
        // whole.
        byte[] out = new byte[head + part.length + tail];
        if (head > 0) {
            System.arraycopy(padded(primary.read(block * blockSize + first * sector, head), head), 0, out, 0, head);
        }
        System.arraycopy(part, 0, out, head, part.length);
        if (tail > 0) {
            System.arraycopy(
                    padded(primary.read(block * blockSize + end, tail), tail), 0, out, head + part.length, tail);
        }
        log.write(block * blockSize + inBlock - head, out);
        present.set(first, last + 1);
        if (present.cardinality() == blockSize / sector) {
            partial.remove(block);
        }
    }

    /**
     * Before a flush journals them, the dirty blocks the log holds in part get the rest of their sectors from the
     * primary. The primary is read outside the disk's lock; a sector written meanwhile is kept, and a block drained
     * meanwhile is left alone.
     */
    private void fillPartial(List<BlockMap.Due> due) throws IOException {
        Map<Long, BitSet> blocks = new HashMap<>();
        synchronized (this) {
            for (BlockMap.Due d : due) {
                BitSet present = partial.get(d.block());
                if (present != null) {
                    blocks.put(d.block(), present);
                }
            }
        }
        for (Map.Entry<Long, BitSet> b : blocks.entrySet()) {
            long block = b.getKey();
            byte[] whole = padded(primary.read(block * blockSize, blockSize), blockSize);
            synchronized (this) {
                BitSet present = partial.get(block);
                if (present != b.getValue()) {
                    // Drained meanwhile (and perhaps written in part again): the primary read may predate the drain.
                    continue;
                }
                for (int s = present.nextClearBit(0); s < blockSize / sector; ) {
                    int e = Math.min(
                            blockSize / sector, present.nextSetBit(s) < 0 ? Integer.MAX_VALUE : present.nextSetBit(s));
                    log.write(block * blockSize + (long) s * sector, Arrays.copyOfRange(whole, s * sector, e * sector));
                    s = present.nextClearBit(e);
                }
                partial.remove(block);
            }
        }
    }

    private void writeToPrimary(long block, int inBlock, byte[] part) throws IOException {
        if (map.isDirty(block)) {
            long version = copyToPrimary(block);
            primary.flush();
            if (partial.remove(block) == null) {
                map.markClean(block, version);
                // Durably clean before the primary changes: a restart must not copy the older logged block over it.
                map.sync();
            }
        }
        forgetLogged(block);
        primary.write(block * blockSize + inBlock, part);
    }

    private void forgetLogged(long block) {
        copying.remove(block);
        if (map.inLog(block)) {
            // Neither written nor synced now: after a crash the journal's valid blocks are not trusted (see BlockMap),
            // so a lost FORGOTTEN record cannot make the older logged copy serve reads.
            map.forget(block);
            writtenSinceLogged.add(block);
        }
    }

    private long lastBlock(long offset, int length) {
        return length == 0 ? offset / blockSize : (offset + length - 1) / blockSize;
    }

    /** Writes the log's copy of a block to the primary; returns the version copied (not yet durable). */
    private long copyToPrimary(long block) throws IOException {
        long version = map.version(block);
        byte[] whole = padded(log.read(block * blockSize, blockSize), blockSize);
        BitSet present = partial.get(block);
        if (present == null) {
            primary.write(block * blockSize, whole);
            return version;
        }
        for (int s = present.nextSetBit(0); s >= 0; ) {
            int e = present.nextClearBit(s);
            primary.write(block * blockSize + (long) s * sector, Arrays.copyOfRange(whole, s * sector, e * sector));
            s = present.nextSetBit(e);
        }
        return version;
    }

    private void requireState(String op, RedirectState expected) {
        if (state != expected) {
            throw new IllegalStateException(op + " in state " + state + " (expected: " + expected + ")");
        }
    }

    static byte[] padded(byte[] b, int n) {
        return b.length == n ? b : Arrays.copyOf(b, n);
    }

    private static void checkRange(long offset, int length) {
        if (offset < 0 || length < 0 || offset + length < 0) {
            throw new IllegalArgumentException(
                    "I/O of " + length + " bytes at offset " + offset + " (expected: offset >= 0, length >= 0)");
        }
    }
}
