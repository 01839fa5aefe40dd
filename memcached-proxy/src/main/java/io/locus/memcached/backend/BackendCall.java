package io.locus.memcached.backend;

import io.locus.memcached.protocol.BackendReply;
import io.locus.memcached.protocol.ReplyFormat;
import io.netty.buffer.ByteBuf;
import io.netty.buffer.PooledByteBufAllocator;
import java.nio.charset.StandardCharsets;
import java.util.function.Consumer;

/**
 * One request to one backend and what to do with the reply. Exactly one of {@link Callback#onReply} and
 * {@link Callback#onFailure} is called, once, on the backend connection's event loop.
 */
public final class BackendCall {
    /** Receives the outcome. */
    public interface Callback {
        /** The backend's whole reply; the callee must release it. */
        void onReply(BackendReply reply);

        /** No reply: {@code line} is the {@code SERVER_ERROR ...} line to give the client (without {@code \r\n}). */
        void onFailure(String line);
    }

    private final ReplyFormat format;
    /** The encoded request; owned by this call until written. */
    private ByteBuf request;

    private final Callback callback;
    /** {@code System.nanoTime()} after which the call times out; set when the connection takes it. */
    private long timeoutAtNanos;

    private boolean done;

    /**
     * A request the proxy itself sends (replication, migration, warming): {@code line} then, if not null, {@code data}
     * and CRLF, which it releases. {@code then} gets the reply, or null on failure.
     */
    public static BackendCall internal(ReplyFormat format, String line, ByteBuf data, Consumer<BackendReply> then) {
        ByteBuf wire =
                PooledByteBufAllocator.DEFAULT.buffer(line.length() + (data == null ? 0 : data.readableBytes() + 2));
        wire.writeCharSequence(line, StandardCharsets.ISO_8859_1);
        if (data != null) {
            wire.writeBytes(data, data.readerIndex(), data.readableBytes())
                    .writeByte('\r')
                    .writeByte('\n');
            data.release();
        }
        return new BackendCall(format, wire, new Callback() {
            @Override
            public void onReply(BackendReply reply) {
                then.accept(reply);
            }

            @Override
            public void onFailure(String failure) {
                then.accept(null);
            }
        });
    }

    public BackendCall(ReplyFormat format, ByteBuf request, Callback callback) {
        this.format = format;
        this.request = request;
        this.callback = callback;
    }

    ReplyFormat format() {
        return format;
    }

    /** The encoded request, handed to the writer: this call no longer owns it. */
    ByteBuf takeRequest() {
        ByteBuf r = request;
        request = null;
        return r;
    }

    long timeoutAtNanos() {
        return timeoutAtNanos;
    }

    /** The call times out once {@code System.nanoTime()} passes {@code nanos}. */
    void timeoutAt(long nanos) {
        timeoutAtNanos = nanos;
    }

    boolean done() {
        return done;
    }

    void reply(BackendReply reply) {
        if (done) {
            reply.release();
            return;
        }
        finish();
        callback.onReply(reply);
    }

    void fail(String line) {
        if (done) {
            return;
        }
        finish();
        callback.onFailure(line);
    }

    private void finish() {
        done = true;
        if (request != null) {
            request.release();
            request = null;
        }
    }
}
