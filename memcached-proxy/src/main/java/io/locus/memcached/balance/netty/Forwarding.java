package io.locus.memcached.balance.netty;

import io.locus.memcached.backend.BackendCall;
import io.locus.memcached.backend.BackendPool;
import io.locus.memcached.backend.ProxyRequest;
import io.locus.memcached.backend.ReplySink;
import io.locus.memcached.protocol.BackendReply;
import io.locus.memcached.protocol.Command;
import io.locus.memcached.protocol.MemcachedRequest;
import io.locus.memcached.protocol.ReplyFormat;
import io.locus.memcached.protocol.RequestWriter;
import io.netty.buffer.ByteBuf;
import io.netty.buffer.PooledByteBufAllocator;

/**
 * A client's request sent as it is to a backend the balancer chose (a copy's home, a bucket's owner, a replica),
 * rather than the one the ketama ring gives its key; the reply comes back through an {@link Outcome}.
 */
final class Forwarding {
    private Forwarding() {}

    interface Outcome {
        /** The backend's reply, without the {@code MN} of a quiet request (null if nothing is left). */
        void reply(ByteBuf bytes);

        /** No reply ({@code SERVER_ERROR backend unavailable/timeout}). */
        void failed(String line);
    }

    /** Sends the client's request to {@code backend} as it is (also the balancer's route to a bucket's owner). */
    static void forward(BackendPool pool, int backend, ProxyRequest pr, long affinity, Outcome outcome) {
        MemcachedRequest req = pr.request();
        ReplyFormat format;
        if (req.command().isMeta()) {
            format = ReplyFormat.META;
        } else {
            format = req.command().family() == Command.Family.RETRIEVAL ? ReplyFormat.VALUES : ReplyFormat.LINE;
        }
        if (req.quiet()) {
            format = ReplyFormat.UNTIL_MN;
        }
        boolean untilMn = format == ReplyFormat.UNTIL_MN;
        ByteBuf wire = req.command().isMeta()
                ? RequestWriter.forwardMeta(PooledByteBufAllocator.DEFAULT, req, pr.flags(), untilMn)
                : RequestWriter.forward(PooledByteBufAllocator.DEFAULT, req, untilMn);
        pool.backend(backend)
                .send(
                        new BackendCall(format, wire, new BackendCall.Callback() {
                            @Override
                            public void onReply(BackendReply r) {
                                ByteBuf b = r.bytes();
                                ByteBuf out;
                                if (untilMn) {
                                    int n = b.readableBytes() - 4;
                                    out = n <= 0 ? null : b.retainedSlice(b.readerIndex(), n);
                                } else {
                                    out = b.retain();
                                }
                                r.release();
                                outcome.reply(out);
                            }

                            @Override
                            public void onFailure(String line) {
                                outcome.failed(line);
                            }
                        }),
                        affinity);
    }

    static void deliver(ReplySink reply, ByteBuf bytes) {
        if (bytes == null) {
            reply.completeSilently();
        } else {
            reply.complete(bytes);
        }
    }
}
