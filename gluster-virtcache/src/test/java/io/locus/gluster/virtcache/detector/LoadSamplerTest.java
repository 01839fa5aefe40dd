package io.locus.gluster.virtcache.detector;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.locus.gluster.virtcache.hotblock.TranslatorStats;
import java.nio.charset.StandardCharsets;
import org.junit.jupiter.api.Test;

class LoadSamplerTest {
    static TranslatorStats stats(
            long clockUs, long ops, long completed, long latency, long idle, long idleLatency, long area) {
        String text = "brick_clock_us=" + clockUs + "\nops=" + ops + "\ncompleted=" + completed + "\nlatency_us="
                + latency + "\nidle_completed=" + idle + "\nidle_latency_us=" + idleLatency
                + "\nbrick_queue_area_us=" + area + "\n";
        return TranslatorStats.parse(text.getBytes(StandardCharsets.UTF_8));
    }

    @Test
    void ratesServiceTimeAndQueueDepth_fromTwoReadings() {
        LoadSampler s = new LoadSampler();
        assertNull(s.next(stats(1_000_000, 100, 100, 50_000, 80, 32_000, 300_000), 0));
        // 2 s later: 600 more ops, 40 of them idle at 500 µs each; the queue held 3 on average.
        LoadSampler.Interval i = s.next(stats(3_000_000, 700, 700, 950_000, 120, 52_000, 6_300_000), 50);
        assertEquals(300, i.sample().arrivalsPerSecond(), 1e-9);
        assertEquals(0.0005, i.sample().deviceSeconds(), 1e-12);
        assertEquals(50, i.sample().redirectedPerSecond());
        assertEquals(3.0, i.averageQueueDepth(), 1e-9);
        assertEquals(2.0, i.seconds(), 1e-9);
        // No idle fop in the next interval: the last service time stays.
        LoadSampler.Interval busy = s.next(stats(4_000_000, 1700, 1700, 5_950_000, 120, 52_000, 14_300_000), 0);
        assertEquals(0.0005, busy.sample().deviceSeconds(), 1e-12);
        assertEquals(8.0, busy.averageQueueDepth(), 1e-9);
    }

    @Test
    void withoutIdleFops_theAverageLatencyStandsIn() {
        LoadSampler s = new LoadSampler();
        s.next(stats(0, 0, 0, 0, 0, 0, 0), 0);
        LoadSampler.Interval i = s.next(stats(1_000_000, 10, 10, 20_000, 0, 0, 0), 0);
        assertEquals(0.002, i.sample().deviceSeconds(), 1e-12);
    }

    @Test
    void counterGoingBackwards_isRefusedWithTheKeyNamed() {
        LoadSampler s = new LoadSampler();
        s.next(stats(2_000_000, 100, 100, 1, 1, 1, 1), 0);
        IllegalArgumentException e =
                assertThrows(IllegalArgumentException.class, () -> s.next(stats(3_000_000, 5, 5, 1, 1, 1, 1), 0));
        assertTrue(e.getMessage().contains("ops went from 100 to 5"), e.getMessage());
    }
}
