package io.locus.memcached.deadline;

import io.locus.memcached.backend.ProxyRequest;
import io.locus.memcached.schedule.TicketRequest;
import io.locus.memcached.tenant.Deadline;
import java.util.Map;

/**
 * One I/O thread's bookkeeping that keeps each client connection's requests to a backend in memcached's order while
 * EDF schedulers reorder requests of different connections: which connections have tickets waiting in a queue, the
 * requests that must wait for those, and the last deadlines that a later ticket of the connection may not undercut.
 * Owner thread only.
 */
final class ConnectionOrder {
    private final int backends;
    /** Per client connection: per backend, the last absolute deadline of any ticket [2b] and of a write [2b+1]. */
    private final Map<Long, long[]> lastDeadlines = new java.util.HashMap<>();

    private int sweepAt = 4096;

    ConnectionOrder(int backends) {
        this.backends = backends;
    }

    /**
     * Per client connection with tickets waiting in a queue or multi-get batches waiting for their turn to take one:
     * their counts, and requests that must wait for them.
     */
    private static final class Connection {
        private int queued;
        /** Batches waiting outside the schedulers for the connection's share ({@link ConnectionShares}). */
        private int held;

        private final java.util.ArrayDeque<Runnable> deferred = new java.util.ArrayDeque<>();
        private final java.util.ArrayDeque<Boolean> deferredBypass = new java.util.ArrayDeque<>();
    }

    private final Map<Long, Connection> connections = new java.util.HashMap<>();

    /**
     * Defers {@code request} if it must wait for the connection's queued tickets: it bypasses the schedulers while
     * some wait, or earlier requests of the connection were deferred. Returns false if it may run now.
     */
    boolean deferred(long connectionId, boolean bypass, Runnable request) {
        if (!mustDefer(connectionId, bypass)) {
            return false;
        }
        Connection c = connections.get(connectionId);
        c.deferred.add(request);
        c.deferredBypass.add(bypass);
        return true;
    }

    /** Whether {@link #deferred} would defer a request now (asked first, so a request that may run allocates nothing). */
    boolean mustDefer(long connectionId, boolean bypass) {
        if (connections.isEmpty()) {
            return false; // the usual case, decided without boxing the id or a lookup
        }
        Connection c = connections.get(connectionId);
        return c != null && (!c.deferred.isEmpty() || c.held > 0 || (bypass && c.queued > 0));
    }

    /** True if one of the connection's tickets waits in a scheduler queue. */
    boolean hasQueued(long connectionId) {
        Connection c = connections.get(connectionId);
        return c != null && c.queued > 0;
    }

    /** One of the connection's tickets waits in a scheduler queue. */
    void queued(long connectionId) {
        connections.computeIfAbsent(connectionId, id -> new Connection()).queued++;
    }

    /** One of the connection's tickets left the queue: run what waited for the queue to empty, in order. */
    void dequeued(long connectionId) {
        Connection c = connections.get(connectionId);
        c.queued--;
        runDeferred(connectionId, c);
    }

    /**
     * A batch of the connection's multi-get waits for its turn outside the schedulers: the connection's later requests
     * wait behind it, since a request offered now would overtake it (a write the get must not see).
     */
    void held(long connectionId) {
        connections.computeIfAbsent(connectionId, id -> new Connection()).held++;
    }

    /** A held batch took its ticket (or was dropped): once none is held, what waited for it runs, in order. */
    void unheld(long connectionId) {
        Connection c = connections.get(connectionId);
        c.held--;
        runDeferred(connectionId, c);
    }

    private void runDeferred(long connectionId, Connection c) {
        while (!c.deferred.isEmpty() && c.held == 0 && !(c.deferredBypass.peek() && c.queued > 0)) {
            c.deferredBypass.poll();
            c.deferred.poll().run();
        }
        if (c.queued == 0 && c.held == 0 && c.deferred.isEmpty()) {
            connections.remove(connectionId, c);
        }
    }

    /**
     * The ticket for a request to {@code backend}. EDF may reorder requests of different connections, never those of
     * one connection to one backend (memcached's per-connection order: a read pipelined behind a write sees it): a read
     * gets at least the absolute deadline of the connection's last write there, a write at least that of the
     * connection's last request there, while one of the connection's requests is still queued. Admission then judges such a read against the raised deadline; its met/missed
     * count uses the client's own.
     */
    TicketRequest ticketRequest(ProxyRequest pr, TicketRequest.Kind kind, int backend, long nominalMicros) {
        Deadline d = pr.resolution().deadline();
        long nanos = d.microsOr(nominalMicros) * 1000;
        long at = pr.arrivalNanos() + nanos;
        long[] last = lastDeadlines.computeIfAbsent(pr.connectionId(), id -> {
            long[] a = new long[2 * backends];
            java.util.Arrays.fill(a, NONE);
            return a;
        });
        long floor = kind == TicketRequest.Kind.WRITE ? last[2 * backend] : last[2 * backend + 1];
        // Only a request of this connection still waiting in a scheduler queue can be overtaken; with none waiting,
        // every earlier request is already on its backend connection, ahead of this one. Raising the deadline anyway
        // made a
        // best-effort write (nominal 1 s) lift every later read of its connection to 1 s for a second, so admission
        // judged those reads against the wrong deadline and let through reads that could not make their own.
        if (floor != NONE && floor - at > 0 && hasQueued(pr.connectionId())) {
            at = floor;
            nanos = at - pr.arrivalNanos();
        }
        last[2 * backend] = later(last[2 * backend], at);
        if (kind == TicketRequest.Kind.WRITE) {
            last[2 * backend + 1] = later(last[2 * backend + 1], at);
        }
        if (lastDeadlines.size() > sweepAt) {
            forgetPastDeadlines();
            sweepAt = Math.max(4096, 2 * lastDeadlines.size()); // amortized: a sweep per doubling, not per request
        }
        return new TicketRequest(pr.resolution().tenant(), kind, !d.bestEffort(), pr.arrivalNanos(), nanos);
    }

    private static final long NONE = Long.MIN_VALUE;

    private static long later(long a, long b) {
        return a == NONE || b - a > 0 ? b : a;
    }

    /** Drops connections whose last deadlines have all passed: they can no longer raise a new ticket's. */
    private void forgetPastDeadlines() {
        long now = System.nanoTime();
        lastDeadlines.values().removeIf(last -> {
            for (long at : last) {
                if (at != NONE && at - now > 0) {
                    return false;
                }
            }
            return true;
        });
    }
}
