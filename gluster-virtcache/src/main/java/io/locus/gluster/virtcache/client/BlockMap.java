package io.locus.gluster.virtcache.client;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.function.LongPredicate;
import java.util.zip.CRC32C;

/**
 * What the log holds of each block, journaled so that a restarted client knows it: <b>valid</b> (the log's copy equals
 * the primary's) or <b>dirty</b> (the log's copy is newer than the primary's), with a version that grows with every
 * logged write. Blocks absent from the map are neither.
 *
 * <p>Two kinds of knowledge survive a crash differently. A dirty block is journaled only at a flush, after the log's
 * data is synced ({@link #dirtyToJournal}, {@link #journalDirty}): a durable DIRTY record always names durable bytes.
 * A valid block is only a cache of the primary, and forgetting one is journaled without a sync; so valid blocks are
 * trusted at replay only if the journal ends with the CLOSED record of a clean close, and dropped otherwise; a
 * FORGOTTEN record is even written only together with the next record.
 *
 * <p>Journal record, 25 bytes little-endian: type (1 = valid, 2 = forgotten, 3 = dirty, 4 = clean, 5 = opened, 6 =
 * closed), block u64, version u64, 4 bytes reserved, CRC-32C of the first 21 bytes u32. Replay stops at the first
 * record that is short or fails its CRC: only the tail can be torn, and it was never made durable by a completed
 * flush. Not thread-safe.
 */
final class BlockMap {
    static final int RECORD_BYTES = 25;

    private static final byte VALID = 1;
    private static final byte FORGOTTEN = 2;
    private static final byte DIRTY = 3;
    private static final byte CLEAN = 4;
    private static final byte OPENED = 5;
    private static final byte CLOSED = 6;

    private final Journal journal;
    private final Map<Long, Entry> entries = new HashMap<>();
    /** Dirty blocks whose DIRTY record is not in the journal yet. */
    private final java.util.Set<Long> unjournaled = new LinkedHashSet<>();

    /** FORGOTTEN records not appended yet (see {@link #forget}). */
    private final ByteArrayOutputStream unwrittenForgets = new ByteArrayOutputStream();

    private int dirtyCount;
    private long journalBytes;
    private long records;

    record Entry(boolean dirty, long version) {}

    private BlockMap(Journal journal) {
        this.journal = journal;
    }

    /** The map as the journal left it; changes nothing (see {@link #reopen} for a client that takes the disk over). */
    static BlockMap replay(Journal journal) throws IOException {
        BlockMap map = new BlockMap(journal);
        byte[] all = journal.readAll();
        ByteBuffer b = ByteBuffer.wrap(all).order(ByteOrder.LITTLE_ENDIAN);
        boolean closed = true;
        while (b.remaining() >= RECORD_BYTES) {
            int at = b.position();
            CRC32C crc = new CRC32C();
            crc.update(b.array(), at, RECORD_BYTES - 4);
            if ((int) crc.getValue() != b.getInt(at + RECORD_BYTES - 4)) {
                break;
            }
            byte type = b.get(at);
            long block = b.getLong(at + 1);
            long version = b.getLong(at + 9);
            if (type == OPENED) {
                if (!closed) {
                    map.dropValid();
                }
                closed = false;
            } else if (type == CLOSED) {
                closed = true;
            } else {
                map.apply(type, block, version);
            }
            map.records++;
            b.position(at + RECORD_BYTES);
        }
        if (!closed) {
            map.dropValid();
        }
        map.journalBytes = b.position();
        return map;
    }

    /**
     * Replays the journal and starts a session on it: the journal is rewritten compactly (which also drops a torn
     * tail), beginning with an OPENED record, so that a crash of this session cannot be taken for a clean close.
     */
    static BlockMap reopen(Journal journal) throws IOException {
        BlockMap map = replay(journal);
        map.compact(b -> false);
        return map;
    }

    boolean isDirty(long block) {
        Entry e = entries.get(block);
        return e != null && e.dirty();
    }

    /** The log's copy may serve reads: it is valid or dirty. */
    boolean inLog(long block) {
        return entries.containsKey(block);
    }

    long version(long block) {
        Entry e = entries.get(block);
        return e == null ? 0 : e.version();
    }

    int dirtyCount() {
        return dirtyCount;
    }

    int size() {
        return entries.size();
    }

    /** Bytes in the journal now. */
    long journalBytes() {
        return journalBytes;
    }

    /** Whole records in the journal now. */
    long records() {
        return records;
    }

    List<Long> blocks() {
        return new ArrayList<>(entries.keySet());
    }

    long[] dirtyBlocks() {
        return entries.entrySet().stream()
                .filter(e -> e.getValue().dirty())
                .mapToLong(Map.Entry::getKey)
                .sorted()
                .toArray();
    }

    /** The log now holds a durable copy equal to the primary's. */
    void markValid(long block) throws IOException {
        record(VALID, block, version(block));
    }

