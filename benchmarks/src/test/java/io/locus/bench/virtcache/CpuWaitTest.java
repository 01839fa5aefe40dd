package io.locus.bench.virtcache;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;

class CpuWaitTest {

    @Test
    void parsesRunAndWait() {
        assertEquals(new CpuWait(89836043, 269593866), CpuWait.parse("89836043 269593866 355\n"));
        assertEquals(new CpuWait(5, 7), new CpuWait(15, 17).minus(new CpuWait(10, 10)));
    }

    @Test
    void malformedLineIsNamed() {
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> CpuWait.parse("12 x 3"));
        assertEquals("schedstat \"12 x 3\" (expected: three numbers: run ns, wait ns, timeslices)", e.getMessage());
    }

    @Test
    void thisProcessHasRun() {
        CpuWait self = CpuWait.of(ProcessHandle.current().pid());
        assertTrue(self.runNanos() > 0, self.toString());
        assertEquals(new CpuWait(0, 0), CpuWait.of(Long.MAX_VALUE));
    }
}
