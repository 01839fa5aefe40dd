package io.locus.gluster.virtcache.client;

import io.locus.gluster.gfapi.GlusterException;
import io.locus.gluster.gfapi.GlusterFile;
import io.locus.gluster.gfapi.GlusterVolume;
import io.locus.gluster.virtcache.hotblock.HotBlockFilter;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.Objects;
import java.util.concurrent.atomic.AtomicLong;

/**
 * A virtual disk file on a Gluster volume used through VirtCache: a {@link RedirectingDisk} whose primary is the file,
 * whose log is a shadow image {@code /<name>.vclog} and journal {@code /<name>.vcmap} on the log volume (bricks on
 * other servers), and whose hot blocks come from the {@code virtcache} translator's filter of the file.
 *
 * <p>Either the client redirects by itself, one {@link #poll} at a time on the caller's schedule (the translator's
 * verdict in {@code trusted.virtcache.state}, the revert rule of {@link RedirectPolicy}), or the caller drives it
 * ({@link #startRedirect}, {@link #warm}, {@link #endRedirect}, {@link #drain}). Thread-safe.
 */
public final class VirtCacheClient implements AutoCloseable {
    /** Blocks the data logger copies per batch, and its pause between batches: at most 10 MiB/s of 64 KiB blocks. */
    public static final int LOGGER_BATCH_BLOCKS = 8;

    public static final long LOGGER_PAUSE_MILLIS = 50;

    private final GlusterFile primaryFile;
    private final GlusterFile logFile;
    private final GlusterJournal journal;
    private final RedirectingDisk disk;
    private final Thread dataLogger;
    private volatile boolean closed;
    private volatile IOException loggerFailure;
    private volatile HotBlockFilter filter;
    private final AtomicLong ops = new AtomicLong();
    private final Object pollLock = new Object();
    private RedirectPolicy.Tracker tracker = new RedirectPolicy.Tracker(RedirectPolicy.DEFAULTS);
    private long lastPollNanos = System.nanoTime();
    private long lastPollOps;

    /** The translator's verdict on the disk's file. */
    public static final String STATE_XATTR = "trusted.virtcache.state";

    private VirtCacheClient(
            GlusterFile primaryFile, GlusterFile logFile, GlusterJournal journal, RedirectingDisk disk) {
        this.primaryFile = primaryFile;
        this.logFile = logFile;
        this.journal = journal;
        this.disk = disk;
        this.dataLogger = new Thread(this::runDataLogger, "virtcache-data-logger " + primaryFile.path());
        dataLogger.setDaemon(true);
    }

