package io.locus.memcached.deadline;

import io.locus.memcached.backend.ProxyRequest;
import io.locus.memcached.backend.ReplySink;
import io.locus.memcached.backend.RequestHandler;
import io.locus.memcached.protocol.Command;
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
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Base64;
import java.util.List;

/**
 * The deadline path of one I/O thread: the in-proxy cache in front of the backends, and one EDF scheduler with
 * admission control per backend (DESIGN.md).
 *
 * <p>Reads: classic {@code get} and {@code mg} with the flags of {@link MetaGetFlags} are answered from the cache;
 * on a miss the proxy sends the fill {@code mg <key> v f t} through the key's scheduler, stores the value and builds
 * the client's reply from it. {@code gets gat gats}, other {@code mg} forms and {@code me} go to the backend
 * unchanged (they need its cas unique, clock or access bits), also through the scheduler. Writes ({@code set add
 * replace append prepend cas delete incr decr touch gat gats ms md ma}, {@code mg} with {@code T N E}) drop the
 * local copy before they are forwarded and again when the backend answered; {@code flush_all} clears the cache.
 *
 * <p>Scheduling: every keyed request goes through the scheduler of its backend (writes and best-effort reads
 * best-effort, never refused); a hard-deadline read the scheduler cannot finish in time is refused up front with the
 * reply of DESIGN.md, "Tenants and deadlines" ({@code classic.reject_mode}, {@code meta.reject_mode}); a queued hard
 * request whose deadline passes is dropped. The latency model learns from each dispatch-to-reply time. Multi-gets
 * spanning several backends without the cache, {@code flush_all} and base64 ({@code b}) meta keys bypass the
 * schedulers.
 *
 * <p>The cache hits and fills are {@link CachedReads}; this class routes and schedules, the fills included.
 *
 * <p>Confined to its event loop (the schedulers' owner thread, DESIGN.md, "Threads").
 */
public final class DeadlineHandler implements RequestHandler {
    private final RequestHandler backends;
    private final DeadlineServices services;
    private final LocalCache cache;
    private final ProxyStats stats;
    private final List<DeadlineScheduler<ScheduledRequest>> schedulers = new ArrayList<>();
    /** Keeps one client connection's requests to a backend in order through the schedulers. */
    private final ConnectionOrder order;
    /** What a scheduled request needs when its ticket is dispatched or expires. */
    private final ScheduledRequest.Host host;
    /** Cache hits and fills; its fills come back through {@link #routeFill}. */
    private final CachedReads reads;

    private final java.util.SplittableRandom random = new java.util.SplittableRandom();

    /** The handler factory: one {@link DeadlineHandler} per I/O thread around its pass-through path. */
    public static RequestHandler.Factory factory(DeadlineServices services) {
        return backends -> new DeadlineHandler(backends, services);
    }

    DeadlineHandler(RequestHandler backends, DeadlineServices services) {
        this.backends = backends;
        this.services = services;
        this.cache = services.cache();
        this.stats = services.stats();
        this.order = new ConnectionOrder(services.ring().servers().size());
        this.host = new ScheduledRequest.Host(backends, stats, order);
        this.reads = new CachedReads(cache, services, this::routeFill);
        TicketListener<ScheduledRequest> listener = new TicketListener<>() {
            @Override
            public void dispatch(Ticket<ScheduledRequest> ticket) {
                ticket.payload().dispatch(ticket);
            }

            @Override
            public void expired(Ticket<ScheduledRequest> ticket) {
                ticket.payload().expired();
            }
        };
        for (int i = 0; i < services.ring().servers().size(); i++) {
            schedulers.add(
                    new DeadlineScheduler<>(services.schedulerConfig(), services.levels(), System::nanoTime, listener));
        }
    }

    /** The scheduler of backend {@code index}, for tests and {@code stats}; owner thread only. */
    public DeadlineScheduler<?> scheduler(int index) {
        return schedulers.get(index);
    }

    /**
     * A request that does not go through a scheduler ({@code flush_all}, a multi-get over several backends without the
     * cache, a base64 meta key) would overtake its connection's queued requests; it waits until they are dispatched,
     * and the connection's later requests wait behind it, so one connection's requests reach a backend in order.
     */
    @Override
    public void handle(ProxyRequest pr, ReplySink clientSink) {
        boolean bypass = bypassesSchedulers(pr);
        if (!order.mustDefer(pr.connectionId(), bypass)) {
            process(pr, clientSink);
        } else {
            order.deferred(pr.connectionId(), bypass, () -> process(pr, clientSink));
        }
    }

    private boolean bypassesSchedulers(ProxyRequest pr) {
        MemcachedRequest req = pr.request();
        return switch (req.command().family()) {
            case BROADCAST -> true;
            case RETRIEVAL -> !(req.command() == Command.GET && cache != null) && backendOfAll(req) < 0;
            case META -> pr.resolution().forwardedFlags().stream().anyMatch(f -> f.charAt(0) == 'b');
            default -> false;
        };
    }

