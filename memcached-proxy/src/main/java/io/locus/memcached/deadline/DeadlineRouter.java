package io.locus.memcached.deadline;

import io.locus.memcached.backend.ProxyRequest;
import io.locus.memcached.backend.ReplySink;
import io.locus.memcached.backend.RequestHandler;
import io.locus.memcached.protocol.MemcachedRequest;
import io.locus.memcached.schedule.DeadlineScheduler;
import io.locus.memcached.schedule.Decision;
import io.locus.memcached.schedule.RejectReason;
import io.locus.memcached.schedule.ReplicaChoice;
import io.locus.memcached.schedule.Ticket;
import io.locus.memcached.schedule.TicketListener;
import io.locus.memcached.schedule.TicketRequest;
import io.locus.memcached.stats.ProxyStats;
import io.locus.memcached.stats.TenantMetrics;
import io.locus.memcached.tenant.Deadline;
import java.util.ArrayList;
import java.util.List;
import java.util.SplittableRandom;

/**
 * Where a backend request of the full mode goes and when: the backend (the key's owner, or the copy predicted to
 * finish first), the ticket at that backend's EDF scheduler with admission, and the send to the handler below once the
 * ticket is dispatched. Client requests ({@link DeadlineHandler}) and cache fills ({@link CachedReads}) both leave
 * through here; it knows nothing of the cache.
 *
 * <p>Confined to its event loop (the schedulers' owner thread, DESIGN.md, "Threads").
 */
final class DeadlineRouter {
    private final RequestHandler backends;
    private final DeadlineServices services;
    private final ProxyStats stats;
    private final ConnectionOrder order;
    private final List<DeadlineScheduler<ScheduledWork>> schedulers = new ArrayList<>();
    /** What a scheduled request needs when its ticket is dispatched or expires. */
    private final ScheduledRequest.Host host;

    private final SplittableRandom random = new SplittableRandom();

    DeadlineRouter(RequestHandler backends, DeadlineServices services, ConnectionOrder order) {
        this.backends = backends;
        this.services = services;
        this.stats = services.stats();
        this.order = order;
        this.host = new ScheduledRequest.Host(backends, stats, order);
        TicketListener<ScheduledWork> listener = new TicketListener<>() {
            @Override
            public void dispatch(Ticket<ScheduledWork> ticket) {
                ticket.payload().dispatch(ticket);
            }

            @Override
            public void expired(Ticket<ScheduledWork> ticket) {
                ticket.payload().expired();
            }
        };
        for (int i = 0; i < services.ring().servers().size(); i++) {
            schedulers.add(
                    new DeadlineScheduler<>(services.schedulerConfig(), services.levels(), System::nanoTime, listener));
        }
    }

    DeadlineScheduler<?> scheduler(int index) {
        return schedulers.get(index);
    }

    /**
     * The backend a request for {@code key} goes to first: its virtual bucket's owner when the handler below places
     * keys (balancing, Phase 3 moves), else the ring's. Schedule there, or the scheduler would model the wrong queue.
     */
    int ownerOf(byte[] key) {
        int[] copies = copiesOf(key);
        return copies != null ? copies[0] : services.ring().serverFor(key);
    }

    /** {@link RequestHandler#readCopies}, asked only of a handler that places keys itself. */
    private int[] copiesOf(byte[] key) {
        return backends.placesKeys() ? backends.readCopies(key) : null;
    }

    /** The backend owning all of the request's keys, or -1 if they span several. */
    int backendOfAll(MemcachedRequest req) {
        int backend = -1;
        for (int i = 0; i < req.keyCount(); i++) {
            int b = ownerOf(req.keyBytes(i));
            if (backend >= 0 && b != backend) {
                return -1;
            }
            backend = b;
        }
        return backend;
    }

    /**
     * A classic retrieval: a single-key {@code get} to the copy predicted to finish first, anything else to the backend
     * owning all its keys, or unscheduled when they span several.
     */
    void read(ProxyRequest pr, MeteredSink sink, ReplySink target, boolean singleGet) {
        if (singleGet) {
            int[] copies = copiesOf(pr.request().keyBytes());
            if (copies != null) {
                send(pr, sink, target, TicketRequest.Kind.READ, readBackend(pr, copies), true);
                return;
            }
        }
        send(pr, sink, target, TicketRequest.Kind.READ, backendOfAll(pr.request()), false);
    }

    /**
     * Sends a client request to {@code backend} through its scheduler, or straight to the handler below when
     * {@code backend} is -1; {@code target} gets the reply, {@code sink} answers a refusal.
     */
    void forward(ProxyRequest pr, MeteredSink sink, ReplySink target, TicketRequest.Kind kind, int backend) {
        send(pr, sink, target, kind, backend, false);
    }

