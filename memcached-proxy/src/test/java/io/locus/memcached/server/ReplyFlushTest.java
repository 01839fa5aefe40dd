package io.locus.memcached.server;

import static org.junit.jupiter.api.Assertions.assertEquals;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.Unpooled;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelInboundHandlerAdapter;
import io.netty.channel.ChannelOutboundHandlerAdapter;
import io.netty.channel.embedded.EmbeddedChannel;
import java.nio.charset.StandardCharsets;
import org.junit.jupiter.api.Test;

/** Replies leave once per read, or once per turn of the event loop when a backend completed them. */
class ReplyFlushTest {
    /** Counts the flushes that reach the socket's end of the pipeline. */
    private static final class Flushes extends ChannelOutboundHandlerAdapter {
        int count;

        @Override
        public void flush(ChannelHandlerContext ctx) {
            count++;
            ctx.flush();
        }
    }

    private static void write(ChannelHandlerContext ctx, ReplyFlush flush, String reply) {
        ctx.write(Unpooled.copiedBuffer(reply, StandardCharsets.ISO_8859_1));
        flush.wrote();
    }

    /** The flushed writes, one string per message. */
    private static String flushed(EmbeddedChannel ch) {
        StringBuilder sb = new StringBuilder();
        ByteBuf b;
        while ((b = ch.readOutbound()) != null) {
            sb.append(b.toString(StandardCharsets.ISO_8859_1)).append('|');
            b.release();
        }
        return sb.toString();
    }

    @Test
    void repliesOfARead_leaveInOneFlushWhenItEnds_othersWhenTheLoopsTaskRuns() {
        Flushes flushes = new Flushes();
        EmbeddedChannel ch = new EmbeddedChannel(flushes, new ChannelInboundHandlerAdapter());
        ChannelHandlerContext ctx = ch.pipeline().lastContext();
        ReplyFlush flush = new ReplyFlush(ctx);

        flush.readStarted();
        write(ctx, flush, "a");
        write(ctx, flush, "b");
        assertEquals(0, flushes.count);
        flush.readEnded();
        assertEquals(1, flushes.count);
        assertEquals("a|b|", flushed(ch));

        write(ctx, flush, "c");
        assertEquals(1, flushes.count, "a reply completed outside a read waits for the loop's task");
        ch.runPendingTasks();
        assertEquals(2, flushes.count);
        assertEquals("c|", flushed(ch));
        ch.runPendingTasks();
        assertEquals(2, flushes.count, "nothing left to flush");
        ch.finishAndReleaseAll();
    }

    @Test
    void aLongRead_isFlushedEvery256Replies() {
        EmbeddedChannel ch = new EmbeddedChannel(new ChannelInboundHandlerAdapter());
        ChannelHandlerContext ctx = ch.pipeline().lastContext();
        ReplyFlush flush = new ReplyFlush(ctx);
        flush.readStarted();
        for (int i = 0; i < ReplyFlush.FLUSH_AFTER - 1; i++) {
            write(ctx, flush, "x");
        }
        assertEquals("", flushed(ch));
        write(ctx, flush, "y");
        assertEquals(ReplyFlush.FLUSH_AFTER, flushed(ch).split("\\|").length);
        write(ctx, flush, "z");
        flush.readEnded();
        assertEquals("z|", flushed(ch));
        ch.finishAndReleaseAll();
    }
}
