package io.locus.memcached.deadline;

import io.locus.memcached.backend.ProxyRequest;
import io.locus.memcached.backend.ReplySink;
import io.locus.memcached.backend.RequestHandler;
import io.locus.memcached.schedule.DeadlineScheduler;
import io.locus.memcached.schedule.RejectReason;
import io.locus.memcached.schedule.Ticket;
import io.locus.memcached.stats.ProxyStats;
import io.locus.memcached.stats.TenantMetrics;

/**
 * A request waiting for, or holding, a ticket at one backend's deadline scheduler (the ticket's payload): sent on
 * below once dispatched, refused once its deadline passes in the queue. Owner thread only.
 */
final class ScheduledRequest implements ScheduledWork {
    /** The handler below, the proxy's counters and the I/O thread's connection order, shared by its requests. */
    record Host(RequestHandler backends, ProxyStats stats, ConnectionOrder order) {}

    /** How a caller answers a request the scheduler refused or dropped; {@code est} in µs from now. */
    @FunctionalInterface
    interface Refusal {
        void refused(RejectReason reason, long estimateMicros);
    }

    private final Host host;
    private final DeadlineScheduler<ScheduledWork> scheduler;
    private final ProxyRequest pr;
    /** The copy chosen for a routed read, or -1: the handler below places the request. */
    private final int routedTo;

    private final ReplySink target;
    private final TenantMetrics.Counters counters;
    private final boolean internal;
    private final Refusal refusal;
    private boolean queued;
    /** Whether the ticket counts as its client connection's queued request ({@link ConnectionOrder}). */
    private boolean ordered;

    ScheduledRequest(
            Host host,
            DeadlineScheduler<ScheduledWork> scheduler,
            ProxyRequest pr,
            int routedTo,
            ReplySink target,
            TenantMetrics.Counters counters,
            boolean internal,
            Refusal refusal) {
        this.host = host;
        this.scheduler = scheduler;
        this.pr = pr;
        this.routedTo = routedTo;
        this.target = target;
        this.counters = counters;
        this.internal = internal;
        this.refusal = refusal;
    }

    /** The ticket waits in its scheduler's queue; its dispatch or expiry takes it off the connection's count. */
    void markQueued() {
        queued = true;
        ordered = true;
    }

    /**
     * The ticket waits in its scheduler's queue but holds no place in its client connection's order: a background
     * request whose reply nobody reads (a re-issue), so the connection's later requests need not follow it.
     */
    void markQueuedOutsideOrder() {
        queued = true;
        ordered = false;
    }

    private void dequeued() {
        if (queued) {
            queued = false;
            counters.queued().decrementAndGet();
            if (ordered) {
                host.order().dequeued(pr.connectionId());
            }
        }
    }

    @Override
    public void dispatch(Ticket<ScheduledWork> ticket) {
        boolean[] released = {false};
        ReplySink done = ReplySink.after(target, () -> {
            if (!released[0]) {
                released[0] = true;
                scheduler.complete(ticket);
            }
        });
        if (routedTo >= 0) {
            host.backends().handleAt(pr, done, routedTo);
        } else {
            host.backends().handle(pr, done);
        }
        if (internal) {
            host.stats().decrement(ProxyStats.Counter.META_REQUESTS); // a fill is not a client's meta request
        }
        dequeued(); // after the write above: what waited for this connection's queue must follow it
    }

    @Override
    public void expired() {
        dequeued();
        host.backends().refusedRead(pr);
        pr.request().release();
        counters.rejected().increment();
        refusal.refused(RejectReason.DEADLINE_EXCEEDED, 0);
    }
}
