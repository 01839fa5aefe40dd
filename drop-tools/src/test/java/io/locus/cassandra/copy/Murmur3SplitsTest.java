package io.locus.cassandra.copy;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import org.junit.jupiter.api.Test;

class Murmur3SplitsTest {
    @Test
    void slices_coverTheRingOnce_inOrder_andAboutEqual() {
        for (int n : new int[] {1, 2, 3, 256, 1000}) {
            List<Murmur3Splits.Split> s = Murmur3Splits.of(n);
            assertEquals(n, s.size());
            assertEquals(Long.MIN_VALUE, s.get(0).start());
            assertEquals(Long.MAX_VALUE, s.get(n - 1).end());
            double width = (Math.pow(2, 64) - 1) / n;
            for (int i = 0; i < n; i++) {
                assertEquals(i, s.get(i).index());
                assertTrue(s.get(i).start() < s.get(i).end(), s.get(i).toString());
                if (i > 0) {
                    assertEquals(
                            s.get(i - 1).end(), s.get(i).start(), "slice " + i + " starts where " + (i - 1) + " ends");
                }
                double w = (double) s.get(i).end() - (double) s.get(i).start();
                assertEquals(1.0, w / width, 1e-6, "slice " + i);
            }
        }
    }

    @Test
    void badCounts_areRefused() {
        assertEquals(
                "splits 0 (expected: 1 to 1048576)",
                assertThrows(IllegalArgumentException.class, () -> Murmur3Splits.of(0))
                        .getMessage());
    }
}
