package io.locus.memcached.deadline;

import io.locus.memcached.backend.ProxyRequest;
import io.locus.memcached.backend.ReplySink;
import io.locus.memcached.cache.ByteKey;
import io.locus.memcached.cache.CachedItem;
import io.locus.memcached.cache.DeadlineCache;
import io.locus.memcached.cache.HitReader;
import io.locus.memcached.protocol.Command;
import io.locus.memcached.protocol.MemcachedRequest;
import io.locus.memcached.protocol.ValueReplyEncoder;
import io.locus.memcached.schedule.RejectReason;
import io.locus.memcached.stats.ProxyStats;
import io.locus.memcached.stats.TenantMetrics;
import io.locus.memcached.tenant.Deadline;
import io.locus.memcached.tenant.Resolution;
import io.netty.buffer.ByteBuf;
import io.netty.buffer.ByteBufAllocator;
import io.netty.buffer.PooledByteBufAllocator;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Consumer;

/**
 * The in-proxy cache's side of the deadline path (DEADLINES.md, "In the proxy"): classic {@code get} and {@code mg}
 * reads answered from the local cache, and on a miss the fill {@code mg <key> v f t} whose value is stored and turned
 * into the client's reply. Misses of one key wait for a fill already in flight (single-flight, {@link FillInFlight}).
 * Which backend a fill goes to and how it is scheduled is the {@link DeadlineRouter}'s business, not this class's.
 *
 * <p>Confined to its event loop, like the {@link DeadlineHandler} that owns it.
 */
final class CachedReads {
    private static final List<String> FILL_FLAGS = List.of("v", "f", "t");

    private final LocalCache cache;
    private final DeadlineServices services;
    private final ProxyStats stats;
    private final DeadlineRouter router;
    private final ByteBufAllocator alloc = PooledByteBufAllocator.DEFAULT;
    /** Writes a single get's hit as its reply; one per I/O thread, so a hit allocates nothing but the reply. */
    private final ValueReply valueReply = new ValueReply();

    /** What a multi-get's batches need, or null when the handler below must see every read one key at a time. */
    private final BatchedGet.Context batches;

    CachedReads(LocalCache cache, DeadlineServices services, DeadlineRouter router, BatchedGet.Context batches) {
        this.cache = cache;
        this.services = services;
        this.stats = services.stats();
        this.router = router;
        this.batches = batches;
    }

    /** Fills in flight on this I/O thread, by key. */
    private final Map<ByteKey, FillInFlight> fills = new HashMap<>();

    /**
     * Sends the fill {@code mg <key> v f t} for a local miss and stores what comes back; or waits for a fill of the same
     * key already in flight on this thread when that one is due no later and no write to the key's stripe came between
     * (a write through the proxy bumps the version first, so a read after its own write never waits for an older fill).
     */
    private void fill(byte[] k, ProxyRequest origin, TenantMetrics.Counters counters, Consumer<FillResult> done) {
        ByteKey key = new ByteKey(k);
        long version = cache.versionOf(k);
        Resolution r = origin.resolution();
        Deadline d = r.deadline();
        long mine = d.bestEffort() ? Long.MAX_VALUE : origin.arrivalNanos() + d.micros() * 1000;
        FillInFlight running = fills.get(key);
        if (running != null && running.version() == version && running.dueNoLaterThan(mine)) {
            running.waitFor(new FillInFlight.Waiter(origin, counters, done));
            services.fillsCoalesced().increment();
            return;
        }
        MemcachedRequest mg = MemcachedRequest.withKey(alloc, Command.MG, k, FILL_FLAGS);
        ProxyRequest fr =
                new ProxyRequest(mg, new Resolution(r.tenant(), d), origin.arrivalNanos(), origin.connectionId());
        long cacheDeadline = d.bestEffort() ? DeadlineCache.NO_DEADLINE : d.micros() * 1000;
        DeadlineRouter.Fill route = router.routeFill(fr, k);
        FillInFlight self = new FillInFlight(version, route.deadlineNanos());
        if (running == null || running.version() != version || !running.dueNoLaterThan(self.deadlineNanos())) {
            fills.put(key, self); // the earliest-due current fill is the one later misses should wait for
        }
        Consumer<FillResult> finish = result -> {
            if (fills.get(key) == self) {
                fills.remove(key);
            }
            done.accept(result);
            for (FillInFlight.Waiter w : self.waiters()) {
                if (result.refusal() != null) {
                    // Refused or dropped for the fill's deadline; a waiter's own later deadline deserves its own
                    // decision.
                    fill(k, w.origin(), w.counters(), w.done());
                } else {
                    w.done().accept(result);
                }
            }
        };
        route.send(
                new ReplySink() {
                    @Override
                    public void complete(ByteBuf reply) {
                        if (reply == null) {
                            finish.accept(FillResult.failure("SERVER_ERROR backend unavailable"));
                            return;
                        }
                        FillResult result;
                        try {
                            result = FillResult.parse(reply);
                        } catch (RuntimeException e) {
                            result = FillResult.failure("SERVER_ERROR bad fill reply from backend");
                        } finally {
                            reply.release();
                        }
                        if (result.hit()) {
                            cache.fill(
                                    k,
                                    result.value(),
                                    result.clientFlags(),
                                    result.ttlNanos(),
                                    cacheDeadline,
                                    r.tenant(),
                                    version);
                        }
                        finish.accept(result);
                    }

                    @Override
                    public void completeLine(String line) {
                        finish.accept(FillResult.failure(line));
                    }

                    @Override
                    public void completeSilently() {
                        finish.accept(FillResult.failure("SERVER_ERROR backend unavailable"));
                    }
                },
                counters,
                (reason, est) -> finish.accept(FillResult.refused(reason, est)));
    }