    /**
     * The data logger, off the request path: copies the hot blocks that reads found missing from the log, a bounded
     * batch at a time with a pause between batches, so that it never competes with the disk's own I/O for long.
     */
    private void runDataLogger() {
        try {
            while (!closed) {
                if (!disk.awaitBlocksToLog(1000)) {
                    continue;
                }
                disk.logHotBlocks(LOGGER_BATCH_BLOCKS);
                Thread.sleep(LOGGER_PAUSE_MILLIS);
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        } catch (IOException e) {
            // Only the cache is lost: reads and writes go on; the failure is reported by the next flush.
            loggerFailure = e;
        }
    }

    /**
     * Opens {@code path} on {@code primary} with its log on {@code logVolume}, replaying the journal a previous client
     * left (it then starts DRAINING if blocks were still dirty), and reads the current filter.
     *
     * @param blockSize must equal the translator's {@code block-size} (a power of two)
     * @throws IllegalArgumentException if the translator's filter uses another block size
     */
    public static VirtCacheClient open(GlusterVolume primary, GlusterVolume logVolume, String path, int blockSize)
            throws IOException {
        return open(primary, logVolume, path, blockSize, false);
    }

    /**
     * As {@link #open(GlusterVolume, GlusterVolume, String, int)}, with the primary file opened O_DIRECT if {@code
     * directPrimary} ({@link GlusterVolume#openDirect}: the disk's I/O on its home server reaches that server's device,
     * as a VM's with QEMU's {@code cache=none}). The log stays buffered: its server's page cache is the warmed cache.
     */
    public static VirtCacheClient open(
            GlusterVolume primary, GlusterVolume logVolume, String path, int blockSize, boolean directPrimary)
            throws IOException {
        Objects.requireNonNull(path, "path");
        String name = path.substring(path.lastIndexOf('/') + 1);
        if (name.isEmpty()) {
            throw new IllegalArgumentException("disk path \"" + path + "\" (expected: a file, e.g. /vm1.img)");
        }
        GlusterFile p = directPrimary ? primary.openDirect(path) : primary.open(path, true);
        GlusterFile log = openOrCreate(logVolume, "/" + name + ".vclog");
        String journalPath = "/" + name + ".vcmap";
        GlusterJournal journal = new GlusterJournal(logVolume, journalPath, openOrCreate(logVolume, journalPath));
        HotBlockFilter filter = HotBlockFilter.read(p::getxattr);
        checkBlockSize(filter, blockSize, path);
        RedirectingDisk disk = RedirectingDisk.open(
                new GlusterBlockStore(p), new GlusterBlockStore(log), journal, blockSize, filter::mightContain);
        VirtCacheClient c = new VirtCacheClient(p, log, journal, disk);
        c.filter = filter;
        c.dataLogger.start();
        return c;
    }

    /** Reads the translator's current filter of the file (after each of its windows). */
    public HotBlockFilter refreshHotBlocks() throws IOException {
        HotBlockFilter f = HotBlockFilter.read(primaryFile::getxattr);
        checkBlockSize(f, filter.blockSize(), primaryFile.path());
        filter = f;
        disk.setHotBlocks(f::mightContain);
        return f;
    }

    public HotBlockFilter hotBlocks() {
        return filter;
    }

    public byte[] read(long offset, int length) throws IOException {
        ops.incrementAndGet();
        return disk.read(offset, length);
    }

    public void write(long offset, byte[] data) throws IOException {
        ops.incrementAndGet();
        disk.write(offset, data);
    }

    /** Replaces the redirect policy (and forgets the old one's baseline). */
    public void setPolicy(RedirectPolicy policy) {
        synchronized (pollLock) {
            tracker = new RedirectPolicy.Tracker(Objects.requireNonNull(policy, "policy"));
        }
    }

    /** What one {@link #poll} saw and did. */
    public record Poll(boolean interfered, double iops, RedirectPolicy.Action action, RedirectState state) {}

    /**
     * One step of redirecting by itself: reads the translator's verdict, measures the disk's I/O rate since the last
     * poll, and acts on the policy's decision (at a redirection the filter is refreshed first, so that the hottest
     * blocks of the last window are the ones redirected; warming and draining move at most {@code batchBlocks}).
     */
    public Poll poll(int batchBlocks) throws IOException {
        synchronized (pollLock) {
            boolean interfered = interfered(primaryFile.getxattr(STATE_XATTR), primaryFile.path());
            long now = System.nanoTime();
            long count = ops.get();
            double seconds = Math.max(1e-9, (now - lastPollNanos) / 1e9);
            double iops = (count - lastPollOps) / seconds;
            lastPollNanos = now;
            lastPollOps = count;
            RedirectPolicy.Action action = tracker.decide(disk.state(), interfered, iops);
            switch (action) {
                case START_REDIRECT -> {
                    refreshHotBlocks();
                    disk.startRedirect();
                }
                case WARM -> disk.warm(batchBlocks);
                case END_REDIRECT -> disk.endRedirect();
                case DRAIN -> disk.drain(batchBlocks);
                case NONE -> {}
            }
            return new Poll(interfered, iops, action, disk.state());
        }
    }

    /**
     * Whether a {@code trusted.virtcache.state} value says {@code state=interfered}.
     *
     * @throws IllegalArgumentException if the value has no {@code state=normal} or {@code state=interfered} line
     */
    static boolean interfered(byte[] value, String path) {
        String text = new String(value, StandardCharsets.UTF_8);
        for (String line : text.split("\n")) {
            if (line.equals("state=interfered")) {
                return true;
            }
            if (line.equals("state=normal")) {
                return false;
            }
        }
        throw new IllegalArgumentException(STATE_XATTR + " of " + path + " is \"" + text.replace("\n", "\\n")
                + "\" (expected: a line state=normal or state=interfered)");
    }

    /**
     * Makes every write acknowledged before the call durable (one sync per file for all of them): what a VM's flush
     * or an NBD FLUSH asks for.
     *
     * @throws IOException also if the data logger failed since the last flush (the disk's data is not affected)
     */
    public void flush() throws IOException {
        disk.flush();
        IOException failed = loggerFailure;
        if (failed != null) {
            loggerFailure = null;
            throw new IOException(
                    "the data logger of " + primaryFile.path() + " stopped: " + failed.getMessage(), failed);
        }
    }

    /** The disk's size: the primary file's. */
    public long size() throws IOException {
        return primaryFile.stat().size();
    }

    public RedirectState state() {
        return disk.state();
    }

    public RedirectingDisk disk() {
        return disk;
    }

    public void startRedirect() {
        disk.startRedirect();
    }

    public int warm(int maxBlocks) throws IOException {
        return disk.warm(maxBlocks);
    }

    public void endRedirect() {
        disk.endRedirect();
    }

    public int drain(int maxBlocks) throws IOException {
        return disk.drain(maxBlocks);
    }

    /**
     * Stops the data logger, flushes, journals a clean close and closes the three files (the volumes stay open: they
     * are the caller's).
     */
    @Override
    public void close() throws IOException {
        closed = true;
        dataLogger.interrupt();
        IOException failure = null;
        try {
            dataLogger.join(60_000);
            disk.close();
        } catch (IOException e) {
            failure = e;
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            failure = new IOException("interrupted while closing " + primaryFile.path(), e);
        }
        for (GlusterFile f : new GlusterFile[] {primaryFile, logFile, journal.file()}) {
            try {
                f.close();
            } catch (GlusterException e) {
                if (failure == null) {
                    failure = e;
                } else {
                    failure.addSuppressed(e);
                }
            }
        }
        if (failure != null) {
            throw failure;
        }
    }

    /**
     * What the journal of {@code path} on {@code logVolume} says, without opening the disk: how many blocks the log
     * holds and how many of them are newer than the primary (a client that died while redirected leaves these).
     *
     * @return null if the disk has no journal on that volume
     */
    public static JournalSummary inspect(GlusterVolume logVolume, String path) throws IOException {
        String name = path.substring(path.lastIndexOf('/') + 1);
        GlusterFile journal;
        try {
            journal = logVolume.open("/" + name + ".vcmap", false);
        } catch (GlusterException e) {
            if (e.errno() == GlusterException.ENOENT) {
                return null;
            }
            throw e;
        }
        try (journal) {
            byte[] all = journal.read(0, Math.toIntExact(journal.stat().size()));
            BlockMap map = BlockMap.replay(new ReadOnlyJournal(all));
            return new JournalSummary(map.records(), map.size(), map.dirtyCount());
        }
    }

    /** A disk's journal: records, blocks the log holds, blocks newer there than on the primary. */
    public record JournalSummary(long records, int loggedBlocks, int dirtyBlocks) {}

    /** Replays without changing anything (a torn tail is left for the disk's next real open to cut). */
    private record ReadOnlyJournal(byte[] bytes) implements Journal {
        @Override
        public void append(byte[] record) {
            throw new UnsupportedOperationException("read-only journal");
        }

        @Override
        public void sync() {}

        @Override
        public byte[] readAll() {
            return bytes;
        }

        @Override
        public void replace(byte[] contents) {
            throw new UnsupportedOperationException("read-only journal");
        }
    }

    private static GlusterFile openOrCreate(GlusterVolume volume, String path) throws GlusterException {
        try {
            return volume.open(path, true);
        } catch (GlusterException e) {
            if (e.errno() != GlusterException.ENOENT) {
                throw e;
            }
            return volume.create(path);
        }
    }

    private static void checkBlockSize(HotBlockFilter f, int blockSize, String path) {
        if (f.blockSize() != blockSize) {
            throw new IllegalArgumentException("the translator counts " + path + " in blocks of " + f.blockSize()
                    + " bytes (expected: " + blockSize + ", the client's block size)");
        }
    }
}
