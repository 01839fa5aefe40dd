package io.locus.memcached.schedule;

/**
 * A slot in one backend's queue (MicroFuge's scheduler ticket): from admission until the backend answered.
 * Created only by {@link DeadlineScheduler#offer}; its mutable state is confined to the scheduler's thread.
 *
 * @param <T> the caller's payload (for the proxy: the pending backend request)
 */
public final class Ticket<T> {
    /** Life cycle of a ticket; every ticket ends in exactly one of the last three states. */
    public enum State {
        QUEUED,
        DISPATCHED,
        COMPLETED,
        CANCELLED,
        EXPIRED
    }

    private final TicketRequest request;
    private final ServiceLevel level;
    private final T payload;
    private final long deadlineAtNanos;
    private final long sequence;
    private final long predictedFinishNanos;
    private int demotions;
    private boolean frozen;
    private State state = State.QUEUED;
    private long dispatchedAtNanos = -1;
    private long completedAtNanos = -1;

    Ticket(
            TicketRequest request,
            ServiceLevel level,
            T payload,
            long deadlineAtNanos,
            long sequence,
            long predictedFinishNanos) {
        this.request = request;
        this.level = level;
        this.payload = payload;
        this.deadlineAtNanos = deadlineAtNanos;
        this.sequence = sequence;
        this.predictedFinishNanos = predictedFinishNanos;
    }

    /** The request this ticket was issued for. */
    public TicketRequest request() {
        return request;
    }

    /** The service level of the request's tenant when the ticket was issued. */
    public ServiceLevel level() {
        return level;
    }

    /** The caller's payload. */
    public T payload() {
        return payload;
    }

    /** Absolute deadline on the scheduler's clock: arrival + deadline (nominal for best-effort). */
    public long deadlineAtNanos() {
        return deadlineAtNanos;
    }

    /** Admission order at this scheduler (EDF tie-break). */
    public long sequence() {
        return sequence;
    }

    /** Finish time predicted at admission (the "expected response time" of [MicroFuge §4.1, §5.1]). */
    public long predictedFinishNanos() {
        return predictedFinishNanos;
    }

    /** How many later tickets were inserted ahead of this one; never more than {@code max_demotions}. */
    public int demotions() {
        return demotions;
    }

    /** Current state. */
    public State state() {
        return state;
    }

    /** Dispatch instant, or -1 if not dispatched. */
    public long dispatchedAtNanos() {
        return dispatchedAtNanos;
    }

    /** Completion instant, or -1 if not completed. */
    public long completedAtNanos() {
        return completedAtNanos;
    }

    /** True once {@code max_demotions} later tickets went ahead of this one: none may pass it any more. */
    boolean frozen() {
        return frozen;
    }

    /** A later ticket was inserted ahead of this one; the {@code maxDemotions}-th freezes it. */
    void demote(int maxDemotions) {
        if (++demotions >= maxDemotions) {
            frozen = true;
        }
    }

    // The life-cycle transitions, made by the scheduler that issued the ticket.

    void markDispatched(long nowNanos) {
        state = State.DISPATCHED;
        dispatchedAtNanos = nowNanos;
    }

    void markCompleted(long nowNanos) {
        state = State.COMPLETED;
        completedAtNanos = nowNanos;
    }

    void markCancelled() {
        state = State.CANCELLED;
    }

    void markExpired() {
        state = State.EXPIRED;
    }

    /** True if this is a hard-deadline ticket (reads only). */
    public boolean hard() {
        return request.hard();
    }

    @Override
    public String toString() {
        return "Ticket[" + request.tenant() + " #" + sequence + " " + (hard() ? "hard" : "best-effort") + " D="
                + deadlineAtNanos + " " + state + " demotions=" + demotions + "]";
    }
}
