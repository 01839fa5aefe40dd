package io.locus.memcached.server;

import io.netty.channel.ChannelHandlerContext;

/**
 * When one client connection's written replies are flushed: those written during a read of the connection when the
 * read ends (or after {@link #FLUSH_AFTER} of them), the others, completed by backend replies, once the I/O thread is
 * done with what woke it ({@link FlushBatch}), so the replies that one backend read completes leave in one write
 * system call. Unflushed replies count against the connection's write-buffer high-water mark, so they are flushed at
 * once when the connection stops being writable. Confined to the connection's event loop.
 */
final class ReplyFlush implements FlushBatch.Flushable {
    /** Replies written during one read beyond which they are flushed before the read ends. */
    static final int FLUSH_AFTER = 256;

    private final ChannelHandlerContext ctx;
    private final FlushBatch batch;
    /** Between a read's first request and its end. */
    private boolean reading;
    /** Writes not flushed yet. */
    private int unflushed;
    /** Whether this connection waits in {@link #batch}. */
    private boolean queued;

    ReplyFlush(ChannelHandlerContext ctx) {
        this.ctx = ctx;
        this.batch = FlushBatch.of(ctx.channel().eventLoop());
    }

    void readStarted() {
        reading = true;
    }

    void readEnded() {
        reading = false;
        if (unflushed > 0 && !queued) {
            flushNow();
        }
    }

    /** Replies were written to {@link #ctx}. */
    void wrote() {
        if (++unflushed >= FLUSH_AFTER || !ctx.channel().isWritable()) {
            flushNow();
        } else if (!reading && !queued) {
            queued = true;
            batch.add(this);
        }
    }

    void writabilityChanged() {
        if (unflushed > 0 && !ctx.channel().isWritable()) {
            flushNow();
        }
    }

    @Override
    public void flushQueued() {
        queued = false;
        if (unflushed > 0) {
            flushNow();
        }
    }

    private void flushNow() {
        unflushed = 0;
        ctx.flush();
    }
}
