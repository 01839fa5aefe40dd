package io.locus.memcached.schedule;

import java.util.ArrayList;
import java.util.Collections;
import java.util.Iterator;
import java.util.List;
import java.util.function.LongSupplier;

/**
 * The deadline scheduler of one backend (MicroFuge DLS, MicroFuge §4.1): an earliest-deadline-first queue with
 * bounded demotion, a dispatch window, and admission control for hard deadlines.
 *
 * <p><b>Guarantees.</b>
 * <ul>
 *   <li>At most {@code window} tickets are dispatched and not completed at any time.</li>
 *   <li>Tickets are dispatched in queue order. A new ticket goes to its EDF position (absolute deadline, then
 *       admission order), but never ahead of a frozen ticket; a ticket is frozen once {@code max_demotions}
 *       later tickets were inserted ahead of it. So no ticket, best-effort included, is overtaken by more than
 *       {@code max_demotions} later tickets: bounded deferral, no starvation.</li>
 *   <li>Best-effort tickets (and all writes) are always admitted. A hard ticket is admitted only if its
 *       predicted finish is at or before its deadline minus the guard, no admitted hard ticket that is now
 *       predicted to make its deadline would be pushed past it, the queue is below {@code max_queue}, and the
 *       tenant's urgent bucket allows it. An admitted ticket is never rejected later [MicroFuge §4.1]; with
 *       {@code drop_expired} it may be dropped before dispatch once its deadline has passed.</li>
 * </ul>
 *
 * <p><b>Threading.</b> Not thread-safe: all methods must run on the backend's owner thread (DESIGN.md, "Threads");
 * other threads hand offers over through that thread's task queue. The {@link TicketListener} is called on
 * the same thread; re-entrant calls from the listener are allowed.
 *
 * @param <T> the caller's payload per ticket
 */
public final class DeadlineScheduler<T> {
    /*
     * Design note. [MicroFuge §4.1]: "modified shortest deadline first" that "restrict[s] the number of times the
     * priority of an already queued request can be decreased"; the bound is not given, decision 7 of DESIGN.md decides
     * K = 16. [MicroFuge §4.1] keeps best-effort priority fixed while [MicroFuge §5.1] allows a re-queue with an
     * extended deadline; decision 6 of DESIGN.md decides no re-queue (not implemented here). [MicroFuge §4.2] implies
     * one outstanding request per data server; memcached serves a connection FIFO, so the proxy must hold the queue
     * itself for EDF to act: W = 8 by default (decision 8 of DESIGN.md), W = 1 in paper mode. Queue invariant used by
     * insertionIndex: the tickets after the last frozen one are sorted by (deadline, sequence), because they were all
     * inserted by EDF position within that suffix.
     */
    private final SchedulerConfig config;
    private final AdmissionController admission;
    private final ServiceLevels levels;
    private final LongSupplier nanoClock;
    private final TicketListener<T> listener;
    private final ArrayList<Ticket<T>> queue = new ArrayList<>();
    private final long nominalDeadlineNanos;
    private long nextSequence;
    private int inflight;
    /** Tickets in flight per service level (by ordinal), for {@link #outcome}. */
    private final int[] inflightByLevel = new int[ServiceLevel.values().length];

    private boolean pumping;
    /**
     * No queued hard ticket's deadline is earlier: a lower bound, set on insertion and recomputed by each sweep. A
     * dispatch or cancel may leave it too early, which costs one sweep that finds nothing; so a reply or an offer
     * scans the queue only once some hard ticket may have expired.
     */
    private long earliestHardDeadline = Long.MAX_VALUE;

    /**
     * @param config scheduler and admission settings
     * @param levels tenant fairness state shared by all backends
     * @param nanoClock monotonic clock in nanoseconds
     * @param listener receives dispatched and expired tickets
     */
    public DeadlineScheduler(
            SchedulerConfig config, ServiceLevels levels, LongSupplier nanoClock, TicketListener<T> listener) {
        this.config = config;
        this.admission = new AdmissionController(config);
        this.levels = levels;
        this.nanoClock = nanoClock;
        this.listener = listener;
        this.nominalDeadlineNanos = config.bestEffortNominalDeadline().toNanos();
    }

    /**
     * Predicts the outcome of a request without changing any state (the read-only half of two-choice replica
     * selection, DESIGN.md, "Threads"). The urgent bucket is not consulted, so {@link #offer} may still reject with
     * {@link RejectReason#TENANT_QUOTA}.
     */
    public Decision<T> evaluate(TicketRequest request) {
        return decide(request, nanoClock.getAsLong());
    }

