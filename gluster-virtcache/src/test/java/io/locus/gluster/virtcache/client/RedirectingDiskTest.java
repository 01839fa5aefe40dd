package io.locus.gluster.virtcache.client;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.util.Arrays;
import java.util.Random;
import java.util.function.LongPredicate;
import org.junit.jupiter.api.Test;

class RedirectingDiskTest {
    static final int B = 4096;
    static final int DISK = 64 * B;

    final MemoryStores.Disk primary = new MemoryStores.Disk();
    final MemoryStores.Disk log = new MemoryStores.Disk();
    final MemoryStores.Log journal = new MemoryStores.Log();

    /** Blocks 0..15 are hot; with a 30% false-positive rate, about 30% of the others are claimed hot too. */
    static LongPredicate hotWithFalsePositives(double rate) {
        return b -> b < 16 || Math.floorMod(Long.hashCode(b * 0x9E3779B97F4A7C15L), 1000) < rate * 1000;
    }

    RedirectingDisk open(LongPredicate hot) throws IOException {
        return RedirectingDisk.open(primary, log, journal, B, hot);
    }

    @Test
    void readYourWrites_inEveryState_andThePrimaryCatchesUp() throws IOException {
        byte[] model = new byte[DISK];
        RedirectingDisk disk = open(hotWithFalsePositives(0));
        Random r = new Random(1);
        write(disk, model, r, 0, DISK);
        disk.flush();
        for (int i = 0; i < 16; i++) {
            disk.read(i * B, 100); // hot reads while NORMAL queue their blocks for the data logger
        }
        assertEquals(0, disk.loggedOnRead(), "nothing is copied on the request path");
        assertEquals(16, disk.blocksToLog());
        assertEquals(10, disk.logHotBlocks(10));
        assertEquals(6, disk.logHotBlocks(10));
        assertEquals(16, disk.loggedOnRead());
        assertReadsMatch(disk, model);

        disk.startRedirect();
        randomOps(disk, model, r, 200);
        assertTrue(disk.warm(1000) >= 16, "the logged hot blocks and the blocks written since are read to warm");
        assertEquals(RedirectState.REDIRECTED, disk.state());
        randomOps(disk, model, r, 300);
        assertTrue(disk.readsFromLog() > 0 && disk.writesToLog() > 0, "redirected I/O went to the log");
        byte[] primaryBefore = primary.contents();

        disk.endRedirect();
        randomOps(disk, model, r, 100);
        while (disk.state() == RedirectState.DRAINING) {
            disk.drain(5);
            assertReadsMatch(disk, model);
        }
        assertEquals(RedirectState.NORMAL, disk.state());
        assertEquals(0, disk.dirtyBlocks());
        assertArrayEquals(model, Arrays.copyOf(primary.contents(), DISK), "after draining the primary has it all");
        assertTrue(!Arrays.equals(primaryBefore, primary.contents()), "the drain changed the primary");
    }

    @Test
    void redirectedReads_countedByWhereTheyWent() throws IOException {
        RedirectingDisk disk = open(b -> b == 0);
        disk.write(0, new byte[2 * B]);
        disk.flush();
        disk.read(0, 100);
        assertEquals(1, disk.logHotBlocks(10));
        disk.startRedirect();
        disk.warm(1000);
        long fromLog = disk.readsFromLog();
        long fromPrimary = disk.readsFromPrimary();
        disk.read(0, 100); // hot and logged
        disk.read(B, 100); // not hot: still the primary's
        disk.read(B - 50, 100); // one block part each
        assertEquals(fromLog + 2, disk.readsFromLog());
        assertEquals(fromPrimary + 2, disk.readsFromPrimary());
    }

    @Test
    void warming_copiesHotBlocksWhoseLoggedCopyAWriteMadeStale() throws IOException {
        byte[] model = new byte[DISK];
        RedirectingDisk disk = open(b -> b < 4);
        Random r = new Random(9);
        write(disk, model, r, 0, DISK);
        disk.flush();
        for (int b = 0; b < 4; b++) {
            disk.read((long) b * B, 100);
        }
        assertEquals(4, disk.logHotBlocks(10));
        write(disk, model, r, B + 512, 1024); // block 1's logged copy is now stale
        write(disk, model, r, 6 * B, 100); // not hot: never copied
        disk.read(B, 100);
        assertEquals(0, disk.logHotBlocks(10), "not logged again under the same filter while NORMAL");

        disk.startRedirect();
        while (disk.state() == RedirectState.WARMING) {
            disk.warm(2);
        }
        assertEquals(1, disk.copiedWhileWarming());
        long fromPrimary = disk.readsFromPrimary();
        assertArrayEquals(Arrays.copyOfRange(model, B, 2 * B), disk.read(B, B));
        assertEquals(fromPrimary, disk.readsFromPrimary(), "block 1 is served by the log");
        randomOps(disk, model, r, 200);
        disk.endRedirect();
        while (disk.state() == RedirectState.DRAINING) {
            disk.drain(5);
        }
        assertArrayEquals(model, Arrays.copyOf(primary.contents(), DISK), "after draining the primary has it all");
    }

