package io.locus.memcached.backend;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import io.netty.channel.SelectStrategy;
import java.util.ArrayDeque;
import java.util.List;
import org.junit.jupiter.api.Test;

class BusyPollStrategyTest {
    /** A clock that advances 1 µs per reading, and a poll that answers from a script (0 when it runs out). */
    private long now;

    private final ArrayDeque<Integer> polls = new ArrayDeque<>();
    private int pollCount;

    private BusyPollStrategy strategy(long spinNanos) {
        return new BusyPollStrategy(spinNanos, () -> now += 1_000);
    }

    private int poll() {
        pollCount++;
        Integer next = polls.poll();
        return next == null ? 0 : next;
    }

    @Test
    void readySockets_areReturnedAtOnce() throws Exception {
        polls.addAll(List.of(3));
        assertEquals(3, strategy(50_000).calculateStrategy(this::poll, false));
        assertEquals(1, pollCount, "one non-blocking poll");
    }

    @Test
    void pendingTasks_runWithoutPollingFurther() throws Exception {
        assertEquals(0, strategy(50_000).calculateStrategy(this::poll, true));
        assertEquals(1, pollCount);
    }

    @Test
    void quietSockets_arePolledUntilOneIsReady() throws Exception {
        polls.addAll(List.of(0, 0, 0, 0, 2));
        assertEquals(2, strategy(50_000).calculateStrategy(this::poll, false));
        assertEquals(5, pollCount);
    }

    @Test
    void nothingWithinTheSpin_meansSleep() throws Exception {
        assertEquals(SelectStrategy.SELECT, strategy(10_000).calculateStrategy(this::poll, false));
        // one poll before the clock starts, then one per 1 µs tick below 10 µs
        assertEquals(10, pollCount);
    }

    @Test
    void aSpinOfZero_isRefused() {
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> strategy(0));
        assertEquals("spinNanos: 0 (expected: > 0)", e.getMessage());
    }
}
