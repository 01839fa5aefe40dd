package io.locus.memcached.balance.netty;

import io.locus.memcached.backend.BackendCall;
import io.locus.memcached.backend.BackendPool;
import io.locus.memcached.backend.ProxyRequest;
import io.locus.memcached.backend.ReplySink;
import io.locus.memcached.backend.RequestHandler;
import io.locus.memcached.cache.ByteKey;
import io.locus.memcached.protocol.BackendReply;
import io.locus.memcached.protocol.MetaFlags;
import io.locus.memcached.protocol.ReplyFormat;
import io.locus.memcached.stats.ProxyStats;
import io.netty.buffer.ByteBuf;
import io.netty.buffer.PooledByteBufAllocator;
import java.nio.charset.StandardCharsets;
import java.util.Base64;

/**
 * Reads of a replicated hot key at one of its shadows (MBal Phase 1), for one I/O thread's {@link BalancingHandler}:
 * the shadow holds the item under a renamed key ({@link ShadowReplicator#shadowKey}), so the request is rewritten
 * into an {@code mg} of that key and the answer back into what the client asked for. A miss or failure at the shadow
 * is retried at the home through the pass-through path.
 */
final class ShadowReads {
    private static final byte[] END = "\r\nEND\r\n".getBytes(StandardCharsets.US_ASCII);
    private static final byte[] MG = {'m', 'g', ' '};
    private static final byte[] VALUE_AND_FLAGS = " v f".getBytes(StandardCharsets.US_ASCII);

    private final BalancingServices services;
    private final RequestHandler passThrough;
    private final BackendPool pool;

    ShadowReads(BalancingServices services, RequestHandler passThrough, BackendPool pool) {
        this.services = services;
        this.passThrough = passThrough;
        this.pool = pool;
    }

    /** A {@code get} at a shadow as {@code mg <renamed key> b v f}, the answer rewritten into {@code VALUE key ...}. */
    void read(ProxyRequest pr, ByteKey key, int shadow, ReplySink reply) {
        fromShadow(pr, key, shadow, null, reply, b -> {
            MetaValue v = MetaValue.parse(b);
            if (v.data() == null) {
                return null;
            }
            services.stats().increment(ProxyStats.Counter.CMD_GET);
            services.stats().increment(ProxyStats.Counter.GET_HITS);
            return v.valueBlock(key, null, END);
        });
    }

    /**
     * An {@code mg} (flags {@code BalancingHandler.copyable}) at a shadow with its own flags; the reply is passed on as
     * it is, because it carries no key.
     */
    void metaRead(ProxyRequest pr, ByteKey key, int shadow, ReplySink reply) {
        fromShadow(pr, key, shadow, pr.flags(), reply, b -> {
            int at = b.readerIndex();
            boolean hit = b.readableBytes() >= 3
                    && (b.getByte(at) == 'V' && b.getByte(at + 1) == 'A'
                            || b.getByte(at) == 'H' && b.getByte(at + 1) == 'D')
                    && (b.getByte(at + 2) == ' ' || b.getByte(at + 2) == '\r');
            if (!hit) {
                return null;
            }
            services.stats().increment(ProxyStats.Counter.META_REQUESTS);
            return b.retain();
        });
    }

    /**
     * Reads {@code key} at {@code shadow} with {@code mg <renamed key> b <flags>} (the client's flags, copied from its
     * line, or {@code v f} when {@code flags} is null); {@code answer} turns the shadow's
     * reply into the client's (it must not release it), or returns null for a miss. A miss or failure goes home
     * ({@code lb:shadow_fallbacks}), so replication never turns a hit into a miss.
     */
    private void fromShadow(
            ProxyRequest pr,
            ByteKey key,
            int shadow,
            MetaFlags flags,
            ReplySink reply,
            java.util.function.Function<ByteBuf, ByteBuf> answer) {
        long start = System.nanoTime();
        byte[] shadowKey = Base64.getEncoder().encode(ShadowReplicator.shadowKeyBytes(key));
        ByteBuf wire = PooledByteBufAllocator.DEFAULT.buffer(
                MG.length + shadowKey.length + 4 + (flags == null ? VALUE_AND_FLAGS.length : flags.writtenBytes()));
        wire.writeBytes(MG).writeBytes(shadowKey).writeByte(' ').writeByte('b');
        if (flags == null) {
            wire.writeBytes(VALUE_AND_FLAGS);
        } else {
            flags.writeTo(wire);
        }
        wire.writeByte('\r').writeByte('\n');
        pool.backend(shadow)
                .send(
                        new BackendCall(ReplyFormat.META, wire, new BackendCall.Callback() {
                            @Override
                            public void onReply(BackendReply r) {
                                ByteBuf out;
                                try {
                                    out = answer.apply(r.bytes());
                                } finally {
                                    r.release();
                                }
                                if (out == null) {
                                    fallback();
                                    return;
                                }
                                services.balancer().onCompletion(shadow, System.nanoTime() - start);
                                services.countShadowRead();
                                pr.request().release();
                                reply.complete(out);
                            }

                            @Override
                            public void onFailure(String failure) {
                                fallback();
                            }

                            private void fallback() {
                                services.countShadowFallback();
                                passThrough.handle(pr, reply);
                            }
                        }),
                        pr.connectionId());
    }
}