    @Test
    void wholeSectorRequests_oneLogCallEach_andReadYourWritesInEveryState() throws IOException {
        byte[] model = new byte[DISK];
        Random r = new Random(11);
        RedirectingDisk disk = filledAndRedirected(model, r);
        write(disk, model, r, 0, 2 * B); // blocks 0 and 1 now dirty and whole in the log
        int logReads = log.reads;
        int logWrites = log.writes;
        write(disk, model, r, B / 2, B); // a 64 KiB request across two blocks, as a VM disk's unaligned ones
        assertEquals(logWrites + 1, log.writes, "one write of the log for the request");
        assertArrayEquals(Arrays.copyOfRange(model, B / 2, B / 2 + B), disk.read(B / 2, B));
        assertEquals(logReads + 1, log.reads, "one read of the log for blocks it holds whole");

        for (int i = 0; i < 400; i++) {
            stateStep(disk, r);
            int len = 512 * (1 + r.nextInt(3 * B / 512));
            int off = 512 * r.nextInt((DISK - len) / 512);
            if (r.nextBoolean()) {
                write(disk, model, r, off, len);
            } else {
                assertArrayEquals(Arrays.copyOfRange(model, off, off + len), disk.read(off, len), "read at " + off);
            }
            if (r.nextInt(50) == 0) {
                disk.flush();
            }
        }
        assertReadsMatch(disk, model);
        if (disk.state() == RedirectState.WARMING || disk.state() == RedirectState.REDIRECTED) {
            disk.endRedirect();
        }
        while (disk.state() == RedirectState.DRAINING) {
            disk.drain(5);
        }
        assertArrayEquals(model, Arrays.copyOf(primary.contents(), DISK), "after draining the primary has it all");
    }

    @Test
    void injectedFalsePositives_neverReturnWrongData() throws IOException {
        byte[] model = new byte[DISK];
        RedirectingDisk disk = open(hotWithFalsePositives(0.3));
        Random r = new Random(2);
        write(disk, model, r, 0, DISK);
        randomOps(disk, model, r, 200);
        disk.flush();
        disk.startRedirect();
        disk.warm(Integer.MAX_VALUE);
        randomOps(disk, model, r, 500);
        // The filter changes between windows; blocks it no longer names are still read correctly.
        disk.setHotBlocks(hotWithFalsePositives(0.3).negate());
        randomOps(disk, model, r, 300);
        disk.endRedirect();
        while (disk.state() == RedirectState.DRAINING) {
            disk.drain(7);
            randomOps(disk, model, r, 5);
        }
        assertReadsMatch(disk, model);
        assertArrayEquals(model, Arrays.copyOf(primary.contents(), DISK));
    }

    @Test
    void crashWhileRedirected_keepsFlushedWrites_andEveryByteNoLaterWriteTouched() throws IOException {
        byte[] model = new byte[DISK];
        Random r = new Random(3);
        RedirectingDisk disk = filledAndRedirected(model, r);
        randomOps(disk, model, r, 200);
        assertTrue(disk.dirtyBlocks() > 0);
        disk.flush();
        boolean[] touched = new boolean[DISK];
        randomOps(disk, model, r, 40, touched);
        // The unflushed writes may be lost; half a record is torn.
        primary.crash();
        log.crash();
        journal.crash(BlockMap.RECORD_BYTES / 2);

        RedirectingDisk reopened = open(hotWithFalsePositives(0));
        assertEquals(RedirectState.DRAINING, reopened.state(), "dirty blocks force a drain");
        assertUntouchedMatch(reopened, model, touched, "");
        while (reopened.state() == RedirectState.DRAINING) {
            reopened.drain(3);
            assertUntouchedMatch(reopened, model, touched, "draining");
        }
        assertUntouchedMatch(reopened, model, touched, "drained");
    }

