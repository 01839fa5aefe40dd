package io.locus.gluster.virtcache.client;

import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.util.HashMap;
import java.util.Map;
import java.util.zip.CRC32C;

/**
 * What the log holds of each block, journaled so that a restarted client knows it: <b>valid</b> (the log's copy equals
 * the primary's) or <b>dirty</b> (the log's copy is newer: an acknowledged write the primary does not have yet), with
 * a version that grows with every logged write. Blocks absent from the map are neither.
 *
 * <p>Journal record, 25 bytes little-endian: type (1 = valid, 2 = forgotten, 3 = dirty, 4 = clean), block u64,
 * version u64, 4 bytes reserved, CRC-32C of the first 21 bytes u32. Replay stops at the first record that is short or
 * fails its CRC: only the last record can be torn, and it was never acknowledged. Not thread-safe.
 */
final class BlockMap {
    static final int RECORD_BYTES = 25;

    private static final byte VALID = 1;
    private static final byte FORGOTTEN = 2;
    private static final byte DIRTY = 3;
    private static final byte CLEAN = 4;

    private final Journal journal;
    private final Map<Long, Entry> entries = new HashMap<>();
    private int dirtyCount;

    record Entry(boolean dirty, long version) {}

    private BlockMap(Journal journal) {
        this.journal = journal;
    }

    /**
     * The map as the journal left it. A torn tail is cut off the journal, so that records appended later are not
     * hidden behind it at the next replay.
     */
    static BlockMap replay(Journal journal) throws java.io.IOException {
        BlockMap map = new BlockMap(journal);
        byte[] all = journal.readAll();
        ByteBuffer b = ByteBuffer.wrap(all).order(ByteOrder.LITTLE_ENDIAN);
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
            map.apply(type, block, version);
            b.position(at + RECORD_BYTES);
        }
        if (b.position() < all.length) {
            journal.truncate(b.position());
        }
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

    Iterable<Long> blocks() {
        return entries.keySet();
    }

    long[] dirtyBlocks() {
        return entries.entrySet().stream()
                .filter(e -> e.getValue().dirty())
                .mapToLong(Map.Entry::getKey)
                .sorted()
                .toArray();
    }

    /** The log now holds a copy equal to the primary's. */
    void markValid(long block) throws java.io.IOException {
        record(VALID, block, version(block));
    }

    /** The log's copy must not be used any more (the primary changed). */
    void forget(long block) throws java.io.IOException {
        record(FORGOTTEN, block, version(block));
    }

    /** The log's copy is newer than the primary's; returns the new version. */
    long markDirty(long block) throws java.io.IOException {
        long v = version(block) + 1;
        record(DIRTY, block, v);
        return v;
    }

    /** The primary caught up with the log's copy of this version. */
    void markClean(long block, long version) throws java.io.IOException {
        record(CLEAN, block, version);
    }

    void sync() throws java.io.IOException {
        journal.sync();
    }

    private void record(byte type, long block, long version) throws java.io.IOException {
        ByteBuffer b = ByteBuffer.allocate(RECORD_BYTES).order(ByteOrder.LITTLE_ENDIAN);
        b.put(type).putLong(block).putLong(version).putInt(0);
        CRC32C crc = new CRC32C();
        crc.update(b.array(), 0, RECORD_BYTES - 4);
        b.putInt((int) crc.getValue());
        journal.append(b.array());
        apply(type, block, version);
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
            default -> throw new IllegalStateException("journal record type " + type + " (expected: 1..4)");
        }
        if (entries.containsKey(block) && entries.get(block).dirty()) {
            dirtyCount++;
        }
    }
}
