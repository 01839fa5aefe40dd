package io.locus.memcached.schedule;

/**
 * Receives tickets when the scheduler lets them go. Called on the scheduler's thread, from inside
 * {@link DeadlineScheduler#offer}, {@link DeadlineScheduler#complete} or {@link DeadlineScheduler#cancel};
 * implementations should only hand the work off (write the backend request, schedule an event).
 *
 * @param <T> the payload type
 */
public interface TicketListener<T> {
    /** The ticket may be sent to the backend now; call {@link DeadlineScheduler#complete} when it answered. */
    void dispatch(Ticket<T> ticket);

    /**
     * A queued hard ticket passed its deadline before dispatch and was dropped
     * ({@link RejectReason#DEADLINE_EXCEEDED}); the backend never sees it.
     */
    void expired(Ticket<T> ticket);
}
