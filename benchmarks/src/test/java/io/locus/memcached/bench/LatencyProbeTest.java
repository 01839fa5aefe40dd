package io.locus.memcached.bench;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import org.junit.jupiter.api.Test;

class LatencyProbeTest {
    @Test
    void pairedDifference_removesWhatARoundShares() {
        // Every 50th round stalls both paths by 5 ms: each path's p99 carries the stall, the paired difference does
        // not.
        int n = 1000;
        long[] direct = new long[n];
        long[] proxy = new long[n];
        for (int r = 0; r < n; r++) {
            long stall = r % 50 == 0 ? 5_000_000 : 0;
            direct[r] = 50_000 + stall;
            proxy[r] = 130_000 + stall + (r % 10) * 1_000; // +80 to +89 us
        }
        double[] paired = LatencyProbe.pairedPercentilesMicros(proxy, direct);
        assertArrayEquals(new double[] {84, 88, 89, 89}, paired, 1e-9);
        double[] p = LatencyProbe.percentilesMicros(direct);
        assertTrue(p[2] > 4_000, "direct's own p99 carries the stall: " + p[2]);
    }

    @Test
    void pairedDifference_mayBeNegative_andNeedsEqualRounds() {
        double[] paired = LatencyProbe.pairedPercentilesMicros(new long[] {1_000, 2_000}, new long[] {3_000, 1_000});
        assertArrayEquals(new double[] {-2, 1, 1, 1}, paired, 1e-9);
        assertThrows(
                IllegalArgumentException.class, () -> LatencyProbe.pairedPercentilesMicros(new long[1], new long[2]));
    }

    @Test
    void table_namesEveryPathAndBothAddedFigures() {
        String t = LatencyProbe.table(List.of("direct", "locus"), new long[][] {{50_000, 60_000}, {150_000, 160_000}});
        assertTrue(t.contains("locus pctl diff") && t.contains("locus paired") && t.startsWith("path (us)"), t);
    }
}
