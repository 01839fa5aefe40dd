package io.locus.gluster.virtcache.client;

import java.io.IOException;
import java.util.Objects;
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
 *   <li>While NORMAL, a read of a hot block the log lacks copies the whole block into the log (the data logger), so a
 *       later redirection has it.
 *   <li>While WARMING or REDIRECTED, writes go to the log (whole blocks; a partial write of a block the log lacks
 *       first fetches it from the primary) and are acknowledged once the block map's journal is synced.
 *   <li>While NORMAL or DRAINING, writes go to the primary; a logged copy of the block is first forgotten (journaled),
 *       and a dirty block is first copied back, so the log never serves data older than the primary's.
 * </ul>
 *
 * The shadow image keeps block b at offset b·blockSize. A restarted disk replays the journal; if it finds dirty blocks
 * it starts DRAINING, whatever the state was. Thread-safe: one lock serialises all operations (a disk's I/O is
 * already serialised by the VM's block layer in most setups).
 */
public final class RedirectingDisk {
    private final BlockStore primary;
    private final BlockStore log;
    private final BlockMap map;
    private final int blockSize;
    private volatile LongPredicate hot;
    private RedirectState state;
    private long loggedOnRead;
    private long readsFromLog;
    private long writesToLog;

    private RedirectingDisk(BlockStore primary, BlockStore log, BlockMap map, int blockSize, LongPredicate hot) {
        this.primary = primary;
        this.log = log;
        this.map = map;
        this.blockSize = blockSize;
        this.hot = hot;
        this.state = map.dirtyCount() > 0 ? RedirectState.DRAINING : RedirectState.NORMAL;
    }

    /**
     * Opens a disk, replaying its journal.
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
                BlockMap.replay(Objects.requireNonNull(journal, "journal")),
                blockSize,
                Objects.requireNonNull(hot, "hot"));
    }

    /** A new filter from the server (each window). */
    public void setHotBlocks(LongPredicate hot) {
        this.hot = Objects.requireNonNull(hot, "hot");
    }

    public synchronized RedirectState state() {
        return state;
    }

    public synchronized int dirtyBlocks() {
        return map.dirtyCount();
    }

    /** Hot blocks copied to the log by reads while NORMAL. */
    public synchronized long loggedOnRead() {
        return loggedOnRead;
    }

    /** Block reads served from the log. */
    public synchronized long readsFromLog() {
        return readsFromLog;
    }

    /** Block writes that went to the log. */
    public synchronized long writesToLog() {
        return writesToLog;
    }

    /** Reads {@code length} bytes at {@code offset} (zeros past what was ever written). */
    public synchronized byte[] read(long offset, int length) throws IOException {
        checkRange(offset, length);
        byte[] out = new byte[length];
        int done = 0;
        while (done < length) {
            long pos = offset + done;
            long block = pos / blockSize;
            int inBlock = (int) (pos % blockSize);
            int n = Math.min(length - done, blockSize - inBlock);
            byte[] part = readBlockPart(block, inBlock, n);
            System.arraycopy(part, 0, out, done, part.length);
            done += n;
        }
        return out;
    }

    /** Writes {@code data} at {@code offset}; durable in the log before it returns when the write is redirected. */
    public synchronized void write(long offset, byte[] data) throws IOException {
        checkRange(offset, data.length);
        boolean redirected = state == RedirectState.WARMING || state == RedirectState.REDIRECTED;
        java.util.List<Long> logged = new java.util.ArrayList<>();
        int done = 0;
        while (done < data.length) {
            long pos = offset + done;
            long block = pos / blockSize;
            int inBlock = (int) (pos % blockSize);
            int n = Math.min(data.length - done, blockSize - inBlock);
            byte[] part = java.util.Arrays.copyOfRange(data, done, done + n);
            if (redirected) {
                writeToLog(block, inBlock, part);
                logged.add(block);
            } else {
                writeToPrimary(block, inBlock, part);
            }
            done += n;
        }
        if (redirected) {
            // Data first, then the map that points at it: a journal naming a block dirty whose bytes never reached
            // the log would serve garbage after a crash.
            log.flush();
            for (long block : logged) {
                map.markDirty(block);
            }
            map.sync();
        }
    }

    /** Makes every acknowledged write durable where it lives. */
    public synchronized void flush() throws IOException {
        primary.flush();
        log.flush();
        map.sync();
    }

    /** NORMAL → WARMING: the detector chose this disk. */
    public synchronized void startRedirect() {
        requireState("startRedirect", RedirectState.NORMAL);
        state = RedirectState.WARMING;
    }

    /**
     * Reads up to {@code maxBlocks} logged blocks to warm the cache servers; returns how many, and after the last one
     * moves WARMING → REDIRECTED.
     */
    public synchronized int warm(int maxBlocks) throws IOException {
        requireState("warm", RedirectState.WARMING);
        int n = 0;
        for (long block : map.blocks()) {
            if (n == maxBlocks) {
                return n;
            }
            log.read(block * blockSize, blockSize);
            n++;
        }
        state = RedirectState.REDIRECTED;
        return n;
    }

    /** WARMING or REDIRECTED → DRAINING: the peak is over. */
    public synchronized void endRedirect() {
        if (state != RedirectState.WARMING && state != RedirectState.REDIRECTED) {
            throw new IllegalStateException("endRedirect in state " + state + " (expected: WARMING or REDIRECTED)");
        }
        state = RedirectState.DRAINING;
    }

    /**
     * Copies up to {@code maxBlocks} dirty blocks back to the primary; when none is left, flushes the primary and
     * moves DRAINING → NORMAL. Returns how many blocks were copied.
     */
    public synchronized int drain(int maxBlocks) throws IOException {
        requireState("drain", RedirectState.DRAINING);
        long[] dirty = map.dirtyBlocks();
        int n = Math.min(maxBlocks, dirty.length);
        long[] versions = new long[n];
        for (int i = 0; i < n; i++) {
            versions[i] = copyToPrimary(dirty[i]);
        }
        // The journal may call a block clean only once the primary's copy is durable.
        primary.flush();
        for (int i = 0; i < n; i++) {
            map.markClean(dirty[i], versions[i]);
        }
        map.sync();
        if (map.dirtyCount() == 0) {
            state = RedirectState.NORMAL;
        }
        return n;
    }

    private byte[] readBlockPart(long block, int inBlock, int n) throws IOException {
        long logOffset = block * blockSize + inBlock;
        boolean redirected = state == RedirectState.WARMING || state == RedirectState.REDIRECTED;
        if (map.isDirty(block) || (redirected && map.inLog(block) && hot.test(block))) {
            readsFromLog++;
            return padded(log.read(logOffset, n), n);
        }
        if (state == RedirectState.NORMAL && hot.test(block) && !map.inLog(block)) {
            byte[] whole = padded(primary.read(block * blockSize, blockSize), blockSize);
            log.write(block * blockSize, whole);
            // The copy must be durable before the map vouches for it.
            log.flush();
            map.markValid(block);
            loggedOnRead++;
            return java.util.Arrays.copyOfRange(whole, inBlock, inBlock + n);
        }
        return padded(primary.read(block * blockSize + inBlock, n), n);
    }

    private void writeToLog(long block, int inBlock, byte[] part) throws IOException {
        if (!map.inLog(block) && part.length < blockSize) {
            // The log needs the whole block before a part of it can be newer there.
            byte[] whole = padded(primary.read(block * blockSize, blockSize), blockSize);
            System.arraycopy(part, 0, whole, inBlock, part.length);
            log.write(block * blockSize, whole);
        } else {
            log.write(block * blockSize + inBlock, part);
        }
        writesToLog++;
    }

    private void writeToPrimary(long block, int inBlock, byte[] part) throws IOException {
        if (map.isDirty(block)) {
            long version = copyToPrimary(block);
            primary.flush();
            map.markClean(block, version);
        }
        if (map.inLog(block)) {
            // Durably forgotten before the primary changes: a restart must never serve the older logged copy.
            map.forget(block);
            map.sync();
        }
        primary.write(block * blockSize + inBlock, part);
    }

    /** Writes the log's copy of a block to the primary; returns the version copied (not yet durable). */
    private long copyToPrimary(long block) throws IOException {
        long version = map.version(block);
        byte[] whole = padded(log.read(block * blockSize, blockSize), blockSize);
        primary.write(block * blockSize, whole);
        return version;
    }

    private void requireState(String op, RedirectState expected) {
        if (state != expected) {
            throw new IllegalStateException(op + " in state " + state + " (expected: " + expected + ")");
        }
    }

    private static byte[] padded(byte[] b, int n) {
        return b.length == n ? b : java.util.Arrays.copyOf(b, n);
    }

    private static void checkRange(long offset, int length) {
        if (offset < 0 || length < 0 || offset + length < 0) {
            throw new IllegalArgumentException(
                    "I/O of " + length + " bytes at offset " + offset + " (expected: offset >= 0, length >= 0)");
        }
    }
}