    @Test
    void redirectedWrites_areMadeDurableByOneSyncPerFlush() throws IOException {
        RedirectingDisk disk = open(hotWithFalsePositives(0));
        disk.startRedirect();
        disk.warm(Integer.MAX_VALUE);
        byte[] model = new byte[DISK];
        Random r = new Random(8);
        int logSyncs = log.flushes;
        int journalSyncs = journal.syncs;
        int records = journal.size() / BlockMap.RECORD_BYTES;
        for (int i = 0; i < 100; i++) {
            write(disk, model, r, r.nextInt(DISK - 100), 100);
        }
        assertEquals(logSyncs, log.flushes, "an acknowledged write is not synced by itself");
        assertEquals(records, journal.size() / BlockMap.RECORD_BYTES, "nor journaled");
        disk.flush();
        assertEquals(logSyncs + 1, log.flushes, "one sync of the log for the 100 writes");
        assertEquals(journalSyncs + 1, journal.syncs, "and one of the journal");
        assertEquals(records + disk.dirtyBlocks(), journal.size() / BlockMap.RECORD_BYTES, "one record per block");
        disk.flush();
        assertEquals(journalSyncs + 2, journal.syncs);
        assertEquals(records + disk.dirtyBlocks(), journal.size() / BlockMap.RECORD_BYTES, "nothing journaled twice");
        primary.crash();
        log.crash();
        journal.crash(0);
        assertReadsMatch(open(hotWithFalsePositives(0)), model);
    }

    @Test
    void journal_isCompactedWhenItGrows_andReplaysToTheSameDisk() throws IOException {
        RedirectingDisk disk = open(hotWithFalsePositives(0));
        disk.compactAbove(4096);
        byte[] model = new byte[DISK];
        Random r = new Random(9);
        int peak = 0;
        for (int round = 0; round < 30; round++) {
            disk.startRedirect();
            disk.warm(Integer.MAX_VALUE);
            for (int i = 0; i < 20; i++) {
                write(disk, model, r, r.nextInt(8 * B), 50);
            }
            disk.flush();
            peak = Math.max(peak, journal.size());
            disk.endRedirect();
            while (disk.state() == RedirectState.DRAINING) {
                disk.drain(2);
            }
            for (int b = 0; b < 16; b++) {
                disk.read((long) b * B, 10);
            }
            disk.logHotBlocks(16);
            write(disk, model, r, r.nextInt(16 * B), 10);
            disk.flush();
            peak = Math.max(peak, journal.size());
        }
        assertTrue(disk.compactions() > 0, "compacted while open");
        assertTrue(peak <= 4096 + 64 * BlockMap.RECORD_BYTES, "the journal stayed small: " + peak + " bytes at most");
        assertEquals(journal.size() / BlockMap.RECORD_BYTES, disk.journalRecords());
        disk.close();
        RedirectingDisk reopened = open(hotWithFalsePositives(0));
        assertTrue(reopened.journalRecords() <= 17, "after a clean close: OPENED and the logged blocks");
        assertReadsMatch(reopened, model);
        primary.crash();
        log.crash();
        journal.crash(0);
        assertReadsMatch(open(hotWithFalsePositives(0)), model);
    }

    @Test
    void validCopies_surviveACleanClose_butNotACrash() throws IOException {
        byte[] model = new byte[DISK];
        RedirectingDisk disk = open(hotWithFalsePositives(0));
        write(disk, model, new Random(10), 0, DISK);
        for (int b = 0; b < 16; b++) {
            disk.read((long) b * B, 10);
        }
        assertEquals(16, disk.logHotBlocks(100));
        // A write to the primary forgets the logged copy without a sync of the journal.
        write(disk, model, new Random(11), 3 * B, 10);
        disk.close();
        RedirectingDisk clean = open(hotWithFalsePositives(0));
        clean.startRedirect();
        assertEquals(15, clean.warm(100), "the 15 logged blocks still equal to the primary's are trusted");
        assertReadsMatch(clean, model);
        clean.endRedirect();
        clean.drain(1);
        for (int b = 0; b < 16; b++) {
            clean.read((long) b * B, 10);
        }
        assertEquals(1, clean.logHotBlocks(100), "the forgotten block is logged again");
        primary.crash();
        log.crash();
        journal.crash(0);
        RedirectingDisk crashed = open(hotWithFalsePositives(0));
        crashed.startRedirect();
        assertEquals(0, crashed.warm(100), "after a crash no valid copy is trusted");
        assertReadsMatch(crashed, model);
    }

