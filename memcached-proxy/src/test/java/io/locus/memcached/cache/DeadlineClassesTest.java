package io.locus.memcached.cache;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import org.junit.jupiter.api.Test;

class DeadlineClassesTest {
    private static final long US = 1_000;
    private final DeadlineClasses defaults = new DeadlineClasses(2_000 * US, 2, 12);

    /** The vectors of MicroFuge §3.1.1 (in µs there). */
    @Test
    void classOf_specVectors() {
        assertEquals(0, defaults.classOf(1_999 * US));
        assertEquals(1, defaults.classOf(2_000 * US));
        assertEquals(1, defaults.classOf(3_999 * US));
        assertEquals(2, defaults.classOf(4_000 * US));
        assertEquals(3, defaults.classOf(8_000 * US));
        assertEquals(9, defaults.classOf(1_000_000 * US));
        assertEquals(11, defaults.classOf(5_000_000 * US));
    }

    @Test
    void classOf_zeroAndHuge_areFirstAndLast() {
        assertEquals(0, defaults.classOf(0));
        assertEquals(11, defaults.classOf(Long.MAX_VALUE));
    }

    @Test
    void classOf_noDeadline_isBestEffortClass() {
        assertEquals(11, defaults.classOf(DeadlineCache.NO_DEADLINE));
        assertEquals(11, defaults.bestEffortClass());
    }

    /** MicroFuge §3.1.1 table: the class boundaries are B * c^(q-1), half-open. */
    @Test
    void classOf_boundaries_matchTable() {
        for (int q = 1; q < 12; q++) {
            long lo = 2_000 * US << (q - 1);
            assertEquals(q, defaults.classOf(lo), "lower bound of class " + q);
            assertEquals(q - 1, defaults.classOf(lo - 1), "just below class " + q);
        }
    }

    @Test
    void classOf_oneQueue_isAlwaysZero() {
        DeadlineClasses lru = new DeadlineClasses(2_000 * US, 2, 1);
        assertEquals(0, lru.classOf(0));
        assertEquals(0, lru.classOf(10_000_000 * US));
        assertEquals(0, lru.classOf(DeadlineCache.NO_DEADLINE));
    }

    @Test
    void multiplier_isFactorToTheClass() {
        assertEquals(1, defaults.multiplier(0));
        assertEquals(4, defaults.multiplier(2));
        assertEquals(2048, defaults.multiplier(11));
        assertEquals(81, new DeadlineClasses(1, 3, 5).multiplier(4));
    }

    @Test
    void classOf_negativeDeadline_isRejectedWithValue() {
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> defaults.classOf(-5));
        assertEquals("deadline -5 ns (expected: >= 0 or NO_DEADLINE)", e.getMessage());
    }

    @Test
    void constructor_badValues_areRejectedWithKeyAndValue() {
        assertEquals(
                "dlc.factor 1 (expected: >= 2)",
                assertThrows(IllegalArgumentException.class, () -> new DeadlineClasses(1, 1, 12))
                        .getMessage());
        assertEquals(
                "dlc.queues 0 (expected: 1..62)",
                assertThrows(IllegalArgumentException.class, () -> new DeadlineClasses(1, 2, 0))
                        .getMessage());
        assertEquals(
                "dlc.base 0 ns (expected: > 0)",
                assertThrows(IllegalArgumentException.class, () -> new DeadlineClasses(0, 2, 12))
                        .getMessage());
    }
}
