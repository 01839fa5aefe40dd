package io.locus.memcached.backend;

import io.locus.memcached.protocol.BackendReply;
import io.locus.memcached.protocol.Command;
import io.locus.memcached.protocol.MemcachedRequest;
import io.locus.memcached.protocol.MetaFlags;
import io.locus.memcached.protocol.ReplyFormat;
import io.locus.memcached.protocol.RequestWriter;
import io.locus.memcached.stats.ProxyStats;
import io.netty.buffer.ByteBuf;
import io.netty.buffer.ByteBufAllocator;
import io.netty.buffer.CompositeByteBuf;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Forwards every request to the backend that owns its key and relays the reply unchanged.
 *
 * <p>Guarantees: the client gets the bytes memcached sent, except that (1) tenant and deadline tokens are removed
 * from meta requests before forwarding, (2) a multi-get whose keys live on several backends is split into one
 * {@code get} per backend and the items are put back in request order under one {@code END}, (3) a backend that is
 * down or late yields {@code SERVER_ERROR backend unavailable} / {@code SERVER_ERROR backend timeout}, also for a
 * multi-get of which only some keys' backend failed (never a silent miss).
 * Quiet requests ({@code noreply}, meta {@code q}) are forwarded with an {@code mn} behind them so every backend
 * request has a reply; the {@code MN} is removed again.
 */
public final class PassThroughHandler implements RequestHandler {
    private static final byte[] END = "END\r\n".getBytes(StandardCharsets.US_ASCII);
    private static final byte[] MN = "MN\r\n".getBytes(StandardCharsets.US_ASCII);

    private final BackendPool pool;
    private final ProxyStats stats;
    private final ByteBufAllocator alloc;

    public PassThroughHandler(BackendPool pool, ProxyStats stats, ByteBufAllocator alloc) {
        this.pool = pool;
        this.stats = stats;
        this.alloc = alloc;
    }

    private final BatchSender batches = new BatchSender() {
        @Override
        public void send(int backend, ByteBuf wire, ReplySink reply, long connectionId) {
            forward(backend, wire, ReplyFormat.UNTIL_MN, reply, false, connectionId);
        }

        @Override
        public java.util.concurrent.Future<?> schedule(Runnable task, long delayNanos) {
            return pool.loop().schedule(task, delayNanos, java.util.concurrent.TimeUnit.NANOSECONDS);
        }
    };

    @Override
    public BatchSender batches() {
        return batches;
    }

    @Override
    public void handle(ProxyRequest pr, ReplySink reply) {
        MemcachedRequest req = pr.request();
        try {
            switch (req.command().family()) {
                case RETRIEVAL -> retrieve(req, reply, pr.connectionId());
                case BROADCAST -> broadcast(req, reply, pr.connectionId());
                case META -> {
                    stats.increment(ProxyStats.Counter.META_REQUESTS);
                    MetaFlags flags = pr.flags();
                    int owner = pool.indexForMeta(req.keyBytes(), flags);
                    ReplyFormat format = req.quiet() ? ReplyFormat.UNTIL_MN : ReplyFormat.META;
                    ByteBuf wire = RequestWriter.forwardMeta(alloc, req, flags, req.quiet());
                    forward(owner, wire, format, reply, false, pr.connectionId());
                }
                default -> {
                    if (req.command().family() == Command.Family.STORAGE) {
                        stats.increment(ProxyStats.Counter.CMD_SET);
                    } else if (req.command() == Command.TOUCH) {
                        stats.increment(ProxyStats.Counter.CMD_TOUCH);
                    }
                    forward(
                            pool.indexFor(req.keyBytes()),
                            RequestWriter.forward(alloc, req, req.quiet()),
                            req.quiet() ? ReplyFormat.UNTIL_MN : ReplyFormat.LINE,
                            reply,
                            req.quiet(),
                            pr.connectionId());
                }
            }
        } finally {
            req.release();
        }
    }

    /** One request ({@code wire}, handed over) to one backend; quiet replies lose their trailing {@code MN}. */
    private void forward(
            int owner, ByteBuf wire, ReplyFormat format, ReplySink reply, boolean silentFailure, long affinity) {
        pool.backend(owner)
                .send(
                        new BackendCall(format, wire, new BackendCall.Callback() {
                            @Override
                            public void onReply(BackendReply r) {
                                reply.complete(
                                        format == ReplyFormat.UNTIL_MN
                                                ? withoutNoop(r)
                                                : r.bytes().retain());
                                r.release();
                            }

                            @Override
                            public void onFailure(String line) {
                                if (silentFailure) {
                                    reply.completeSilently();
                                } else {
                                    reply.completeLine(line);
                                }
                            }
                        }),
                        affinity);
    }

