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
            disk.read(i * B, 100); // hot reads while NORMAL are logged
        }
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
    void crashWhileRedirected_losesNoAcknowledgedWrite() throws IOException {
        byte[] model = new byte[DISK];
        RedirectingDisk disk = open(hotWithFalsePositives(0));
        Random r = new Random(3);
        write(disk, model, r, 0, DISK);
        disk.flush();
        disk.startRedirect();
        disk.warm(Integer.MAX_VALUE);
        randomOps(disk, model, r, 200);
        assertTrue(disk.dirtyBlocks() > 0);
        // No flush: the redirected writes were durable when they were acknowledged. Half a record is torn.
        primary.crash();
        log.crash();
        journal.crash(BlockMap.RECORD_BYTES / 2);

        RedirectingDisk reopened = open(hotWithFalsePositives(0));
        assertEquals(RedirectState.DRAINING, reopened.state(), "dirty blocks force a drain");
        assertReadsMatch(reopened, model);
        while (reopened.state() == RedirectState.DRAINING) {
            reopened.drain(3);
            assertReadsMatch(reopened, model);
        }
        assertArrayEquals(model, Arrays.copyOf(primary.contents(), DISK));
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
        journal.crash(0);
        primary.crash();
        log.crash();
        assertReadsMatch(open(hotWithFalsePositives(0)), model);
    }

    @Test
    void crashAtAnyPoint_ofARandomRun_losesNoAcknowledgedWrite() throws IOException {
        for (int seed = 0; seed < 40; seed++) {
            MemoryStores.Disk p = new MemoryStores.Disk();
            MemoryStores.Disk l = new MemoryStores.Disk();
            MemoryStores.Log j = new MemoryStores.Log();
            Random r = new Random(seed);
            byte[] model = new byte[DISK];
            RedirectingDisk disk = RedirectingDisk.open(p, l, j, B, hotWithFalsePositives(0.3));
            int steps = 50 + r.nextInt(300);
            for (int i = 0; i < steps; i++) {
                stateStep(disk, r);
                randomOps(disk, model, r, 1);
                if (disk.state() == RedirectState.NORMAL || disk.state() == RedirectState.DRAINING) {
                    disk.flush(); // the VM's flush: writes to the primary are acknowledged once flushed
                }
            }
            p.crash();
            l.crash();
            j.crash(r.nextInt(BlockMap.RECORD_BYTES));
            RedirectingDisk reopened = RedirectingDisk.open(p, l, j, B, hotWithFalsePositives(0.3));
            assertReadsMatch(reopened, model, "seed " + seed);
        }
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

    private static void stateStep(RedirectingDisk disk, Random r) throws IOException {
        if (r.nextInt(20) != 0) {
            return;
        }
        switch (disk.state()) {
            case NORMAL -> disk.startRedirect();
            case WARMING -> disk.warm(r.nextInt(8));
            case REDIRECTED -> disk.endRedirect();
            case DRAINING -> disk.drain(r.nextInt(8));
        }
    }

    private static void randomOps(RedirectingDisk disk, byte[] model, Random r, int n) throws IOException {
        for (int i = 0; i < n; i++) {
            int len = 1 + r.nextInt(3 * B);
            int off = r.nextInt(DISK - len);
            if (r.nextBoolean()) {
                write(disk, model, r, off, len);
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