    /** {@code routed}: a read whose {@code backend} was chosen among the key's copies ({@link #readBackend}). */
    private void send(
            ProxyRequest pr, MeteredSink sink, ReplySink target, TicketRequest.Kind kind, int backend, boolean routed) {
        if (backend < 0) {
            backends.handle(pr, target);
            return;
        }
        boolean meta = pr.request().command().isMeta();
        boolean quiet = pr.request().quiet();
        submit(
                pr,
                backend,
                routed,
                order.ticketRequest(pr, kind, backend, services.nominalMicros()),
                target,
                sink.counters(),
                false,
                (reason, est) -> {
                    sink.markRejected(true);
                    if (meta) {
                        if (services.metaRejectAsError()
                                || reason == RejectReason.TENANT_QUOTA
                                || reason == RejectReason.DEADLINE_EXCEEDED) {
                            sink.completeLine("SERVER_ERROR " + reason.serverErrorText(est));
                        } else if (quiet) {
                            sink.completeSilently();
                        } else {
                            sink.completeLine("EN");
                        }
                    } else if (services.classicRejectAsError()
                            && reason != RejectReason.DEADLINE_EXCEEDED
                            && reason != RejectReason.TENANT_QUOTA) {
                        sink.completeLine("SERVER_ERROR " + reason.serverErrorText(est));
                    } else {
                        sink.completeLine("END");
                    }
                });
    }

    /**
     * The backend and ticket of a cache fill: a copy chosen like any single-key read, else the key's ring server; the
     * fill is an internal request (not counted as a client's meta request). Nothing is sent until {@link Fill#send}.
     */
    Fill routeFill(ProxyRequest fr, byte[] key) {
        int[] copies = backends.readCopies(key);
        int backend = copies == null ? services.ring().serverFor(key) : readBackend(fr, copies);
        TicketRequest tr = order.ticketRequest(fr, TicketRequest.Kind.READ, backend, services.nominalMicros());
        long due = fr.resolution().deadline().bestEffort() ? Long.MAX_VALUE : tr.arrivalNanos() + tr.deadlineNanos();
        return new Fill(fr, backend, copies != null, tr, due);
    }

    /** A fill whose backend and ticket are chosen. */
    final class Fill {
        private final ProxyRequest fr;
        private final int backend;
        private final boolean routed;
        private final TicketRequest tr;
        private final long due;

        private Fill(ProxyRequest fr, int backend, boolean routed, TicketRequest tr, long due) {
            this.fr = fr;
            this.backend = backend;
            this.routed = routed;
            this.tr = tr;
            this.due = due;
        }

        /** Absolute deadline of the fill's ticket (nanoTime), or {@link Long#MAX_VALUE} for a best-effort fill. */
        long deadlineNanos() {
            return due;
        }

        /** Sends the fill; {@code refusal} runs instead of {@code target} if admission refuses it. */
        void send(ReplySink target, TenantMetrics.Counters counters, ScheduledRequest.Refusal refusal) {
            submit(fr, backend, routed, tr, target, counters, true, refusal);
        }
    }

    /**
     * Offers a multi-get's batch to its backend's scheduler as a read of the client's request ({@code origin}: its
     * tenant, deadline and connection order), or sends it at once when nothing is scheduled. A best-effort get's batch
     * counts its nominal deadline from now, when its connection's share lets it go: with the get's arrival, the 50th
     * batch of a long get would go ahead of every request that arrived while the first 49 were fetched.
     */
    void submitBatch(GetBatch batch, ProxyRequest origin, TenantMetrics.Counters counters) {
        if (!services.scheduling()) {
            batch.send(null);
            return;
        }
        DeadlineScheduler<ScheduledWork> scheduler = schedulers.get(batch.backend());
        ProxyRequest asOf = origin.resolution().deadline().bestEffort()
                ? new ProxyRequest(origin.request(), origin.resolution(), System.nanoTime(), origin.connectionId())
                : origin;
        TicketRequest tr =
                order.ticketRequest(asOf, TicketRequest.Kind.READ, batch.backend(), services.nominalMicros());
        batch.offeredTo(scheduler);
        Decision<ScheduledWork> d = scheduler.offer(tr, batch);
        if (!d.admitted()) {
            counters.rejected().increment();
            batch.refused(d.reason(), Math.max(0, (d.predictedFinishNanos() - System.nanoTime()) / 1000));
            return;
        }
        batch.admitted(d.ticket());
    }