    /**
     * Requests a ticket; if admitted, the ticket is queued and may already have been dispatched to the
     * listener when this returns.
     *
     * @param request the request
     * @param payload the caller's payload, handed back with the ticket
     * @return the decision, carrying the ticket if admitted
     */
    public Decision<T> offer(TicketRequest request, T payload) {
        long now = nanoClock.getAsLong();
        Decision<T> d = decide(request, now);
        if (d.admitted()
                && request.hard()
                && !levels.tryAcquireUrgent(request.tenant(), request.deadlineNanos(), now)) {
            d = Decision.reject(RejectReason.TENANT_QUOTA, d.predictedFinishNanos());
        }
        if (request.hard()) {
            levels.recordHardOffer(request.tenant(), outcome(request, d, now), now);
        }
        if (!d.admitted()) {
            return d;
        }
        Ticket<T> ticket = new Ticket<>(
                request,
                levels.levelOf(request.tenant()),
                payload,
                absoluteDeadline(request),
                nextSequence++,
                d.predictedFinishNanos());
        insertAt(insertionIndex(ticket.deadlineAtNanos()), ticket);
        pump(now);
        return Decision.admit(d.predictedFinishNanos(), ticket);
    }

    private Decision<T> decide(TicketRequest request, long now) {
        long deadlineAt = absoluteDeadline(request);
        int position = insertionIndex(deadlineAt);
        double kappaLevel = request.hard() ? levels.kappaLevel(request.tenant()) : 1.0;
        long finish = admission.predictFinishNanos(now, inflight, position, kappaLevel);
        if (!request.hard()) {
            return Decision.admit(finish, null);
        }
        if (queue.size() >= config.maxQueue()) {
            return Decision.reject(RejectReason.QUEUE_FULL, finish);
        }
        if (finish > deadlineAt - admission.guardNanos()) {
            return Decision.reject(RejectReason.DEADLINE_INFEASIBLE, finish);
        }
        if (!admission.othersStillMeet(queue, position, now, inflight)) {
            return Decision.reject(RejectReason.WOULD_BREAK_ADMITTED, finish);
        }
        return Decision.admit(finish, null);
    }

    /**
     * The decision as the level controller counts it. A refusal for a late prediction is predicted again twice: on an
     * idle backend (its own service only), and with only the work of its own and higher levels ahead (in flight, and
     * queued before its EDF position).
     */
    private OfferOutcome outcome(TicketRequest request, Decision<T> d, long now) {
        if (d.admitted()) {
            return OfferOutcome.ADMITTED;
        }
        if (d.reason() == RejectReason.TENANT_QUOTA) {
            return OfferOutcome.TENANT_QUOTA;
        }
        if (d.reason() != RejectReason.DEADLINE_INFEASIBLE) {
            return OfferOutcome.OTHER;
        }
        ServiceLevel level = levels.levelOf(request.tenant());
        double kappaLevel = levels.kappaLevel(level);
        long deadlineAt = absoluteDeadline(request);
        long latest = deadlineAt - admission.guardNanos();
        if (admission.predictFinishNanos(now, 0, 0, kappaLevel) > latest) {
            return OfferOutcome.IDLE_INFEASIBLE;
        }
        int ownAhead = 0;
        for (int l = 0; l <= level.ordinal(); l++) {
            ownAhead += inflightByLevel[l];
        }
        int position = insertionIndex(deadlineAt);
        for (int j = 0; j < position; j++) {
            if (queue.get(j).level().ordinal() <= level.ordinal()) {
                ownAhead++;
            }
        }
        return admission.predictFinishNanos(now, ownAhead, 0, kappaLevel) > latest
                ? OfferOutcome.OWN_LOAD
                : OfferOutcome.LOWER_LOAD;
    }

    private long absoluteDeadline(TicketRequest r) {
        long d = r.deadlineNanos() == TicketRequest.NO_DEADLINE ? nominalDeadlineNanos : r.deadlineNanos();
        return r.arrivalNanos() + d;
    }

    /** EDF position within the suffix after the last frozen ticket; equal deadlines keep admission order. */
    private int insertionIndex(long deadlineAtNanos) {
        int start = 0;
        for (int i = queue.size() - 1; i >= 0; i--) {
            if (queue.get(i).frozen()) {
                start = i + 1;
                break;
            }
        }
        int i = start;
        while (i < queue.size() && queue.get(i).deadlineAtNanos() <= deadlineAtNanos) {
            i++;
        }
        return i;
    }

    private void insertAt(int position, Ticket<T> ticket) {
        queue.add(position, ticket);
        if (ticket.hard()) {
            earliestHardDeadline = Math.min(earliestHardDeadline, ticket.deadlineAtNanos());
        }
        for (int j = position + 1; j < queue.size(); j++) {
            queue.get(j).demote(config.maxDemotions());
        }
    }

