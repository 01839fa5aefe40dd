package io.locus.memcached.backend;

import io.netty.channel.SelectStrategy;
import io.netty.channel.SelectStrategyFactory;
import io.netty.util.IntSupplier;
import java.util.function.LongSupplier;

/**
 * An event loop's choice between polling and sleeping ({@code server.busy_poll_us}): after each pass over ready
 * sockets and tasks, poll without blocking ({@code epoll_wait} with timeout 0) for up to {@code spinNanos}, and block
 * only when nothing arrived in that time. Why: in a closed loop the next request usually arrives a few microseconds
 * after the reply left; a thread that went to sleep in between pays a context switch to wake, and on a virtual
 * machine an idle vCPU may halt and take far longer to wake. Bounded, so an idle proxy sleeps, and a task queued from
 * another thread waits at most {@code spinNanos} (such tasks do not interrupt a poll). Netty's own
 * {@code SelectStrategy.BUSY_WAIT} spins without bound, so it is not used.
 */
public final class BusyPollStrategy implements SelectStrategy {
    private final long spinNanos;
    private final LongSupplier clock;

    BusyPollStrategy(long spinNanos, LongSupplier clock) {
        if (spinNanos <= 0) {
            throw new IllegalArgumentException("spinNanos: " + spinNanos + " (expected: > 0)");
        }
        this.spinNanos = spinNanos;
        this.clock = clock;
    }

    /** A factory giving each event loop its own strategy that polls for up to {@code micros}. */
    public static SelectStrategyFactory factory(int micros) {
        return () -> new BusyPollStrategy(micros * 1000L, System::nanoTime);
    }

    @Override
    public int calculateStrategy(IntSupplier selectSupplier, boolean hasTasks) throws Exception {
        int ready = selectSupplier.get();
        if (ready != 0 || hasTasks) {
            return ready; // sockets ready, or tasks to run: no sleeping either way
        }
        long start = clock.getAsLong();
        while (clock.getAsLong() - start < spinNanos) {
            Thread.onSpinWait();
            ready = selectSupplier.get();
            if (ready != 0) {
                return ready;
            }
        }
        return SelectStrategy.SELECT;
    }
}
