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
    private static final class Wire extends ChannelOutboundHandlerAdapter {
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

    private static void write(ChannelHandlerContext ctx, ReplyFlush flush, String reply) {
        ctx.write(Unpooled.copiedBuffer(reply, StandardCharsets.ISO_8859_1));
        flush.wrote();
    }

    @Test
    void replies_leaveInOneFlushWhenTheLoopsTaskRuns() {
        Wire wire = new Wire();
        EmbeddedChannel ch = new EmbeddedChannel(wire, new ChannelInboundHandlerAdapter());
        ChannelHandlerContext ctx = ch.pipeline().lastContext();
        ReplyFlush flush = new ReplyFlush(ctx);

        write(ctx, flush, "a");
        write(ctx, flush, "b");
        assertEquals(List.of(), wire.flushes, "replies wait for the loop's task");
        ch.runPendingTasks();
        assertEquals(List.of("a|b"), wire.flushes);

        write(ctx, flush, "c");
        assertEquals(1, wire.flushes.size());
        ch.runPendingTasks();
        assertEquals(List.of("a|b", "c"), wire.flushes);
        ch.runPendingTasks();
        assertEquals(2, wire.flushes.size(), "nothing left to flush");
        ch.finishAndReleaseAll();
    }

    @Test
    void manyReplies_areFlushedEvery256_beforeTheTaskRuns() {
        Wire wire = new Wire();
        EmbeddedChannel ch = new EmbeddedChannel(wire, new ChannelInboundHandlerAdapter());
        ChannelHandlerContext ctx = ch.pipeline().lastContext();
        ReplyFlush flush = new ReplyFlush(ctx);
        for (int i = 0; i < ReplyFlush.FLUSH_AFTER - 1; i++) {
            write(ctx, flush, "x");
        }
        assertEquals(List.of(), wire.flushes);
        write(ctx, flush, "y");
        assertEquals(1, wire.flushes.size());
        assertEquals(ReplyFlush.FLUSH_AFTER, wire.flushes.get(0).split("\\|").length);
        write(ctx, flush, "z");
        assertEquals(1, wire.flushes.size());
        ch.runPendingTasks();
        assertEquals("z", wire.flushes.get(1));
        ch.finishAndReleaseAll();
    }
}
