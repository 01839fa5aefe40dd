package io.locus.memcached.balance.netty;

import io.locus.memcached.backend.BackendCall;
import io.locus.memcached.backend.BackendPool;
import io.locus.memcached.backend.ProxyRequest;
import io.locus.memcached.backend.ReplySink;
import io.locus.memcached.balance.BucketMigration;
import io.locus.memcached.cache.ByteKey;
import io.locus.memcached.protocol.BackendReply;
import io.locus.memcached.protocol.Command;
import io.locus.memcached.protocol.ReplyFormat;
import io.locus.memcached.stats.ProxyStats;
import io.netty.buffer.ByteBuf;
import io.netty.buffer.CompositeByteBuf;
import io.netty.buffer.PooledByteBufAllocator;
import io.netty.channel.EventLoop;
import java.nio.charset.StandardCharsets;
import java.util.List;

/**
 * One I/O thread's routes for keys of virtual buckets that Phase 3 moved or is moving (BALANCE.md, "Phase 3 in the
 * proxy"): reads ask the owner, or during a migration the new owner, the old one, then the new one again; writes go
 * to the owner, or during a migration to the replication thread ({@link BucketMover#migrationWrite}). The route
 * itself is the {@link BucketMigration}'s decision.
 */
final class MovedBucketRouter {
    private static final byte[] CRLF = {'\r', '\n'};
    private static final byte[] END = "\r\nEND\r\n".getBytes(StandardCharsets.US_ASCII);

    private final BalancingServices services;
    private final BackendPool pool;
    private final EventLoop loop;

    MovedBucketRouter(BalancingServices services, BackendPool pool, EventLoop loop) {
        this.services = services;
        this.pool = pool;
        this.loop = loop;
    }

    /** Backends to ask for a key of {@code bucket}, in order: the owner, or during a migration new, old, new. */
    private int[] readChain(int bucket) {
        BucketMigration<ByteKey> m = services.balancer().migrationOf(bucket);
        if (m == null) {
            return new int[] {services.balancer().table().owner(bucket)};
        }
        BucketMigration.ReadRoute r = m.readRoute();
        // The copier deletes a key at the old owner only after its copy landed at the new one: a reader that missed at
        // both finds it at the new owner on the third try.
        return r.fallback() < 0 ? new int[] {r.first()} : new int[] {r.first(), r.fallback(), r.first()};
    }

    /** A write to a key of a moved or migrating {@code bucket}. */
    void write(ProxyRequest pr, ByteKey key, int bucket, ReplySink reply) {
        services.balancer().onWrite(key); // counted, and a replicated key's shadows stop being readable
        BucketMigration<ByteKey> m = services.balancer().migrationOf(bucket);
        if (m != null) {
            ReplySink landed = services.writeHandedOver(key, reply);
            services.loop().execute(() -> services.mover().migrationWrite(pr, key, m, loop, landed));
            return;
        }
        Forwarding.forward(
                pool, services.balancer().table().owner(bucket), pr, pr.connectionId(), new Forwarding.Outcome() {
                    @Override
                    public void reply(ByteBuf bytes) {
                        pr.request().release();
                        Forwarding.deliver(reply, bytes);
                    }

                    @Override
                    public void failed(String line) {
                        pr.request().release();
                        reply.completeLine(line);
                    }
                });
    }

    /** A read of {@code keys} of moved or migrating {@code buckets} (one each). */
    void read(ProxyRequest pr, List<ByteKey> keys, int[] buckets, ReplySink reply) {
        Command c = pr.request().command();
        for (ByteKey k : keys) {
            services.balancer().onRead(k, false);
        }
        if (c == Command.GET || c == Command.GETS) {
            ByteBuf[] values = new ByteBuf[keys.size()];
            int[] pending = {keys.size()};
            String[] failure = {null};
            for (int i = 0; i < keys.size(); i++) {
                int slot = i;
                fetch(keys.get(i), c == Command.GETS, readChain(buckets[i]), 0, pr.connectionId(), (value, failed) -> {
                    values[slot] = value;
                    if (failed != null) {
                        failure[0] = failed;
                    }
                    if (--pending[0] > 0) {
                        return;
                    }
                    pr.request().release();
                    CompositeByteBuf out = PooledByteBufAllocator.DEFAULT.compositeBuffer(values.length + 1);
                    for (ByteBuf v : values) {
                        if (v != null) {
                            out.addComponent(true, v);
                        }
                    }
                    if (failure[0] != null) {
                        out.release();
                        reply.completeLine(failure[0]);
                        return;
                    }
                    out.addComponent(
                            true, PooledByteBufAllocator.DEFAULT.buffer(5).writeBytes(END, 2, 5));
                    reply.complete(out);
                });
            }
            return;
        }
        if (keys.size() > 1) {
            pr.request().release();
            reply.completeLine(
                    "SERVER_ERROR " + c.word() + " of several keys in moved virtual buckets is not supported");
            return;
        }
        forwardChain(pr, readChain(buckets[0]), 0, reply);
    }