    /**
     * The backend for a single-key read given the backends that hold a readable copy ({@code copies}, the owner first):
     * of two picked at random, the one whose scheduler predicts the earlier admitted finish (MicroFuge's replica choice
     * [MicroFuge §4.1]; DESIGN.md, "Threads"; {@link ReplicaChoice}), or the owner if neither admits. Why random two
     * and not all: the paper's power of two choices, which keeps the schedulers' model error from herding reads onto
     * one copy. Only while none of the connection's requests waits in a scheduler queue: a queued write of the same
     * connection has not begun yet, so no copy knows it is stale, and the read must follow it to the owner
     * (per-connection order).
     */
    private int readBackend(ProxyRequest pr, int[] copies) {
        if (copies.length == 1 || !services.scheduling() || order.hasQueued(pr.connectionId())) {
            return copies[0];
        }
        List<Integer> all = new ArrayList<>(copies.length);
        for (int c : copies) {
            all.add(c);
        }
        List<Integer> two = ReplicaChoice.pickTwo(all, random);
        List<DeadlineScheduler<ScheduledWork>> candidates = new ArrayList<>(two.size());
        for (int b : two) {
            candidates.add(schedulers.get(b));
        }
        Deadline d = pr.resolution().deadline();
        TicketRequest tr = new TicketRequest(
                pr.resolution().tenant(),
                TicketRequest.Kind.READ,
                !d.bestEffort(),
                pr.arrivalNanos(),
                d.microsOr(services.nominalMicros()) * 1000);
        ReplicaChoice.Choice<ScheduledWork> choice = ReplicaChoice.choose(candidates, tr);
        return choice.index() >= 0 ? two.get(choice.index()) : copies[0];
    }

    /** {@code routed}: send to {@code backend} even if it holds a copy rather than the owner's item. */
    private void submit(
            ProxyRequest pr,
            int backend,
            boolean routed,
            TicketRequest tr,
            ReplySink target,
            TenantMetrics.Counters counters,
            boolean internal,
            ScheduledRequest.Refusal refusal) {
        if (!services.scheduling()) {
            // DLC alone: in arrival order straight to the backend connection, nothing refused, nothing reordered.
            backends.handle(pr, target);
            if (internal) {
                stats.decrement(ProxyStats.Counter.META_REQUESTS); // a fill is not a client's meta request
            }
            return;
        }
        DeadlineScheduler<ScheduledWork> scheduler = schedulers.get(backend);
        ScheduledRequest p =
                new ScheduledRequest(host, scheduler, pr, routed ? backend : -1, target, counters, internal, refusal);
        Decision<ScheduledWork> d = scheduler.offer(tr, p);
        if (!d.admitted()) {
            counters.rejected().increment();
            backends.refusedRead(pr); // only reads are ever refused: writes are best-effort
            maybeReissue(pr, backend, tr, d.reason(), counters);
            pr.request().release();
            refusal.refused(d.reason(), Math.max(0, (d.predictedFinishNanos() - System.nanoTime()) / 1000));
            return;
        }
        if (d.ticket().state() == Ticket.State.QUEUED) {
            p.markQueued();
            counters.queued().incrementAndGet();
            order.queued(pr.connectionId());
        }
    }

    /**
     * Re-issues a refused meta read as a best-effort background request whose reply is dropped, within the tenant's
     * re-issue bucket ({@code reissue.rate}, {@code reissue.burst}; [MicroFuge §4.3]). Why: while admission refuses
     * nearly every hard read, the latency model would otherwise see only the few best-effort completions and could stay
     * pessimistic long after the backend recovered.
     */
    private void maybeReissue(
            ProxyRequest pr, int backend, TicketRequest tr, RejectReason reason, TenantMetrics.Counters counters) {
        if (!tr.hard()
                || !pr.request().command().isMeta()
                || reason == RejectReason.TENANT_QUOTA
                || !services.levels().tryAcquireReissue(tr.tenant(), System.nanoTime())) {
            return;
        }
        services.reissues().increment();
        pr.request().retain();
        ProxyRequest copy = new ProxyRequest(pr.request(), pr.resolution(), System.nanoTime(), pr.connectionId());
        TicketRequest be = TicketRequest.bestEffortRead(tr.tenant(), copy.arrivalNanos(), TicketRequest.NO_DEADLINE);
        ScheduledRequest p = new ScheduledRequest(
                host, schedulers.get(backend), copy, -1, ReplySink.DISCARD, counters, true, (r, est) -> {});
        Decision<ScheduledWork> d = schedulers.get(backend).offer(be, p);
        if (d.ticket() != null && d.ticket().state() == Ticket.State.QUEUED) {
            // Its reply is dropped, so no later request of the client's connection has to follow it; counted as the
            // connection's queued request, it would lift the connection's next read to the deadline of its last write.
            p.markQueuedOutsideOrder();
            counters.queued().incrementAndGet();
        }
    }
}
