package io.locus.memcached.deadline;

import io.locus.memcached.schedule.Ticket;

/**
 * What waits for, or holds, a ticket at one backend's deadline scheduler (the ticket's payload): a client's request or
 * a cache fill ({@link ScheduledRequest}), or one batch of a multi-get ({@link GetBatch}). Owner thread only.
 */
interface ScheduledWork {
    /** The ticket was dispatched: send the work now, and complete the ticket when the backend answered. */
    void dispatch(Ticket<ScheduledWork> ticket);

    /** The ticket's hard deadline passed while it was queued, and the scheduler dropped it. */
    void expired();
}