    private long cacheDeadline(ProxyRequest pr) {
        Deadline d = pr.resolution().deadline();
        return d.bestEffort() ? DeadlineCache.NO_DEADLINE : d.micros() * 1000;
    }

    /**
     * A {@code mg} with the flags of {@link MetaGetFlags}: a hit from the cache, else one fill. The request, whose line
     * the flags are read from, is released once its reply is written.
     */
    void metaGet(ProxyRequest pr, MeteredSink sink, MetaGetFlags flags) {
        stats.increment(ProxyStats.Counter.META_REQUESTS);
        MemcachedRequest req = pr.request();
        byte[] key = req.keyBytes();
        CachedItem item = cache.get(key, cacheDeadline(pr), pr.resolution().tenant());
        if (item != null) {
            sink.counters().hits().increment();
            ByteBuf reply = flags.hit(alloc, key, item.clientFlags(), item.value());
            req.release();
            sink.complete(reply);
            return;
        }
        sink.counters().misses().increment();
        fill(key, pr, sink.counters(), r -> {
            ByteBuf reply = null;
            String line = null;
            if (r.hit()) {
                reply = flags.hit(alloc, key, r.clientFlags(), r.value());
            } else if (r.failure() != null) {
                line = r.failure();
            } else if (r.refusal() != null
                    && (services.metaRejectAsError()
                            || r.refusal() == RejectReason.TENANT_QUOTA
                            || r.refusal() == RejectReason.DEADLINE_EXCEEDED)) {
                sink.markRejected(true);
                line = "SERVER_ERROR " + r.refusal().serverErrorText(r.estimateMicros());
            } else {
                sink.markRejected(r.refusal() != null);
                reply = flags.quiet() ? null : flags.miss(alloc, key);
            }
            req.release();
            if (line != null) {
                sink.completeLine(line);
            } else if (reply != null) {
                sink.complete(reply);
            } else {
                sink.completeSilently();
            }
        });
    }

    /**
     * A classic get: hits from the cache, the missing keys of a multi-get fetched in batches ({@link BatchedGet}), or
     * (when the handler below places keys itself) one fill per distinct missing key; items in request order. The client's sink
     * is metered ({@link MeteredSink}) when the reply is complete; a hit of a single get records its tenant's figures
     * at once, without the wrapper.
     */
    void classicGet(ProxyRequest pr, ReplySink clientSink, TenantMetrics.Counters counters) {
        MemcachedRequest req = pr.request();
        int n = req.keyCount();
        stats.add(ProxyStats.Counter.CMD_GET, n);
        long deadline = cacheDeadline(pr);
        CachedItem first = null;
        if (n == 1) {
            // A hit of a single get: its reply written from the cached value and the key's bytes.
            ByteBuf reply =
                    cache.read(req.keyBytes(), deadline, pr.resolution().tenant(), valueReply.forKey(req.keyBytes()));
            if (reply != null) {
                counters.hits().increment();
                stats.add(ProxyStats.Counter.GET_HITS, 1);
                req.release();
                MeteredSink.record(counters, pr, MeteredSink.hardDeadlineNanos(pr), false);
                clientSink.complete(reply);
                return;
            }
        } else if (batches != null) {
            MeteredSink sink = new MeteredSink(clientSink, counters, pr, MeteredSink.hardDeadlineNanos(pr));
            new BatchedGet(batches, pr, sink).submit();
            return;
        } else {
            first = cache.get(req.keyBytes(), deadline, pr.resolution().tenant());
        }
        MeteredSink sink = new MeteredSink(clientSink, counters, pr, MeteredSink.hardDeadlineNanos(pr));
        // A miss or a multi-get: the keys' bytes outlive the request, which is released before the fills return.
        byte[][] keys = new byte[n][];
        for (int i = 0; i < n; i++) {
            keys[i] = req.keyBytes(i);
        }
        req.release();
        ClassicGet g = new ClassicGet(keys, sink, stats, services.classicRejectAsError());
        for (int i = 0; i < n; i++) {
            CachedItem item = i == 0
                    ? first
                    : cache.get(keys[i], deadline, pr.resolution().tenant());
            if (item != null) {
                g.hit(i, item.value(), item.clientFlags());
                sink.counters().hits().increment();
            } else {
                sink.counters().misses().increment();
                g.miss(i);
            }
        }
        List<Map.Entry<ByteKey, List<Integer>>> toFill = g.fillsToSend();
        if (toFill.isEmpty()) {
            g.finish();
            return;
        }
        for (Map.Entry<ByteKey, List<Integer>> e : toFill) {
            fill(e.getKey().bytes(), pr, sink.counters(), r -> g.arrived(e.getValue(), r));
        }
    }

    /**
     * A {@code VALUE} reply of one key, written from the key's bytes (the array the request read once from the client's
     * line) and the cached value.
     */
    private final class ValueReply implements HitReader<ByteBuf> {
        private final ValueReplyEncoder encoder = new ValueReplyEncoder();
        private byte[] key;

        ValueReply forKey(byte[] key) {
            this.key = key;
            return this;
        }

        @Override
        public ByteBuf read(byte[] value, int clientFlags) {
            return encoder.value(alloc, key, clientFlags, value);
        }
    }
}
