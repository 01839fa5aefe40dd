package io.locus.memcached.deadline;

import io.locus.memcached.backend.BatchSender;
import io.locus.memcached.backend.ProxyRequest;
import io.locus.memcached.cache.CachedItem;
import io.locus.memcached.cache.DeadlineCache;
import io.locus.memcached.protocol.MemcachedRequest;
import io.locus.memcached.protocol.ReplyWriter;
import io.locus.memcached.schedule.RejectReason;
import io.locus.memcached.stats.ProxyStats;
import io.locus.memcached.stats.TenantMetrics;
import io.locus.memcached.tenant.Deadline;
import io.netty.buffer.ByteBuf;
import io.netty.buffer.ByteBufAllocator;
import io.netty.buffer.PooledByteBufAllocator;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Future;

/**
 * A classic multi-get of the full mode (README, "Deadline cache and scheduler"): hits from the local cache, and the
 * missing keys fetched in batches of up to {@link #BATCH_KEYS} per backend ({@link GetBatch}), each batch one ticket
 * at its backend's scheduler, within its connection's share there ({@link ConnectionShares}). Values fetched are
 * stored in the cache as a single get's fill would store them.
 *
 * <p>Always answered, once: with the items in request order when every batch came back (keys of a batch that
 * admission refused or dropped are misses, or {@code classic.reject_mode: error}'s line); with the first failure's
 * {@code SERVER_ERROR} line as soon as a batch failed (like memcached, a multi-get that fails answers the error, not
 * a partial result); or with {@code SERVER_ERROR backend timeout} once {@code backend.timeout} has passed since the
 * request was read, whatever is still queued or in flight. Batches not yet sent when the request is answered, or once
 * its client connection is closed, are withdrawn; replies of batches in flight then are dropped.
 *
 * <p>The request is kept until it is answered: the batches and the reply are written from the keys in its line.
 * Owner thread only.
 */
final class BatchedGet {
    /**
     * Keys per batch: large enough that a batch costs the backend little more than its keys (a get of 10,000 keys is
     * 50 backend requests), small enough that a batch of small values is one read and a batch queued ahead of another
     * connection's request is a short wait for it.
     */
    static final int BATCH_KEYS = 200;

    private static final byte[] MG = "mg ".getBytes(StandardCharsets.US_ASCII);
    private static final byte[] FILL_FLAGS = " v f t\r\n".getBytes(StandardCharsets.US_ASCII);
    private static final byte[] MN = "mn\r\n".getBytes(StandardCharsets.US_ASCII);
    static final String TIMEOUT = "SERVER_ERROR backend timeout";

    /** What the batches of one I/O thread share. */
    record Context(
            LocalCache cache,
            DeadlineServices services,
            DeadlineRouter router,
            ConnectionOrder order,
            ConnectionShares shares,
            FetchQueue queue,
            BatchSender sender) {}

    private final Context cx;
    private final MemcachedRequest req;
    private final ProxyRequest origin;
    private final MeteredSink sink;
    private final ByteBufAllocator alloc = PooledByteBufAllocator.DEFAULT;
    private byte[][] values;
    private int[] flags;
    private final long cacheDeadline;
    private final List<GetBatch> batches = new ArrayList<>();
    private int pending;
    private String failure;
    private RejectReason refusal;
    private long refusalEstimate;
    private boolean started;
    private boolean answered;
    private Future<?> timer;

    BatchedGet(Context cx, ProxyRequest origin, MeteredSink sink) {
        this.cx = cx;
        this.origin = origin;
        this.req = origin.request();
        this.sink = sink;
        Deadline d = origin.resolution().deadline();
        this.cacheDeadline = d.bestEffort() ? DeadlineCache.NO_DEADLINE : d.micros() * 1000;
    }

    /** Arms the request's timeout and queues it for its turn to be fetched ({@link FetchQueue}). */
    void submit() {
        long left = origin.arrivalNanos() + cx.services().backendTimeoutNanos() - System.nanoTime();
        timer = cx.sender().schedule(this::timedOut, Math.max(0, left));
        cx.queue().submit(this);
    }

    int keyCount() {
        return req.keyCount();
    }

    /** Looks every key up in the cache and sends the batches of the missing ones, or answers at once. */
    void start() {
        started = true;
        values = new byte[req.keyCount()][];
        flags = new int[req.keyCount()];
        String tenant = origin.resolution().tenant();
        GetBatch[] open = new GetBatch[cx.services().ring().servers().size()];
        for (int i = 0; i < values.length; i++) {
            byte[] key = req.keyBytes(i);
            CachedItem item = cx.cache().get(key, cacheDeadline, tenant);
            if (item != null) {
                values[i] = item.value();
                flags[i] = item.clientFlags();
                counters().hits().increment();
                continue;
            }
            counters().misses().increment();
            int backend = cx.router().ownerOf(key);
            if (open[backend] == null || open[backend].full()) {
                open[backend] = new GetBatch(this, backend);
                batches.add(open[backend]);
            }
            open[backend].add(i);
        }
        pending = batches.size();
        if (pending == 0) {
            answer();
            return;
        }
        for (GetBatch b : batches) {
            if (answered) {
                break; // answered while its first batches were sent (refused, or failed at once)
            }
            cx.shares().submit(b);
        }
    }

