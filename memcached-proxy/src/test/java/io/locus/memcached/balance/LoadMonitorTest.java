package io.locus.memcached.balance;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.locus.memcached.balance.LoadMonitor.BackendLoad;
import java.util.List;
import org.junit.jupiter.api.Test;

class LoadMonitorTest {

    @Test
    void rates_divideByRealEpochLength_andCountersReset() {
        LoadMonitor m = new LoadMonitor(new double[] {1000, 2000}, 3);
        for (int i = 0; i < 300; i++) {
            m.recordRequest(0, i % 3 == 0);
            m.recordBucket(i % 3);
        }
        m.recordLatency(1, 100);
        m.recordLatency(1, 300);
        double[] buckets = new double[3];
        List<BackendLoad> loads = m.endEpoch(1.5, buckets); // a late epoch end: 300 ops over 1.5 s
        assertEquals(200, loads.get(0).opsPerSecond(), 1e-9);
        assertEquals(100 / 1.5, loads.get(0).writeOpsPerSecond(), 1e-9);
        assertEquals(0.2, loads.get(0).utilization(), 1e-9);
        assertEquals(-1, loads.get(0).meanLatencyNanos());
        assertEquals(200, loads.get(1).meanLatencyNanos());
        assertEquals(100 / 1.5, buckets[1], 1e-9);
        assertEquals(0, m.epochCount(0));
        assertEquals(0, m.endEpoch(1, null).get(0).opsPerSecond());
    }

    @Test
    void overloaded_meansAboveCapacity() {
        assertTrue(new BackendLoad(0, 1001, 0, 1000, -1).overloaded());
        assertEquals(false, new BackendLoad(0, 1000, 0, 1000, -1).overloaded());
    }

    @Test
    void badInput_isRejectedWithActualAndExpected() {
        assertEquals(
                "capacity of backend 1: 0.0 ops/s (expected: > 0)",
                assertThrows(IllegalArgumentException.class, () -> new LoadMonitor(new double[] {1, 0}, 0))
                        .getMessage());
        assertEquals(
                "backends: 0 (expected: >= 1)",
                assertThrows(IllegalArgumentException.class, () -> new LoadMonitor(new double[0], 0))
                        .getMessage());
        LoadMonitor m = new LoadMonitor(new double[] {1}, 2);
        assertEquals(
                "bucket rate array of length 1 (expected: 2)",
                assertThrows(IllegalArgumentException.class, () -> m.endEpoch(1, new double[1]))
                        .getMessage());
    }

    @Test
    void imbalance_measures() {
        double[] loads = {10, 20, 30, 40};
        assertEquals(25, Imbalance.mean(loads));
        assertEquals(10, Imbalance.dev(loads)); // |−15|+|−5|+5+15 = 40, /4
        assertEquals(0.4, Imbalance.rdev(loads));
        assertEquals(1.6, Imbalance.maxOverMean(loads));
        assertEquals(0, Imbalance.rdev(new double[] {0, 0}));
        assertEquals(0, Imbalance.maxOverMean(new double[0]));
    }
}
