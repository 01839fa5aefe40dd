package io.locus.memcached.deadline;

import java.util.ArrayDeque;

/**
 * The multi-gets of one I/O thread whose keys are being looked up and fetched: at most {@link #KEYS} keys of them at
 * once (one get of more keys goes alone); the others wait in arrival order, holding their request and nothing else,
 * until keys are free or their own timeout answers them. Why: looking a key up in the cache and on the ring costs the
 * I/O thread a few hundred nanoseconds, so a burst of hundreds of gets of 20,000 keys started at once held the thread
 * for seconds, every other client's requests and the backends' replies with it, and the batches of hundreds of gets
 * would share the schedulers with a client's single requests. Owner thread only.
 */
final class FetchQueue {
    /** Keys of the multi-gets being fetched at once: five gets of 20,000 keys, a hundred of 1,000. */
    static final int KEYS = 100_000;

    private final ConnectionOrder order;
    private final ArrayDeque<BatchedGet> waiting = new ArrayDeque<>();
    private long fetching;
    private boolean starting;

    /** @param order told of the gets that wait here, so that their connection's later requests wait behind them */
    FetchQueue(ConnectionOrder order) {
        this.order = order;
    }

    /** Starts {@code get} now if keys are free, else when they are. */
    void submit(BatchedGet get) {
        if (!starting && waiting.isEmpty() && fits(get)) {
            fetching += get.keyCount();
            get.start();
            return;
        }
        waiting.add(get);
        order.held(get.connectionId());
        startWaiting();
    }

    private boolean fits(BatchedGet get) {
        return fetching == 0 || fetching + get.keyCount() <= KEYS;
    }

    /**
     * A get answered while it waited (its timeout, or its client gone) leaves the queue, and its connection's later
     * requests need not wait for it any more.
     */
    void withdraw(BatchedGet get) {
        if (waiting.remove(get)) {
            order.unheld(get.connectionId());
        }
    }

    /** A get that was started is answered: its keys are free. */
    void finished(BatchedGet get) {
        fetching -= get.keyCount();
        startWaiting();
    }

    private void startWaiting() {
        if (starting) {
            return; // a get started below was answered at once; the loop goes on
        }
        starting = true;
        try {
            while (!waiting.isEmpty()) {
                BatchedGet next = waiting.peek();
                if (!next.wanted()) {
                    withdraw(next); // its client is gone: answering it withdrew it already
                    continue;
                }
                if (!fits(next)) {
                    return;
                }
                waiting.poll();
                fetching += next.keyCount();
                next.start();
                order.unheld(next.connectionId()); // after the start: what waited for it goes behind it
            }
        } finally {
            starting = false;
        }
    }

    /** Multi-gets waiting for keys, for tests. */
    int waiting() {
        return waiting.size();
    }
}
