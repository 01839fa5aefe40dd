package io.locus.memcached.deadline;

import java.util.ArrayDeque;
import java.util.HashMap;
import java.util.Map;

/**
 * Each client connection's share of a backend's scheduler queue for multi-get batches: at most {@link #SHARE} of one
 * connection's batches wait in one backend's queue; its further batches wait here, in arrival order, and take a ticket
 * as the connection's earlier ones leave the queue (dispatched, dropped or withdrawn). In flight, the scheduler's window
 * bounds them. Why: a get of 20,000 keys is 100 batches, and admitted at once they would fill the EDF queue ahead of
 * every other connection's later request (equal best-effort deadlines are served in arrival order); with a share, a
 * request of another connection waits behind at most {@link #SHARE} queued batches per connection with work at that
 * backend and the window's batches in flight, whatever their backlog. Owner thread only.
 */
final class ConnectionShares {
    /**
     * Batches per connection that wait in one backend's queue: two keep a connection's next batches ready for the
     * window's free places without putting its backlog ahead of others.
     */
    static final int SHARE = 2;

    /** Work that takes a ticket within its connection's share of a backend (a multi-get's batch). */
    interface Member {
        long connectionId();

        int backend();

        /** Whether the work is still wanted; work that is not is skipped when its turn comes. */
        boolean wanted();

        /** Takes the ticket: the share allows it now. */
        void offer();
    }

    private final int backends;
    private final ConnectionOrder order;
    private final Map<Long, Share> shares = new HashMap<>();

    /** @param order told of the batches that wait here, so that their connection's later requests wait behind them */
    ConnectionShares(int backends, ConnectionOrder order) {
        this.backends = backends;
        this.order = order;
    }

    private static final class Share {
        private int holding;
        private final ArrayDeque<Member> waiting = new ArrayDeque<>();
    }

    private long keyOf(Member batch) {
        return batch.connectionId() * backends + batch.backend();
    }

    /** Offers {@code batch} to its backend's scheduler now if its connection's share there allows, else later. */
    void submit(Member batch) {
        Share s = shares.computeIfAbsent(keyOf(batch), k -> new Share());
        if (s.holding < SHARE && s.waiting.isEmpty()) {
            s.holding++;
            batch.offer();
        } else {
            s.waiting.add(batch);
            order.held(batch.connectionId());
        }
    }

    /**
     * A batch that held a place left the scheduler's queue (dispatched, refused, dropped or withdrawn): the connection's
     * next batch for that backend takes its place; batches of requests already answered are skipped.
     */
    void released(Member batch) {
        long key = keyOf(batch);
        Share s = shares.get(key);
        if (s == null) {
            return;
        }
        s.holding--;
        while (s.holding < SHARE && !s.waiting.isEmpty()) {
            Member next = s.waiting.poll();
            if (next.wanted()) {
                s.holding++;
                next.offer();
            }
            order.unheld(next.connectionId()); // after the offer: what waited for it goes behind it
        }
        if (s.holding <= 0 && s.waiting.isEmpty()) {
            shares.remove(key, s);
        }
    }

    /** Connections and backends with batches queued in a scheduler or waiting here, for tests. */
    int size() {
        return shares.size();
    }
}
