package io.locus.memcached.server;

import static org.junit.jupiter.api.Assertions.assertEquals;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.Unpooled;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelInboundHandlerAdapter;
import io.netty.channel.ChannelOutboundHandlerAdapter;
import io.netty.channel.ChannelPromise;
import io.netty.channel.embedded.EmbeddedChannel;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/** Replies leave once per turn of the event loop, or at once after 256 of them. */
class ReplyFlushTest {
    /**
     * The socket's end of the pipeline: keeps the writes until a flush takes them. (It does not pass writes on, because
     * an embedded channel runs its pending tasks, the flush batch among them, on every write that reaches it.)
     */
    static final class Wire extends ChannelOutboundHandlerAdapter {
        final List<String> unflushed = new ArrayList<>();
        final List<String> flushes = new ArrayList<>();

        @Override
        public void write(ChannelHandlerContext ctx, Object msg, ChannelPromise promise) {
            ByteBuf b = (ByteBuf) msg;
            unflushed.add(b.toString(StandardCharsets.ISO_8859_1));
            b.release();
            promise.trySuccess();
        }

        @Override
        public void flush(ChannelHandlerContext ctx) {
            flushes.add(String.join("|", unflushed));
            unflushed.clear();
        }
    }

    /** A connection's end of the pipeline with its {@link ReplyFlush}. */
    private static final class Connection {
        final Wire wire = new Wire();
        final EmbeddedChannel ch = new EmbeddedChannel(wire, new ChannelInboundHandlerAdapter());
        final ChannelHandlerContext ctx = ch.pipeline().lastContext();
        final ReplyFlush flush = new ReplyFlush(ctx);

        void write(String reply) {
            ctx.write(Unpooled.copiedBuffer(reply, StandardCharsets.ISO_8859_1));
            flush.wrote();
        }
    }

    @Test
    void replies_leaveInOneFlushWhenTheLoopsTaskRuns() {
        Connection c = new Connection();
        c.write("a");
        c.write("b");
        assertEquals(List.of(), c.wire.flushes, "replies wait for the loop's task");
        c.ch.runPendingTasks();
        assertEquals(List.of("a|b"), c.wire.flushes);

        c.write("c");
        assertEquals(1, c.wire.flushes.size());
        c.ch.runPendingTasks();
        assertEquals(List.of("a|b", "c"), c.wire.flushes);
        c.ch.runPendingTasks();
        assertEquals(2, c.wire.flushes.size(), "nothing left to flush");
        c.ch.finishAndReleaseAll();
    }

    @Test
    void manyReplies_areFlushedEvery256_beforeTheTaskRuns() {
        Connection c = new Connection();
        for (int i = 0; i < ReplyFlush.FLUSH_AFTER - 1; i++) {
            c.write("x");
        }
        assertEquals(List.of(), c.wire.flushes);
        c.write("y");
        assertEquals(1, c.wire.flushes.size());
        assertEquals(ReplyFlush.FLUSH_AFTER, c.wire.flushes.get(0).split("\\|").length);
        c.write("z");
        assertEquals(1, c.wire.flushes.size());
        c.ch.runPendingTasks();
        assertEquals("z", c.wire.flushes.get(1));
        c.ch.finishAndReleaseAll();
    }
}