    /**
     * Releases a dispatched ticket after the backend answered (MicroFuge's ticket release with latency
     * metadata [MicroFuge §4.1]): feeds the service time into the model, records met/missed for hard tickets, and
     * dispatches the next tickets.
     *
     * @throws IllegalStateException if the ticket is not dispatched (completed twice, or never dispatched)
     */
    public void complete(Ticket<T> ticket) {
        if (ticket.state() != Ticket.State.DISPATCHED) {
            throw new IllegalStateException("complete() on " + ticket + " (expected: state DISPATCHED)");
        }
        long now = nanoClock.getAsLong();
        ticket.markCompleted(now);
        inflight--;
        inflightByLevel[ticket.level().ordinal()]--;
        admission.observeReply(ticket.dispatchedAtNanos(), now);
        if (ticket.hard()) {
            admission.recordOutcome(now <= ticket.deadlineAtNanos(), now);
        } else {
            admission.rollEpoch(now);
        }
        pump(now);
    }

    /**
     * Withdraws a queued ticket (a local cache hit, or the losing replica of a two-choice).
     *
     * @return true if the ticket was queued and is now cancelled; false if it was already dispatched or done
     */
    public boolean cancel(Ticket<T> ticket) {
        if (ticket.state() != Ticket.State.QUEUED || !queue.remove(ticket)) {
            return false;
        }
        ticket.markCancelled();
        return true;
    }

    /**
     * Gives back the window place of a dispatched ticket whose request was not sent after all (its client went away
     * meanwhile), without a service time for the latency model or a met/missed outcome, and dispatches the next.
     *
     * @throws IllegalStateException if the ticket is not dispatched
     */
    public void abandon(Ticket<T> ticket) {
        if (ticket.state() != Ticket.State.DISPATCHED) {
            throw new IllegalStateException("abandon() on " + ticket + " (expected: state DISPATCHED)");
        }
        ticket.markCancelled();
        inflight--;
        inflightByLevel[ticket.level().ordinal()]--;
        pump(nanoClock.getAsLong());
    }

    /** Dispatches queued tickets while the window has room; drops expired hard ones if configured. */
    private void pump(long now) {
        if (pumping) {
            return; // a listener called back into us; the outer loop continues
        }
        pumping = true;
        try {
            dropExpired(now);
            while (inflight < config.window() && !queue.isEmpty()) {
                Ticket<T> t = queue.remove(0);
                if (config.dropExpired() && t.hard() && now > t.deadlineAtNanos()) {
                    t.markExpired();
                    admission.recordOutcome(false, now);
                    listener.expired(t);
                    continue;
                }
                inflight++;
                inflightByLevel[t.level().ordinal()]++;
                t.markDispatched(now);
                listener.dispatch(t);
            }
        } finally {
            pumping = false;
        }
    }

    /**
     * With {@code drop_expired}, removes every queued hard ticket whose deadline has passed, wherever it waits, so its
     * client hears "deadline exceeded" now rather than when the ticket would reach the head of the queue. Removing
     * tickets keeps the queue's order, so the EDF invariant of {@link #insertionIndex} holds. Listeners run after the
     * sweep, because they may offer new tickets.
     */
    private void dropExpired(long now) {
        if (!config.dropExpired() || now <= earliestHardDeadline) {
            return;
        }
        List<Ticket<T>> dropped = null;
        long earliest = Long.MAX_VALUE;
        for (Iterator<Ticket<T>> it = queue.iterator(); it.hasNext(); ) {
            Ticket<T> t = it.next();
            if (!t.hard()) {
                continue;
            }
            if (now > t.deadlineAtNanos()) {
                it.remove();
                t.markExpired();
                admission.recordOutcome(false, now);
                if (dropped == null) {
                    dropped = new ArrayList<>();
                }
                dropped.add(t);
            } else {
                earliest = Math.min(earliest, t.deadlineAtNanos());
            }
        }
        earliestHardDeadline = earliest;
        if (dropped != null) {
            dropped.forEach(listener::expired);
        }
    }

    /** Tickets queued and not yet dispatched. */
    public int queueLength() {
        return queue.size();
    }

    /** Tickets dispatched and not yet completed. */
    public int inflight() {
        return inflight;
    }

    /** The queued tickets in dispatch order (a read-only view, valid until the next call). */
    public List<Ticket<T>> queued() {
        return Collections.unmodifiableList(queue);
    }

    /** This backend's admission controller (latency model, kappa, met/missed totals). */
    public AdmissionController admission() {
        return admission;
    }
}
