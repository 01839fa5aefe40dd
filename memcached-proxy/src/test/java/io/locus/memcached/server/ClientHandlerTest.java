package io.locus.memcached.server;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.locus.memcached.backend.ProxyRequest;
import io.locus.memcached.backend.ReplySink;
import io.locus.memcached.backend.RequestHandler;
import io.locus.memcached.config.Listener;
import io.locus.memcached.protocol.MemcachedRequestDecoder;
import io.locus.memcached.protocol.ProtocolLimits;
import io.locus.memcached.stats.ProxyStats;
import io.locus.memcached.tenant.TenantPolicy;
import io.locus.memcached.tenant.TenantResolver;
import io.netty.buffer.ByteBuf;
import io.netty.buffer.Unpooled;
import io.netty.channel.embedded.EmbeddedChannel;
import io.netty.util.ResourceLeakDetector;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/** Replies leave in request order whatever order the handler completes them in; local commands keep their place. */
class ClientHandlerTest {
    /** Holds every request until the test completes it. */
    static final class HoldingHandler implements RequestHandler {
        final List<ReplySink> held = new ArrayList<>();
        final List<String> keys = new ArrayList<>();

        @Override
        public void handle(ProxyRequest request, ReplySink reply) {
            keys.add(request.request().key());
            request.request().release();
            held.add(reply);
        }
    }

    private static ClientHandler clientHandler(RequestHandler handler) {
        ConnectionShared shared = new ConnectionShared(
                new TenantResolver(TenantPolicy.defaults()),
                null,
                new ProxyStats(),
                "1.6.0",
                1,
                1024,
                loop -> handler,
                loop -> null);
        return new ClientHandler(shared, new Listener("127.0.0.1", 0, null, null));
    }

    static String drainOutbound(EmbeddedChannel ch) {
        ch.runPendingTasks(); // replies are flushed by a task of the event loop (ReplyFlush)
        StringBuilder sb = new StringBuilder();
        ByteBuf b;
        while ((b = ch.readOutbound()) != null) {
            sb.append(b.toString(StandardCharsets.ISO_8859_1));
            b.release();
        }
        return sb.toString();
    }

    @Test
    void repliesCompletedOutOfOrder_areWrittenInRequestOrder() {
        ResourceLeakDetector.setLevel(ResourceLeakDetector.Level.PARANOID);
        HoldingHandler handler = new HoldingHandler();
        EmbeddedChannel ch =
                new EmbeddedChannel(new MemcachedRequestDecoder(ProtocolLimits.DEFAULTS), clientHandler(handler));
        ch.writeInbound(Unpooled.copiedBuffer(
                "get a\r\nmn\r\nget b\r\nbogus\r\nset c 0 0 1 noreply\r\nx\r\nget d\r\n", StandardCharsets.ISO_8859_1));
        assertEquals(List.of("a", "b", "c", "d"), handler.keys);
        assertEquals("", drainOutbound(ch), "nothing may leave before the first reply is known");
        handler.held.get(3).completeLine("D");
        handler.held.get(1).completeLine("B");
        assertEquals("", drainOutbound(ch));
        handler.held.get(0).completeLine("A");
        assertEquals("A\r\nMN\r\nB\r\nERROR\r\n", drainOutbound(ch));
        handler.held.get(2).completeSilently();
        assertEquals("D\r\n", drainOutbound(ch));
        assertFalse(ch.finish());
    }

    @Test
    void getsHoldingTheKeyLimit_stopFurtherRequests_untilOneIsAnswered() {
        HoldingHandler handler = new HoldingHandler();
        EmbeddedChannel ch =
                new EmbeddedChannel(new MemcachedRequestDecoder(ProtocolLimits.DEFAULTS), clientHandler(handler));
        StringBuilder big = new StringBuilder("get");
        for (int i = 0; i < 150_000; i++) {
            big.append(" k").append(i);
        }
        big.append("\r\n");
        String half = big.substring(0, big.indexOf(" k60000")) + "\r\n";
        ch.writeInbound(
                Unpooled.copiedBuffer(big + half + "get a\r\n" + half + "get b\r\n", StandardCharsets.ISO_8859_1));
        assertEquals(1, handler.held.size(), "a get over the limit is let through alone");
        assertFalse(ch.config().isAutoRead(), "reading stops while requests wait");
        handler.held.get(0).completeLine("BIG");
        assertEquals(List.of("k0", "k0", "a", "k0"), handler.keys, "requests are let through while under 100,000 keys");
        handler.held.get(2).completeLine("A");
        assertEquals(List.of("k0", "k0", "a", "k0"), handler.keys, "120,000 keys in flight: get b waits");
        handler.held.get(1).completeLine("HALF");
        assertEquals(List.of("k0", "k0", "a", "k0", "b"), handler.keys);
        assertTrue(ch.config().isAutoRead());
        ch.finishAndReleaseAll();
    }

    @Test
    void quit_closesAfterEarlierReplies_andLaterRepliesAreReleased() {
        HoldingHandler handler = new HoldingHandler();
        EmbeddedChannel ch =
                new EmbeddedChannel(new MemcachedRequestDecoder(ProtocolLimits.DEFAULTS), clientHandler(handler));
        ch.writeInbound(Unpooled.copiedBuffer("get a\r\nquit\r\nget b\r\n", StandardCharsets.ISO_8859_1));
        handler.held.get(0).completeLine("A");
        ch.runPendingTasks();
        assertEquals("A\r\n", drainOutbound(ch));
        assertFalse(ch.isOpen(), "quit closes the connection");
        handler.held.get(1).complete(Unpooled.copiedBuffer("late", StandardCharsets.US_ASCII)); // must be released
        ch.finishAndReleaseAll();
    }

    @Test
    void repliesAnsweredDuringARead_leaveWhenTheLoopsTaskRuns_notWhenTheReadEnds() {
        ReplyFlushTest.Wire wire = new ReplyFlushTest.Wire();
        EmbeddedChannel ch = new EmbeddedChannel(
                wire, new MemcachedRequestDecoder(ProtocolLimits.DEFAULTS), clientHandler(new HoldingHandler()));
        // Through the pipeline, not writeInbound, and without auto-read: an embedded channel runs its pending tasks at
        // the end of writeInbound and in the read that auto-read asks for when a read completes.
        ch.config().setAutoRead(false);
        ch.pipeline().fireChannelRead(Unpooled.copiedBuffer("version\r\nmn\r\n", StandardCharsets.ISO_8859_1));
        ch.pipeline().fireChannelReadComplete();
        assertEquals(List.of(), wire.flushes, "the read's end flushes nothing; the other ready connections come first");
        ch.runPendingTasks();
        assertEquals(List.of("VERSION 1.6.0\r\n|MN\r\n"), wire.flushes);
        ch.finishAndReleaseAll();
    }
}
