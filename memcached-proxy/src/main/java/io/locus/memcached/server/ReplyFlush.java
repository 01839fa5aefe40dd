package io.locus.memcached.server;

import io.netty.channel.ChannelHandlerContext;

/**
 * When one client connection's written replies are flushed: once the I/O thread is done with what woke it
 * ({@link FlushBatch}), together with every other connection's, or at once after {@link #FLUSH_AFTER} of them or when
 * the connection stops being writable (unflushed replies count against its write-buffer high-water mark). Confined to
 * the connection's event loop.
 *
 * <p>Why not at the end of each connection's read: a client that waits on its replies (memcaslap, or any closed-loop
 * client with many connections) then gets them one connection at a time, runs out of work between two, and goes to
 * sleep in its {@code epoll_wait}; the proxy's next {@code send} has to wake it, and in the kernel that wake-up is the
 * sender's cost. Replies that leave together, after all the ready connections are read, wake such a client once per
 * turn of the event loop instead of up to once per reply. A turn handles what one {@code epoll_wait} returned, so a
 * reply waits at most for the rest of that: the other ready connections' reads and backend replies.
 */
final class ReplyFlush implements FlushBatch.Flushable {
    /** Unflushed replies beyond which they are flushed before the turn ends. */
    static final int FLUSH_AFTER = 256;

    private final ChannelHandlerContext ctx;
    private final FlushBatch batch;
    /** Writes not flushed yet. */
    private int unflushed;
    /** Whether this connection waits in {@link #batch}. */
    private boolean queued;

    ReplyFlush(ChannelHandlerContext ctx) {
        this.ctx = ctx;
        this.batch = FlushBatch.of(ctx.channel().eventLoop());
    }

    /** Replies were written to {@link #ctx}. */
    void wrote() {
        if (++unflushed >= FLUSH_AFTER || !ctx.channel().isWritable()) {
            flushNow();
        } else if (!queued) {
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