    @Test
    void secondCrash_afterATornRecord_losesNothingWrittenInBetween() throws IOException {
        byte[] model = new byte[DISK];
        RedirectingDisk disk = open(hotWithFalsePositives(0));
        Random r = new Random(5);
        write(disk, model, r, 0, DISK);
        disk.flush();
        disk.startRedirect();
        randomOps(disk, model, r, 6);
        disk.flush();
        // The writer died 10 bytes into a record it never acknowledged.
        journal.append(new byte[] {3, 1, 2, 3, 4, 5, 6, 7, 8, 9});
        journal.crash(10);
        primary.crash();
        log.crash();
        RedirectingDisk second = open(hotWithFalsePositives(0));
        assertEquals(0, journal.size() % BlockMap.RECORD_BYTES, "the torn record is cut off");
        assertEquals(RedirectState.DRAINING, second.state());
        while (second.state() == RedirectState.DRAINING) {
            second.drain(100);
        }
        second.startRedirect();
        randomOps(second, model, r, 80);
        second.flush();
        journal.crash(0);
        primary.crash();
        log.crash();
        assertReadsMatch(open(hotWithFalsePositives(0)), model);
    }

    @Test
    void crashAtAnyPoint_ofARandomRun_keepsEveryByteNoUnflushedWriteTouched() throws IOException {
        for (int seed = 0; seed < 100; seed++) {
            MemoryStores.Disk p = new MemoryStores.Disk();
            MemoryStores.Disk l = new MemoryStores.Disk();
            MemoryStores.Log j = new MemoryStores.Log();
            Random r = new Random(seed);
            byte[] model = new byte[DISK];
            boolean[] touched = new boolean[DISK];
            RedirectingDisk disk = RedirectingDisk.open(p, l, j, B, hotWithFalsePositives(0.3));
            int steps = 50 + r.nextInt(300);
            for (int i = 0; i < steps; i++) {
                stateStep(disk, r);
                randomOps(disk, model, r, 1, touched);
                if (r.nextInt(4) == 0) {
                    disk.flush(); // the VM's flush: what was written before it is durable once it returns
                    Arrays.fill(touched, false);
                }
            }
            p.crash();
            l.crash();
            j.crash(r.nextInt(BlockMap.RECORD_BYTES));
            RedirectingDisk reopened = RedirectingDisk.open(p, l, j, B, hotWithFalsePositives(0.3));
            assertUntouchedMatch(reopened, model, touched, "seed " + seed);
            byte[] first = reopened.read(0, DISK);
            while (reopened.state() == RedirectState.DRAINING) {
                reopened.drain(4);
            }
            assertArrayEquals(first, reopened.read(0, DISK), "seed " + seed + ": draining changes no byte");
        }
    }

    @Test
    void aBlockWrittenAfterItWasLogged_isLoggedAgainOnlyUnderTheNextFilter() throws IOException {
        RedirectingDisk disk = open(hotWithFalsePositives(0));
        disk.read(2 * B, 10);
        assertEquals(1, disk.logHotBlocks(10));
        disk.write(2 * B, new byte[] {1});
        disk.read(2 * B, 10);
        assertEquals(0, disk.blocksToLog(), "the stale copy is not fetched again while the VM keeps writing it");
        disk.setHotBlocks(hotWithFalsePositives(0));
        disk.read(2 * B, 10);
        assertEquals(1, disk.logHotBlocks(10), "a new window's filter lets it be logged again");
        assertEquals(2, disk.loggedOnRead());
    }

    @Test
    void partialWrites_ofBlocksTheLogLacks_keepTheRestOfTheBlock() throws IOException {
        byte[] model = new byte[DISK];
        RedirectingDisk disk = open(hotWithFalsePositives(0));
        Random r = new Random(4);
        write(disk, model, r, 0, DISK);
        disk.flush();
        disk.startRedirect();
        write(disk, model, r, 40 * B + 100, 10); // block 40 was never logged
        assertArrayEquals(Arrays.copyOfRange(model, 40 * B, 41 * B), disk.read(40 * B, B));
    }

