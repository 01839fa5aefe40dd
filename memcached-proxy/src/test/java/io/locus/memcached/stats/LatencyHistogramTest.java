package io.locus.memcached.stats;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.quicktheories.QuickTheory.qt;
import static org.quicktheories.generators.SourceDSL.integers;
import static org.quicktheories.generators.SourceDSL.lists;
import static org.quicktheories.generators.SourceDSL.longs;

import java.lang.management.ManagementFactory;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import org.junit.jupiter.api.Test;
import org.quicktheories.core.Gen;
import org.quicktheories.generators.Generate;

/** The per-tenant latency histogram: quantiles within its precision of the exact ones, lossless and garbage-free. */
class LatencyHistogramTest {
    /**
     * The exact nearest-rank quantile of {@code sorted} at rank {@code rank} (1-based, clamped), and what the histogram
     * may report for it: HdrHistogram rounds the rank {@code q n} to the nearest integer rather than up, and reports
     * the upper end of a sub-bucket, at most 1/16 above the value.
     */
    private static void assertWithinPrecision(long[] sorted, double q, long reported) {
        int n = sorted.length;
        long low = sorted[(int) Math.max(1, Math.min(n, Math.floor(q * n))) - 1];
        long high = sorted[(int) Math.max(1, Math.min(n, Math.ceil(q * n))) - 1];
        assertTrue(
                reported >= low && reported <= high + high / 16,
                "quantile " + q + " of " + n + " values: " + reported + " (exact " + low + ".." + high + ")");
    }

    @Test
    void quantiles_ofOneToAThousand_areWithinOneSixteenthAboveTheExactOnes() {
        LatencyHistogram h = new LatencyHistogram();
        long[] values = new long[1000];
        for (int i = 1; i <= 1000; i++) {
            h.record(i);
            values[i - 1] = i;
        }
        assertEquals(1000, h.count());
        long p50 = h.quantileMicros(0.5);
        long p99 = h.quantileMicros(0.99);
        assertTrue(p50 >= 500 && p50 <= 531, "p50 " + p50);
        assertTrue(p99 >= 990 && p99 <= 1051, "p99 " + p99);
        for (double q : new double[] {0.001, 0.25, 0.5, 0.9, 0.99, 0.999, 1}) {
            assertWithinPrecision(values, q, h.quantileMicros(q));
        }
        assertEquals(0, new LatencyHistogram().quantileMicros(0.5));
    }

    @Test
    void valuesOutsideTheRange_countAtItsEnds() {
        LatencyHistogram h = new LatencyHistogram();
        h.record(-5);
        h.record(Long.MAX_VALUE);
        assertEquals(2, h.count());
        assertEquals(0, h.quantileMicros(0.5));
        long top = h.quantileMicros(1);
        assertTrue(
                top >= LatencyHistogram.MAX_MICROS && top <= LatencyHistogram.MAX_MICROS * 17 / 16,
                "largest value " + top);
    }

    /** Latencies in 0..100 s: uniform over the range half the time, else with every bit length equally likely. */
    private static Gen<Long> latencyMicros() {
        long max = 100_000_000;
        Gen<Long> byMagnitude = integers()
                .between(0, 64 - Long.numberOfLeadingZeros(max))
                .flatMap(bits -> longs().between(0, Math.min(max, (1L << bits) - 1)));
        return Generate.oneOf(longs().between(0, max), byMagnitude);
    }

    @Test
    void anyQuantileOfAnySample_isWithinThePrecision() {
        // The seed is fixed so that every run checks the same samples; quantiles 0.001..1 in steps of 0.001.
        qt().withFixedSeed(0x4157055EED05L)
                .withExamples(300)
                .forAll(
                        lists().of(latencyMicros()).ofSizeBetween(1, 400),
                        integers().between(1, 1000))
                .checkAssert((sample, perMille) -> {
                    double q = perMille / 1000.0;
                    LatencyHistogram h = new LatencyHistogram();
                    sample.forEach(h::record);
                    long[] sorted = sample.stream().mapToLong(Long::longValue).toArray();
                    Arrays.sort(sorted);
                    assertEquals(sorted.length, h.count());
                    assertWithinPrecision(sorted, q, h.quantileMicros(q));
                });
    }

    @Test
    void concurrentRecording_whileReading_losesNothing() throws Exception {
        LatencyHistogram h = new LatencyHistogram();
        int threads = 4;
        int each = 100_000;
        ExecutorService pool = Executors.newFixedThreadPool(threads);
        try {
            CountDownLatch start = new CountDownLatch(1);
            List<Future<?>> writers = new java.util.ArrayList<>();
            for (int t = 0; t < threads; t++) {
                long value = 100L * (t + 1);
                writers.add(pool.submit(() -> {
                    start.await();
                    for (int i = 0; i < each; i++) {
                        h.record(value);
                    }
                    return null;
                }));
            }
            start.countDown();
            long seen = 0;
            while (!writers.stream().allMatch(Future::isDone)) {
                long now = h.count();
                assertTrue(now >= seen, "count went back from " + seen + " to " + now);
                seen = now;
            }
            for (Future<?> w : writers) {
                w.get();
            }
        } finally {
            pool.shutdownNow();
        }
        assertEquals((long) threads * each, h.count());
        long p50 = h.quantileMicros(0.5); // values 100, 200, 300, 400 equally often: the median is 200
        assertTrue(p50 >= 200 && p50 <= 212, "p50 " + p50);
    }

    @Test
    void record_allocatesNothing() {
        com.sun.management.ThreadMXBean threads = (com.sun.management.ThreadMXBean) ManagementFactory.getThreadMXBean();
        LatencyHistogram h = new LatencyHistogram();
        for (int i = 0; i < 200_000; i++) {
            h.record(i % 5_000);
        }
        long id = Thread.currentThread().getId();
        long before = threads.getThreadAllocatedBytes(id);
        for (int i = 0; i < 1_000_000; i++) {
            h.record(i % 100_000);
        }
        long allocated = threads.getThreadAllocatedBytes(id) - before;
        assertTrue(allocated < 1024, allocated + " bytes allocated by a million records");
        assertEquals(1_200_000, h.count());
    }
}