    long connectionId() {
        return origin.connectionId();
    }

    ProxyRequest origin() {
        return origin;
    }

    TenantMetrics.Counters counters() {
        return sink.counters();
    }

    DeadlineRouter router() {
        return cx.router();
    }

    ConnectionOrder order() {
        return cx.order();
    }

    ConnectionShares shares() {
        return cx.shares();
    }

    BatchSender sender() {
        return cx.sender();
    }

    /** Whether the batches are still wanted: the request is not answered and its client is still there. */
    boolean wanted() {
        if (!answered && sink.abandoned()) {
            answer(); // nobody reads the reply: withdraw the rest now
        }
        return !answered;
    }

    /** The backend request of {@code b}: {@code mg <key> v f t} per key, then {@code mn}. */
    ByteBuf writeBatch(GetBatch b) {
        int size = MN.length;
        for (int i = 0; i < b.count(); i++) {
            size += MG.length + req.keySlice(b.index(i)).readableBytes() + FILL_FLAGS.length;
        }
        ByteBuf wire = alloc.buffer(size);
        for (int i = 0; i < b.count(); i++) {
            ByteBuf key = req.keySlice(b.index(i));
            wire.writeBytes(MG)
                    .writeBytes(key, key.readerIndex(), key.readableBytes())
                    .writeBytes(FILL_FLAGS);
        }
        return wire.writeBytes(MN);
    }

    /** The cache versions of {@code b}'s keys now, before the batch is written. */
    long[] versionsOf(GetBatch b) {
        long[] v = new long[b.count()];
        for (int i = 0; i < b.count(); i++) {
            v[i] = cx.cache().versionOf(req.keyBytes(b.index(i)));
        }
        return v;
    }

    /** The replies to {@code b}'s meta gets, back to back without the {@code MN}; released here. */
    void arrived(GetBatch b, ByteBuf reply) {
        try {
            if (!wanted()) {
                return;
            }
            for (int i = 0; i < b.count() && failure == null; i++) {
                FillResult r = reply == null || !reply.isReadable()
                        ? FillResult.failure("SERVER_ERROR backend sent fewer replies than a batch asked for")
                        : FillResult.next(reply);
                if (r.hit()) {
                    int k = b.index(i);
                    values[k] = r.value();
                    flags[k] = r.clientFlags();
                    cx.cache()
                            .fill(
                                    req.keyBytes(k),
                                    r.value(),
                                    r.clientFlags(),
                                    r.ttlNanos(),
                                    cacheDeadline,
                                    origin.resolution().tenant(),
                                    b.version(i));
                } else if (r.failure() != null) {
                    failure = r.failure();
                }
            }
        } catch (RuntimeException e) {
            failure = "SERVER_ERROR bad fill reply from backend";
        } finally {
            if (reply != null) {
                reply.release();
            }
        }
        if (!answered && (--pending == 0 || failure != null)) {
            answer();
        }
    }

    /** A batch got no reply: the whole get answers {@code line}. */
    void failed(String line) {
        if (!answered) {
            failure = line;
            answer();
        }
    }

    /** Admission refused a batch, or dropped it past its deadline: its keys are misses (classic.reject_mode). */
    void refused(RejectReason reason, long estimateMicros) {
        if (answered) {
            return;
        }
        if (refusal == null) {
            refusal = reason;
            refusalEstimate = estimateMicros;
        }
        if (--pending == 0) {
            answer();
        }
    }

    private void timedOut() {
        if (!answered) {
            cx.services().stats().increment(ProxyStats.Counter.BACKEND_TIMEOUTS);
            failure = TIMEOUT;
            answer();
        }
    }

    private void answer() {
        answered = true;
        if (timer != null) {
            timer.cancel(false);
        }
        for (GetBatch b : batches) {
            b.cancel();
        }
        try {
            if (sink.abandoned()) {
                sink.completeSilently();
            } else if (failure != null) {
                sink.completeLine(failure);
            } else if (refusal != null && rejectAsError()) {
                sink.markRejected(true);
                sink.completeLine("SERVER_ERROR " + refusal.serverErrorText(refusalEstimate));
            } else {
                sink.markRejected(refusal != null);
                int hits = 0;
                for (byte[] v : values) {
                    if (v != null) {
                        hits++;
                    }
                }
                ProxyStats stats = cx.services().stats();
                stats.add(ProxyStats.Counter.GET_HITS, hits);
                stats.add(ProxyStats.Counter.GET_MISSES, values.length - hits);
                sink.complete(ReplyWriter.values(alloc, req, values, flags));
            }
        } finally {
            req.release();
            if (started) {
                cx.queue().finished(this);
            } else {
                cx.queue().withdraw(this);
            }
        }
    }

    private boolean rejectAsError() {
        return cx.services().classicRejectAsError()
                && refusal != RejectReason.DEADLINE_EXCEEDED
                && refusal != RejectReason.TENANT_QUOTA;
    }
}