    /** The client's read at {@code chain[i]}; a miss tries the next backend of the chain. Releases the request. */
    private void forwardChain(ProxyRequest pr, int[] chain, int i, ReplySink reply) {
        Forwarding.forward(pool, chain[i], pr, pr.connectionId(), new Forwarding.Outcome() {
            @Override
            public void reply(ByteBuf bytes) {
                if (i + 1 < chain.length && isMiss(bytes)) {
                    if (bytes != null) {
                        bytes.release();
                    }
                    services.countMigrationFallbackRead();
                    forwardChain(pr, chain, i + 1, reply);
                    return;
                }
                pr.request().release();
                Forwarding.deliver(reply, bytes);
            }

            @Override
            public void failed(String line) {
                pr.request().release();
                reply.completeLine(line);
            }
        });
    }

    /** A miss: nothing (a quiet meta miss), {@code END} or {@code EN}. */
    private static boolean isMiss(ByteBuf b) {
        if (b == null) {
            return true;
        }
        int r = b.readerIndex();
        int n = b.readableBytes();
        return n >= 3
                && b.getByte(r) == 'E'
                && b.getByte(r + 1) == 'N'
                && (b.getByte(r + 2) == '\r'
                        || b.getByte(r + 2) == ' '
                        || (n >= 5 && b.getByte(r + 2) == 'D' && b.getByte(r + 3) == '\r'));
    }

    interface Fetched {
        /** The {@code VALUE} block (null for a miss), or a failure line. */
        void accept(ByteBuf valueBlock, String failure);
    }

    /** {@code get}/{@code gets} of one key along {@code chain} with {@code mg}: the first hit, as a VALUE block. */
    private void fetch(ByteKey key, boolean withCas, int[] chain, int i, long affinity, Fetched then) {
        ByteBuf wire = MetaValue.line("mg", key.bytes(), withCas ? " b v f c" : " b v f");
        int backend = chain[i];
        long start = System.nanoTime();
        pool.backend(backend)
                .send(
                        new BackendCall(ReplyFormat.META, wire, new BackendCall.Callback() {
                            @Override
                            public void onReply(BackendReply r) {
                                MetaValue v;
                                String cas = null;
                                try {
                                    v = MetaValue.parse(r.bytes());
                                    if (withCas && v.data() != null) {
                                        cas = casOf(r.bytes());
                                    }
                                } finally {
                                    r.release();
                                }
                                services.balancer().onCompletion(backend, System.nanoTime() - start);
                                if (v.failed()) {
                                    then.accept(null, "SERVER_ERROR backend error");
                                    return;
                                }
                                if (v.data() == null) {
                                    if (i + 1 < chain.length) {
                                        services.countMigrationFallbackRead();
                                        fetch(key, withCas, chain, i + 1, affinity, then);
                                    } else {
                                        services.stats().increment(ProxyStats.Counter.CMD_GET);
                                        services.stats().increment(ProxyStats.Counter.GET_MISSES);
                                        then.accept(null, null);
                                    }
                                    return;
                                }
                                services.stats().increment(ProxyStats.Counter.CMD_GET);
                                services.stats().increment(ProxyStats.Counter.GET_HITS);
                                then.accept(v.valueBlock(key, cas, CRLF), null);
                            }

                            @Override
                            public void onFailure(String failure) {
                                then.accept(null, failure);
                            }
                        }),
                        affinity);
    }

    /** The {@code c<cas>} token of an {@code mg} reply's first line. */
    private static String casOf(ByteBuf b) {
        int start = b.readerIndex();
        int eol = b.indexOf(start, b.writerIndex(), (byte) '\r');
        for (String t : b.toString(start, Math.max(0, eol - start), StandardCharsets.ISO_8859_1)
                .split(" ")) {
            if (t.startsWith("c") && t.length() > 1) {
                return t.substring(1);
            }
        }
        return "0";
    }
}
