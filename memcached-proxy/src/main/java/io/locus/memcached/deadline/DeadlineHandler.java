package io.locus.memcached.deadline;

import io.locus.memcached.backend.BatchSender;
import io.locus.memcached.backend.ProxyRequest;
import io.locus.memcached.backend.ReplySink;
import io.locus.memcached.backend.RequestHandler;
import io.locus.memcached.protocol.Command;
import io.locus.memcached.protocol.MemcachedRequest;
import io.locus.memcached.protocol.MetaFlags;
import io.locus.memcached.schedule.DeadlineScheduler;
import io.locus.memcached.schedule.TicketRequest;
import io.locus.memcached.stats.ProxyStats;
import io.locus.memcached.stats.TenantMetrics;
import java.util.ArrayList;
import java.util.Base64;
import java.util.List;

/**
 * The deadline path of one I/O thread: the in-proxy cache in front of the backends, and one EDF scheduler with
 * admission control per backend (DESIGN.md).
 *
 * <p>Reads: classic {@code get} and {@code mg} with the flags of {@link MetaGetFlags} are answered from the cache, an
 * {@code mg} whose flags memcached refuses with memcached's error ({@link MetaFlags#error});
 * on a miss the proxy sends the fill {@code mg <key> v f t} through the key's scheduler, stores the value and builds
 * the client's reply from it. {@code gets gat gats}, other {@code mg} forms and {@code me} go to the backend
 * unchanged (they need its cas unique, clock or access bits), also through the scheduler. Writes ({@code set add
 * replace append prepend cas delete incr decr touch gat gats ms md ma}, {@code mg} with {@code T N E}) drop the
 * local copy before they are forwarded and again when the backend answered; {@code flush_all} clears the cache.
 *
 * <p>Scheduling: every keyed request goes through the scheduler of its backend (writes and best-effort reads
 * best-effort, never refused); a hard-deadline read the scheduler cannot finish in time is refused up front with the
 * reply of DESIGN.md, "Tenants and deadlines" ({@code classic.reject_mode}, {@code meta.reject_mode}); a queued hard
 * request whose deadline passes is dropped. The latency model learns from each backend reply. Multi-gets
 * spanning several backends without the cache, {@code flush_all} and base64 ({@code b}) meta keys bypass the
 * schedulers.
 *
 * <p>This class decides what a request is (a cached read, a forwarded read, a write, a broadcast) and drops the local
 * copies a write touches; the cache hits and fills are {@link CachedReads}, and where a backend request goes and when
 * is {@link DeadlineRouter}'s, for the fills too.
 *
 * <p>Confined to its event loop (the schedulers' owner thread, DESIGN.md, "Threads").
 */
public final class DeadlineHandler implements RequestHandler {
    private final RequestHandler backends;
    private final DeadlineServices services;
    private final LocalCache cache;
    /** Keeps one client connection's requests to a backend in order through the schedulers. */
    private final ConnectionOrder order;
    /** Backend, ticket and send, for client requests and the cache's fills alike. */
    private final DeadlineRouter router;
    /** Cache hits and fills. */
    private final CachedReads reads;
    /** The tenant of the last request and its counters: a connection's requests mostly share one tenant. */
    private String lastTenant;

    private TenantMetrics.Counters lastCounters;

    /** The handler factory: one {@link DeadlineHandler} per I/O thread around its pass-through path. */
    public static RequestHandler.Factory factory(DeadlineServices services) {
        return backends -> new DeadlineHandler(backends, services);
    }

    DeadlineHandler(RequestHandler backends, DeadlineServices services) {
        this.backends = backends;
        this.services = services;
        this.cache = services.cache();
        this.order = new ConnectionOrder(services.ring().servers().size());
        this.router = new DeadlineRouter(backends, services, order);
        BatchSender sender = backends.batches();
        BatchedGet.Context batches = sender == null
                ? null
                : new BatchedGet.Context(
                        cache,
                        services,
                        router,
                        order,
                        new ConnectionShares(services.ring().servers().size(), order),
                        new FetchQueue(order),
                        sender);
        this.reads = new CachedReads(cache, services, router, batches);
    }