    private void process(ProxyRequest pr, ReplySink clientSink) {
        MemcachedRequest req = pr.request();
        TenantMetrics.Counters counters = services.metrics().of(pr.resolution().tenant());
        MeteredSink sink = new MeteredSink(clientSink, counters, pr, MeteredSink.hardDeadlineNanos(pr));
        Command cmd = req.command();
        switch (cmd.family()) {
            case RETRIEVAL -> {
                if (cmd == Command.GET && cache != null) {
                    reads.classicGet(pr, sink);
                    return;
                }
                List<byte[]> keys = new ArrayList<>();
                if (cmd == Command.GAT || cmd == Command.GATS) {
                    for (int i = 0; i < req.keyCount(); i++) {
                        keys.add(req.keyBytes(i));
                    }
                }
                if (cmd == Command.GET && req.keyCount() == 1) {
                    int[] copies = copiesOf(req.keyBytes());
                    if (copies != null) {
                        forward(pr, sink, TicketRequest.Kind.READ, readBackend(pr, copies), keys, true);
                        return;
                    }
                }
                forward(pr, sink, TicketRequest.Kind.READ, backendOfAll(req), keys);
            }
            case META -> {
                List<String> flags = pr.resolution().forwardedFlags();
                boolean base64 = flags.stream().anyMatch(f -> f.charAt(0) == 'b');
                MetaGetFlags mg = cmd == Command.MG && cache != null && !base64 ? MetaGetFlags.parse(flags) : null;
                if (mg != null) {
                    reads.metaGet(pr, sink, mg);
                    return;
                }
                int backend = base64 ? -1 : ownerOf(req.keyBytes());
                boolean writes = cmd == Command.MS
                        || cmd == Command.MD
                        || cmd == Command.MA
                        || (cmd == Command.MG && flags.stream().anyMatch(f -> "TNE".indexOf(f.charAt(0)) >= 0));
                List<byte[]> keys = writes ? List.of(cacheKey(req.keyBytes(), base64)) : List.of();
                forward(pr, sink, writes ? TicketRequest.Kind.WRITE : TicketRequest.Kind.READ, backend, keys);
            }
            case STORAGE, KEYED ->
                forward(pr, sink, TicketRequest.Kind.WRITE, ownerOf(req.keyBytes()), List.of(req.keyBytes()));
            case BROADCAST -> {
                if (cache != null) {
                    cache.clear();
                }
                backends.handle(pr, cache == null ? sink : ReplySink.after(sink, cache::clear));
            }
            default -> backends.handle(pr, sink);
        }
    }

    private static byte[] cacheKey(byte[] key, boolean base64) {
        if (base64) {
            try {
                return Base64.getDecoder().decode(key);
            } catch (IllegalArgumentException e) {
                return key; // memcached refuses it; nothing to invalidate
            }
        }
        return key;
    }

    /**
     * The backend a request for {@code key} goes to first: its virtual bucket's owner when the handler below places
     * keys (balancing, Phase 3 moves), else the ring's. Schedule there, or the scheduler would model the wrong queue.
     */
    private int ownerOf(byte[] key) {
        int[] copies = copiesOf(key);
        return copies != null ? copies[0] : services.ring().serverFor(key);
    }

    /** {@link RequestHandler#readCopies}, asked only of a handler that places keys itself. */
    private int[] copiesOf(byte[] key) {
        return backends.placesKeys() ? backends.readCopies(new String(key, StandardCharsets.ISO_8859_1)) : null;
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
        List<DeadlineScheduler<ScheduledRequest>> candidates = new ArrayList<>(two.size());
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
        ReplicaChoice.Choice<ScheduledRequest> choice = ReplicaChoice.choose(candidates, tr);
        return choice.index() >= 0 ? two.get(choice.index()) : copies[0];
    }

    /** The backend owning all of the request's keys, or -1 if they span several. */
    private int backendOfAll(MemcachedRequest req) {
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
     * Sends a client request to its backend through the scheduler; {@code invalidate} are the cache keys the request
     * writes (dropped before sending and after the reply).
     */
    private void forward(
            ProxyRequest pr, MeteredSink sink, TicketRequest.Kind kind, int backend, List<byte[]> invalidate) {
        forward(pr, sink, kind, backend, invalidate, false);
    }

    /** As above; {@code routed}: a read whose {@code backend} was chosen among the key's copies ({@link #readBackend}). */
    private void forward(
            ProxyRequest pr,
            MeteredSink sink,
            TicketRequest.Kind kind,
            int backend,
            List<byte[]> invalidate,
            boolean routed) {
        ReplySink target = sink;
        if (cache != null && !invalidate.isEmpty()) {
            invalidate.forEach(cache::invalidate);
            target = ReplySink.after(sink, () -> invalidate.forEach(cache::invalidate));
        }
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
        DeadlineScheduler<ScheduledRequest> scheduler = schedulers.get(backend);
        ScheduledRequest p =
                new ScheduledRequest(host, scheduler, pr, routed ? backend : -1, target, counters, internal, refusal);
        Decision<ScheduledRequest> d = scheduler.offer(tr, p);
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
        Decision<ScheduledRequest> d = schedulers.get(backend).offer(be, p);
        if (d.ticket() != null && d.ticket().state() == Ticket.State.QUEUED) {
            p.markQueued();
            counters.queued().incrementAndGet();
            order.queued(copy.connectionId());
        }
    }

    /**
     * The backend and ticket of a cache fill: a copy chosen like any single-key read, else the key's ring server; the
     * fill is an internal request (not counted as a client's meta request).
     */
    private FillPath.Route routeFill(ProxyRequest fr, String key) {
        int[] copies = backends.readCopies(key);
        int backend = copies == null ? services.ring().serverFor(LocalCache.bytes(key)) : readBackend(fr, copies);
        TicketRequest tr = order.ticketRequest(fr, TicketRequest.Kind.READ, backend, services.nominalMicros());
        long due = fr.resolution().deadline().bestEffort() ? Long.MAX_VALUE : tr.arrivalNanos() + tr.deadlineNanos();
        return new FillPath.Route() {
            @Override
            public long deadlineNanos() {
                return due;
            }

            @Override
            public void send(ReplySink target, TenantMetrics.Counters counters, ScheduledRequest.Refusal refusal) {
                submit(fr, backend, copies != null, tr, target, counters, true, refusal);
            }
        };
    }
}
