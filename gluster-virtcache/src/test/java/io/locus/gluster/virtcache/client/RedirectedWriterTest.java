package io.locus.gluster.virtcache.client;

import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;

/** The crash check of the killed-writer tests passes what the durability contract allows and nothing else. */
class RedirectedWriterTest {
    static final int REGION = 100;
    static final int FLUSHED = 7;
    static final int ACKED = 9;

    /** A disk of 20 regions holding regions 0 to {@code upTo} as written. */
    private static byte[] written(int upTo) {
        byte[] disk = new byte[20 * REGION];
        for (int i = 0; i <= upTo; i++) {
            System.arraycopy(RedirectedWriter.region(i, REGION), 0, disk, i * REGION, REGION);
        }
        return disk;
    }

    private static AssertionError failure(byte[] disk) {
        return assertThrows(
                AssertionError.class, () -> RedirectedWriter.checkRegions(disk, REGION, ACKED, FLUSHED, "in the test"));
    }

    @Test
    void passes_everyOutcomeTheContractAllows() {
        for (int upTo = FLUSHED; upTo <= ACKED + 1; upTo++) {
            RedirectedWriter.checkRegions(written(upTo), REGION, ACKED, FLUSHED, "written up to " + upTo);
        }
        byte[] torn = written(FLUSHED);
        byte[] late = RedirectedWriter.region(ACKED + 1, REGION);
        System.arraycopy(late, 0, torn, (ACKED + 1) * REGION, REGION / 2);
        byte[] unflushed = RedirectedWriter.region(FLUSHED + 1, REGION);
        System.arraycopy(unflushed, 50, torn, (FLUSHED + 1) * REGION + 50, 30);
        RedirectedWriter.checkRegions(torn, REGION, ACKED, FLUSHED, "torn");
    }

    @Test
    void fails_onAFlushedWriteLost() {
        byte[] disk = written(ACKED);
        System.arraycopy(new byte[REGION], 0, disk, 3 * REGION, REGION);
        assertTrue(failure(disk).getMessage().startsWith("region 3, flushed"));
    }

    @Test
    void fails_onAByteOfAnUnflushedRegionThatIsNeitherOldNorNew() {
        byte[] disk = written(ACKED);
        disk[(ACKED) * REGION + 17] = (byte) (RedirectedWriter.region(ACKED, REGION)[17] + 1);
        if (disk[ACKED * REGION + 17] == 0) {
            disk[ACKED * REGION + 17] = 1;
        }
        assertTrue(failure(disk).getMessage().startsWith("region " + ACKED + " byte 17 is"));
    }

    @Test
    void fails_onAWriteBeyondTheOneInFlight() {
        byte[] disk = written(ACKED + 2);
        assertTrue(failure(disk).getMessage().startsWith("byte " + (ACKED + 2) * REGION + " (region "));
    }
}