    /** The scheduler of backend {@code index}, for tests and {@code stats}; owner thread only. */
    public DeadlineScheduler<?> scheduler(int index) {
        return router.scheduler(index);
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
            case RETRIEVAL -> !(req.command() == Command.GET && cache != null) && router.backendOfAll(req) < 0;
            case META -> pr.flags().has('b');
            default -> false;
        };
    }

    private void process(ProxyRequest pr, ReplySink clientSink) {
        MemcachedRequest req = pr.request();
        TenantMetrics.Counters counters = countersOf(pr.resolution().tenant());
        Command cmd = req.command();
        if (cmd == Command.GET && cache != null) {
            reads.classicGet(pr, clientSink, counters);
            return;
        }
        MeteredSink sink = new MeteredSink(clientSink, counters, pr, MeteredSink.hardDeadlineNanos(pr));
        switch (cmd.family()) {
            case RETRIEVAL -> {
                List<byte[]> keys = new ArrayList<>();
                if (cmd == Command.GAT || cmd == Command.GATS) {
                    for (int i = 0; i < req.keyCount(); i++) {
                        keys.add(req.keyBytes(i));
                    }
                }
                router.read(pr, sink, invalidating(sink, keys), cmd == Command.GET && req.keyCount() == 1);
            }
            case META -> {
                MetaFlags flags = pr.flags();
                boolean base64 = flags.has('b');
                if (cmd == Command.MG && cache != null && !base64) {
                    String refused = flags.error(cmd);
                    if (refused != null) { // memcached's own answer, without a backend call
                        services.stats().increment(ProxyStats.Counter.META_REQUESTS);
                        req.release();
                        sink.completeLine(refused);
                        return;
                    }
                    MetaGetFlags mg = MetaGetFlags.parse(flags);
                    if (mg != null) {
                        reads.metaGet(pr, sink, mg);
                        return;
                    }
                }
                int backend = base64 ? -1 : router.ownerOf(req.keyBytes());
                boolean writes = cmd == Command.MS
                        || cmd == Command.MD
                        || cmd == Command.MA
                        || (cmd == Command.MG && flags.anyOf("TNE"));
                List<byte[]> keys = writes ? List.of(cacheKey(req.keyBytes(), base64)) : List.of();
                router.forward(
                        pr,
                        sink,
                        invalidating(sink, keys),
                        writes ? TicketRequest.Kind.WRITE : TicketRequest.Kind.READ,
                        backend);
            }
            case STORAGE, KEYED ->
                router.forward(
                        pr,
                        sink,
                        invalidating(sink, List.of(req.keyBytes())),
                        TicketRequest.Kind.WRITE,
                        router.ownerOf(req.keyBytes()));
            case BROADCAST -> {
                if (cache != null) {
                    cache.clear();
                }
                backends.handle(pr, cache == null ? sink : ReplySink.after(sink, cache::clear));
            }
            default -> backends.handle(pr, sink);
        }
    }

    /** The tenant's counters; tenant names are the resolver's own strings, so the same tenant is the same object. */
    private TenantMetrics.Counters countersOf(String tenant) {
        if (tenant != lastTenant || lastCounters == null) {
            lastCounters = services.metrics().of(tenant);
            lastTenant = tenant;
        }
        return lastCounters;
    }

    /**
     * Drops the local copies of {@code keys}, the cache keys a request writes, now and again once the backend answered
     * (LocalCache's versions); the sink to send the request with.
     */
    private ReplySink invalidating(MeteredSink sink, List<byte[]> keys) {
        if (cache == null || keys.isEmpty()) {
            return sink;
        }
        keys.forEach(cache::invalidate);
        return ReplySink.after(sink, () -> keys.forEach(cache::invalidate));
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
}