    private static ByteBuf withoutNoop(BackendReply r) {
        ByteBuf b = r.bytes();
        int n = b.readableBytes() - MN.length;
        return n <= 0 ? null : b.retainedSlice(b.readerIndex(), n);
    }

    private void retrieve(MemcachedRequest req, ReplySink reply, long affinity) {
        int keyCount = req.keyCount();
        stats.add(ProxyStats.Counter.CMD_GET, keyCount);
        if (keyCount == 0) { // gat <exptime> with no key: memcached answers END
            reply.complete(alloc.buffer(END.length).writeBytes(END));
            return;
        }
        if (keyCount == 1) { // the common case, without the multi-get bookkeeping
            ByteBuf wire = RequestWriter.forward(alloc, req, false);
            pool.backend(pool.indexFor(req.keyBytes()))
                    .send(
                            new BackendCall(ReplyFormat.VALUES, wire, new BackendCall.Callback() {
                                @Override
                                public void onReply(BackendReply r) {
                                    if (!r.isError()) {
                                        countHits(1, r.items().size());
                                    }
                                    reply.complete(r.bytes().retain());
                                    r.release();
                                }

                                @Override
                                public void onFailure(String line) {
                                    reply.completeLine(line);
                                }
                            }),
                            affinity);
            return;
        }
        // The items are matched to the keys' bytes, which outlive the request (released once the parts are written).
        byte[][] keys = new byte[keyCount][];
        ByteBuf prefix = keyCount < req.argCount() ? req.argSlice(0) : null; // gat's exptime
        int prefixBytes = prefix == null ? 0 : prefix.readableBytes();
        // One part per backend, split further so no forwarded line exceeds MAX_PART_LINE_BYTES.
        Map<Integer, Integer> openPart = new LinkedHashMap<>();
        List<Part> parts = new ArrayList<>();
        int[] partOfKey = new int[keyCount];
        for (int i = 0; i < keyCount; i++) {
            ByteBuf key = req.keySlice(i);
            keys[i] = req.keyBytes(i);
            int backend = pool.indexFor(keys[i]);
            Integer p = openPart.get(backend);
            if (p == null || parts.get(p).lineBytes + key.readableBytes() + 1 > MAX_PART_LINE_BYTES) {
                p = parts.size();
                parts.add(new Part(backend, req.command().word().length() + prefixBytes + 3));
                openPart.put(backend, p);
            }
            parts.get(p).keys.add(key);
            parts.get(p).lineBytes += key.readableBytes() + 1;
            partOfKey[i] = p;
        }
        MultiGet mg = new MultiGet(keys, partOfKey, parts, reply);
        for (int p = 0; p < parts.size(); p++) {
            ByteBuf wire = RequestWriter.writeKeys(alloc, req.command().word(), prefix, parts.get(p).keys);
            int part = p;
            pool.backend(parts.get(p).backend)
                    .send(
                            new BackendCall(ReplyFormat.VALUES, wire, new BackendCall.Callback() {
                                @Override
                                public void onReply(BackendReply r) {
                                    mg.arrived(part, r, null);
                                }

                                @Override
                                public void onFailure(String line) {
                                    mg.arrived(part, null, line);
                                }
                            }),
                            affinity);
        }
    }

    /** memcached closes connections with long non-get lines; gat lines are kept below its 2048-byte limit too. */
    static final int MAX_PART_LINE_BYTES = 2000;

    /** The keys of a multi-get sent to one backend in one request. */
    private static final class Part {
        private final int backend;
        /** Slices of the client's line: valid while the request is, so only until the part's line is written. */
        private final List<ByteBuf> keys = new ArrayList<>();

        private int lineBytes;
        private BackendReply reply;
        private String failure;
        private int cursor;

        Part(int backend, int lineBytes) {
            this.backend = backend;
            this.lineBytes = lineBytes;
        }
    }

    /** Collects the replies of one multi-get's parts and reassembles the items in key order. */
    private final class MultiGet {
        private final byte[][] keys;
        private final int[] partOfKey;
        private final List<Part> parts;
        private final ReplySink reply;
        private int pending;

