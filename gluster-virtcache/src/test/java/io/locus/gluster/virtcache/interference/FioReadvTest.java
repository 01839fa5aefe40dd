package io.locus.gluster.virtcache.interference;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;

class FioReadvTest {

    @Test
    void brickCpuPerReadDividesTheRunsCpuByItsReads() {
        assertEquals(112_500.0, new FioReadv.Result(4000, 260, 8000, 900_000_000L).brickCpuNanosPerRead());
    }

    @Test
    void brickCpuPerReadIsUnknownWithoutReadsOrCpuTime() {
        assertTrue(Double.isNaN(new FioReadv.Result(0, 0, 0, 900_000_000L).brickCpuNanosPerRead()));
        assertTrue(Double.isNaN(new FioReadv.Result(4000, 260, 8000, 0).brickCpuNanosPerRead()));
    }
}