    @Test
    void aSectorWrite_toABlockTheLogLacks_readsNothingFromThePrimary_untilTheFlushFillsTheBlock() throws IOException {
        byte[] model = new byte[DISK];
        Random r = new Random(6);
        RedirectingDisk disk = filledAndRedirected(model, r);
        int primaryReads = primary.reads;
        write(disk, model, r, 40 * B + 1024, 512);
        write(disk, model, r, 40 * B + 2048, 1024);
        assertEquals(primaryReads, primary.reads, "whole sectors: nothing fetched from the primary");
        assertArrayEquals(Arrays.copyOfRange(model, 40 * B, 41 * B), disk.read(40 * B, B), "log and primary merged");
        write(disk, model, r, 41 * B + 100, 10);
        assertEquals(primaryReads + 1 + 2, primary.reads, "the merged read, and one sector's other bytes (twice)");
        disk.flush();
        // Journaled only once whole: after a crash both blocks read back from the log, and drain whole.
        primary.crash();
        log.crash();
        journal.crash(0);
        RedirectingDisk reopened = open(hotWithFalsePositives(0));
        assertEquals(2, reopened.dirtyBlocks());
        assertReadsMatch(reopened, model);
        while (reopened.state() == RedirectState.DRAINING) {
            reopened.drain(1);
        }
        assertArrayEquals(model, Arrays.copyOf(primary.contents(), DISK));
    }

    @Test
    void misuse_isRefusedWithTheStateNamed() throws IOException {
        RedirectingDisk disk = open(b -> false);
        IllegalStateException e = assertThrows(IllegalStateException.class, () -> disk.drain(1));
        assertTrue(e.getMessage().contains("drain in state NORMAL (expected: DRAINING)"), e.getMessage());
        assertThrows(IllegalStateException.class, disk::endRedirect);
        assertThrows(IllegalArgumentException.class, () -> disk.read(-1, 1));
        IllegalArgumentException size = assertThrows(
                IllegalArgumentException.class, () -> RedirectingDisk.open(primary, log, journal, 1000, b -> false));
        assertTrue(size.getMessage().contains("block size 1000"), size.getMessage());
    }

    /** A disk holding random bytes (mirrored in {@code model}), flushed, then redirected and warmed. */
    private RedirectingDisk filledAndRedirected(byte[] model, Random r) throws IOException {
        RedirectingDisk disk = open(hotWithFalsePositives(0));
        write(disk, model, r, 0, DISK);
        disk.flush();
        disk.startRedirect();
        disk.warm(Integer.MAX_VALUE);
        return disk;
    }

    private static void stateStep(RedirectingDisk disk, Random r) throws IOException {
        if (r.nextInt(20) != 0) {
            return;
        }
        switch (disk.state()) {
            case NORMAL -> {
                disk.logHotBlocks(r.nextInt(8));
                if (r.nextBoolean()) {
                    disk.startRedirect();
                }
            }
            case WARMING -> disk.warm(r.nextInt(8));
            case REDIRECTED -> disk.endRedirect();
            case DRAINING -> disk.drain(r.nextInt(8));
        }
    }

    private static void randomOps(RedirectingDisk disk, byte[] model, Random r, int n) throws IOException {
        randomOps(disk, model, r, n, new boolean[DISK]);
    }

    /** Random reads and writes; marks in {@code touched} the bytes written. */
    private static void randomOps(RedirectingDisk disk, byte[] model, Random r, int n, boolean[] touched)
            throws IOException {
        for (int i = 0; i < n; i++) {
            int len = 1 + r.nextInt(3 * B);
            int off = r.nextInt(DISK - len);
            if (r.nextBoolean()) {
                write(disk, model, r, off, len);
                Arrays.fill(touched, off, off + len, true);
            } else {
                assertArrayEquals(Arrays.copyOfRange(model, off, off + len), disk.read(off, len), "read at " + off);
            }
        }
    }

    private static void write(RedirectingDisk disk, byte[] model, Random r, int off, int len) throws IOException {
        byte[] data = new byte[len];
        r.nextBytes(data);
        disk.write(off, data);
        System.arraycopy(data, 0, model, off, len);
    }

    /** Every byte no write since the last flush touched reads as the model has it. */
    private static void assertUntouchedMatch(RedirectingDisk disk, byte[] model, boolean[] touched, String what)
            throws IOException {
        byte[] all = disk.read(0, DISK);
        for (int i = 0; i < DISK; i++) {
            if (!touched[i] && all[i] != model[i]) {
                throw new AssertionError(what + ": byte " + i + " (block " + i / B + ") is " + all[i] + ", flushed as "
                        + model[i] + ", in state " + disk.state());
            }
        }
    }

    private static void assertReadsMatch(RedirectingDisk disk, byte[] model) throws IOException {
        assertReadsMatch(disk, model, "");
    }

    private static void assertReadsMatch(RedirectingDisk disk, byte[] model, String what) throws IOException {
        for (int b = 0; b < DISK / B; b++) {
            assertArrayEquals(
                    Arrays.copyOfRange(model, b * B, (b + 1) * B),
                    disk.read((long) b * B, B),
                    what + " block " + b + " in state " + disk.state());
        }
    }
}