    /**
     * The log's copy must not be used any more (the primary changed). Only a valid copy is ever forgotten, so the
     * record is not written at once but with the next record appended (or at a compaction, which makes it
     * unnecessary): a crash drops valid copies anyway, and a clean close appends CLOSED after it.
     */
    void forget(long block) {
        unwrittenForgets.writeBytes(encode(FORGOTTEN, block, version(block)));
        apply(FORGOTTEN, block, version(block));
        unjournaled.remove(block);
    }

    /**
     * The log's copy is newer than the primary's; returns the new version. Journaled only by {@link #journalDirty}, at
     * the next flush: until then a crash forgets the write, as a disk's volatile cache would.
     */
    long markDirty(long block) {
        long v = version(block) + 1;
        apply(DIRTY, block, v);
        unjournaled.add(block);
        return v;
    }

    /** A dirty block due for the journal, at the version whose bytes the flush syncs. */
    record Due(long block, long version) {}

    /** The dirty blocks whose records the next flush must journal once the log's data is synced. */
    List<Due> dirtyToJournal() {
        List<Due> due = new ArrayList<>(unjournaled.size());
        for (long block : unjournaled) {
            due.add(new Due(block, version(block)));
        }
        return due;
    }

    /**
     * Appends, in one write, the DIRTY records of those of {@code due} that are still dirty (the log's bytes of each
     * were synced after {@link #dirtyToJournal} named it). A block written again since stays due for the next flush, and
     * so does one the log does not hold whole ({@code notWhole}): a DIRTY record vouches for the whole block.
     */
    void journalDirty(List<Due> due, LongPredicate notWhole) throws IOException {
        ByteArrayOutputStream batch = new ByteArrayOutputStream();
        for (Due d : due) {
            Entry e = entries.get(d.block());
            if (e == null || !e.dirty() || notWhole.test(d.block())) {
                continue;
            }
            batch.writeBytes(encode(DIRTY, d.block(), d.version()));
            if (e.version() == d.version()) {
                unjournaled.remove(d.block());
            }
        }
        if (batch.size() > 0) {
            append(batch.toByteArray());
        }
    }

    /** The primary caught up with the log's copy of this version. */
    void markClean(long block, long version) throws IOException {
        unjournaled.remove(block);
        record(CLEAN, block, version);
    }

    /** A clean close: every record before is durable and every valid block may be trusted by the next client. */
    void close() throws IOException {
        append(encode(CLOSED, 0, 0));
        journal.sync();
    }

    void sync() throws IOException {
        journal.sync();
    }

    /**
     * Rewrites the journal as an OPENED record and one record per block the log holds whole ({@code notWhole} names the
     * others, which stay due); the log's bytes must be durable (every dirty block is named, whether journaled before or
     * not).
     */
    void compact(LongPredicate notWhole) throws IOException {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        out.writeBytes(encode(OPENED, 0, 0));
        for (Map.Entry<Long, Entry> e : entries.entrySet()) {
            if (notWhole.test(e.getKey())) {
                continue;
            }
            out.writeBytes(encode(
                    e.getValue().dirty() ? DIRTY : VALID,
                    e.getKey(),
                    e.getValue().version()));
        }
        byte[] bytes = out.toByteArray();
        journal.replace(bytes);
        unjournaled.removeIf(b -> !notWhole.test(b));
        unwrittenForgets.reset();
        journalBytes = bytes.length;
        records = bytes.length / RECORD_BYTES;
    }

    private void record(byte type, long block, long version) throws IOException {
        append(encode(type, block, version));
        apply(type, block, version);
    }

    private void append(byte[] bytes) throws IOException {
        if (unwrittenForgets.size() > 0) {
            // In order: a block forgotten and then logged again must replay as logged.
            unwrittenForgets.writeBytes(bytes);
            bytes = unwrittenForgets.toByteArray();
            unwrittenForgets.reset();
        }
        journal.append(bytes);
        journalBytes += bytes.length;
        records += bytes.length / RECORD_BYTES;
    }

    private static byte[] encode(byte type, long block, long version) {
        ByteBuffer b = ByteBuffer.allocate(RECORD_BYTES).order(ByteOrder.LITTLE_ENDIAN);
        b.put(type).putLong(block).putLong(version).putInt(0);
        CRC32C crc = new CRC32C();
        crc.update(b.array(), 0, RECORD_BYTES - 4);
        b.putInt((int) crc.getValue());
        return b.array();
    }

    private void dropValid() {
        entries.values().removeIf(e -> !e.dirty());
    }

    private void apply(byte type, long block, long version) {
        Entry old = entries.get(block);
        if (old != null && old.dirty()) {
            dirtyCount--;
        }
        switch (type) {
            case VALID, CLEAN -> entries.put(block, new Entry(false, version));
            case FORGOTTEN -> entries.remove(block);
            case DIRTY -> entries.put(block, new Entry(true, version));
            default -> throw new IllegalStateException("journal record type " + type + " (expected: 1..6)");
        }
        if (entries.containsKey(block) && entries.get(block).dirty()) {
            dirtyCount++;
        }
    }
}