        MultiGet(byte[][] keys, int[] partOfKey, List<Part> parts, ReplySink reply) {
            this.keys = keys;
            this.partOfKey = partOfKey;
            this.parts = parts;
            this.pending = parts.size();
            this.reply = reply;
        }

        void arrived(int part, BackendReply r, String failure) {
            parts.get(part).reply = r;
            parts.get(part).failure = failure;
            if (--pending == 0) {
                try {
                    reply.complete(assemble());
                } finally {
                    for (Part p : parts) {
                        if (p.reply != null) {
                            p.reply.release();
                        }
                    }
                }
            }
        }

        private ByteBuf assemble() {
            String firstFailure = null;
            for (Part p : parts) {
                if (p.reply != null && p.reply.isError()) {
                    return p.reply.bytes().retain(); // what memcached would have said for the whole command
                }
                if (p.reply == null && firstFailure == null) {
                    firstFailure = p.failure;
                }
            }
            if (firstFailure != null) {
                // Keys the proxy could not fetch are not misses: like memcached when a multi-get fails, the whole
                // get answers the error line, and the client retries it.
                return line(firstFailure);
            }
            if (parts.size() == 1) {
                Part only = parts.get(0);
                countHits(only.reply.items().size());
                return only.reply.bytes().retain();
            }
            CompositeByteBuf out = alloc.compositeBuffer(keys.length + 1);
            int hits = 0;
            for (int i = 0; i < keys.length; i++) {
                Part p = parts.get(partOfKey[i]);
                List<BackendReply.Item> items = p.reply.items();
                if (p.cursor < items.size() && p.reply.itemKeyIs(items.get(p.cursor), keys[i])) {
                    out.addComponent(
                            true, p.reply.itemSlice(items.get(p.cursor)).retain());
                    p.cursor++;
                    hits++;
                }
            }
            countHits(hits);
            out.addComponent(true, alloc.buffer(END.length).writeBytes(END));
            return out;
        }

        private void countHits(int hits) {
            PassThroughHandler.this.countHits(keys.length, hits);
        }
    }

    private void countHits(int keys, int hits) {
        stats.add(ProxyStats.Counter.GET_HITS, hits);
        stats.add(ProxyStats.Counter.GET_MISSES, keys - hits);
    }

    private void broadcast(MemcachedRequest req, ReplySink reply, long affinity) {
        stats.increment(ProxyStats.Counter.CMD_FLUSH);
        int n = pool.size();
        ByteBuf[] first = new ByteBuf[1];
        String[] error = new String[1];
        int[] pending = {n};
        boolean quiet = req.quiet();
        for (int i = 0; i < n; i++) {
            ByteBuf wire = RequestWriter.forward(alloc, req, quiet);
            ReplyFormat format = quiet ? ReplyFormat.UNTIL_MN : ReplyFormat.LINE;
            pool.backend(i)
                    .send(
                            new BackendCall(format, wire, new BackendCall.Callback() {
                                @Override
                                public void onReply(BackendReply r) {
                                    ByteBuf b =
                                            quiet ? withoutNoop(r) : r.bytes().retain();
                                    r.release();
                                    if (r.isError() && error[0] == null && b != null) {
                                        error[0] = b.toString(StandardCharsets.ISO_8859_1)
                                                .trim();
                                    }
                                    if (first[0] == null) {
                                        first[0] = b;
                                    } else if (b != null) {
                                        b.release();
                                    }
                                    done();
                                }

                                @Override
                                public void onFailure(String line) {
                                    if (error[0] == null) {
                                        error[0] = line;
                                    }
                                    done();
                                }

                                private void done() {
                                    if (--pending[0] > 0) {
                                        return;
                                    }
                                    if (error[0] != null) {
                                        if (first[0] != null) {
                                            first[0].release();
                                        }
                                        if (quiet) {
                                            reply.completeSilently();
                                        } else {
                                            reply.completeLine(error[0]);
                                        }
                                    } else {
                                        reply.complete(first[0]);
                                    }
                                }
                            }),
                            affinity);
        }
    }

    private ByteBuf line(String line) {
        ByteBuf b = alloc.buffer(line.length() + 2);
        b.writeCharSequence(line, StandardCharsets.ISO_8859_1);
        b.writeByte('\r').writeByte('\n');
        return b;
    }
}
