package io.locus.memcached.server;

import io.locus.memcached.backend.ProxyRequest;
import io.locus.memcached.backend.ReplySink;
import io.locus.memcached.backend.RequestHandler;
import io.locus.memcached.config.Listener;
import io.locus.memcached.protocol.Command;
import io.locus.memcached.protocol.MemcachedRequest;
import io.locus.memcached.protocol.MetaFlags;
import io.locus.memcached.protocol.RequestError;
import io.locus.memcached.stats.ProxyMetrics;
import io.locus.memcached.stats.ProxyStats;
import io.locus.memcached.tenant.HintException;
import io.locus.memcached.tenant.HintFlags;
import io.locus.memcached.tenant.Resolution;
import io.locus.memcached.tenant.Session;
import io.netty.buffer.ByteBuf;
import io.netty.channel.ChannelFutureListener;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelInboundHandlerAdapter;
import io.netty.util.AsciiString;
import java.nio.charset.StandardCharsets;
import java.util.ArrayDeque;
import java.util.List;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Serves one client connection: authenticates it when required, answers the commands the proxy owns, resolves each
 * request's tenant and deadline, hands keyed requests to the {@link RequestHandler}, and writes replies in request
 * order.
 *
 * <p>Guarantees: one reply per request (none when the client asked for none), in request order, whatever order the
 * backends answer in; at most {@code limits.max_pipeline} requests in flight, beyond which the proxy stops reading
 * from the client until replies drain (back-pressure instead of unbounded buffering). Confined to its event loop.
 *
 * <p>Memory per connection is bounded by bytes as well as by count, because one decoded read can hold thousands of
 * pipelined {@code get}s of a 1 MB value and a client that does not read its replies would otherwise make the proxy
 * buffer all of them (memcached itself stops working on a connection it cannot write to). Requests are dispatched
 * only while the connection is writable (its outbound bytes below the write-buffer high-water mark) and while fewer
 * than {@code limits.reply_budget / recent largest reply} are in flight, and while the gets in flight hold fewer than
 * {@code limits.max_pending_keys} keys (one get is let through whatever its size); the rest wait, decoded, in arrival order,
 * and reading from the socket stops until they are dispatched. The reply-size estimate starts at
 * {@link #INITIAL_REPLY_ESTIMATE}, jumps to any larger reply and decays by 1/16 per smaller one, so a connection of
 * small values reaches the full {@code limits.max_pipeline} after about eighty replies.
 */
final class ClientHandler extends ChannelInboundHandlerAdapter {
    private static final Logger LOG = LoggerFactory.getLogger(ClientHandler.class);
    /**
     * Before any reply is seen: 16 requests in flight at the default budget. A first burst of gets of 1 MB values then
     * holds at most 16 MB before the estimate has learnt their size, while a pipelining client of small values starts
     * with enough requests in flight to fill its backends.
     */
    static final long INITIAL_REPLY_ESTIMATE = 256 * 1024;

    private static final java.util.concurrent.atomic.AtomicLong CONNECTION_IDS =
            new java.util.concurrent.atomic.AtomicLong();

    private final ConnectionShared shared;
    private final Session session;
    private final long connectionId = CONNECTION_IDS.incrementAndGet();
    private final ArrayDeque<Slot> slots = new ArrayDeque<>();
    /** Decoded requests not dispatched yet (see the class comment), in arrival order. */
    private final ArrayDeque<Object> waiting = new ArrayDeque<>();
    /** Recent largest reply, bytes: a maximum that decays by 1/16 per reply. */
    private long replyEstimate;
    /** Keys of the retrievals in flight: a get of 20,000 keys holds its line and a place per key until answered. */
    private long pendingKeys;

    private boolean admitting;
    private ChannelHandlerContext ctx;
    private RequestHandler handler;
    private boolean closed;
    private boolean paused;
    private boolean inputShutdown;
    private ReplyFlush flush;
    /** The request metrics of the tenant this connection's last request resolved to. */
    private ProxyMetrics.TenantRequests tenantMetrics;

    ClientHandler(ConnectionShared shared, Listener listener) {
        this.shared = shared;
        this.session = new Session(listener.tenant(), listener.defaultDeadline());
        this.replyEstimate = INITIAL_REPLY_ESTIMATE;
    }

    @Override
    public void channelActive(ChannelHandlerContext ctx) {
        this.ctx = ctx;
        this.handler = shared.handlers().apply(ctx.channel().eventLoop());
        this.flush = new ReplyFlush(ctx);
        String tenant = session.listenerTenant();
        this.tenantMetrics = shared.stats().metrics().tenant(tenant == null ? "default" : tenant);
        shared.stats().increment(ProxyStats.Counter.CURR_CONNECTIONS);
        shared.stats().increment(ProxyStats.Counter.TOTAL_CONNECTIONS);
        ctx.fireChannelActive();
    }

    @Override
    public void channelInactive(ChannelHandlerContext ctx) {
        closed = true;
        shared.stats().decrement(ProxyStats.Counter.CURR_CONNECTIONS);
        shared.stats().metrics().connectionClosed();
        for (Slot s : slots) {
            s.discard();
        }
        slots.clear();
        releaseWaiting();
        ctx.fireChannelInactive();
    }

    /** The client shut down its output: answer what it sent, then close (as memcached does at EOF). */
    @Override
    public void userEventTriggered(ChannelHandlerContext ctx, Object evt) {
        if (evt instanceof io.netty.channel.socket.ChannelInputShutdownEvent) {
            inputShutdown = true;
            closeIfDrained();
        }
        ctx.fireUserEventTriggered(evt);
    }

    private void closeIfDrained() {
        if (inputShutdown && slots.isEmpty() && waiting.isEmpty() && !closed) {
            closed = true;
            ctx.writeAndFlush(io.netty.buffer.Unpooled.EMPTY_BUFFER).addListener(ChannelFutureListener.CLOSE);
        }
    }

    @Override
    public void exceptionCaught(ChannelHandlerContext ctx, Throwable cause) {
        LOG.warn("client {}: {}", ctx.channel().remoteAddress(), cause.toString());
        ctx.close();
    }

    @Override
    public void channelRead(ChannelHandlerContext ctx, Object msg) {
        if (!waiting.isEmpty() || !mayDispatch()) {
            waiting.add(msg);
        } else {
            accept(msg);
        }
        updateReading();
    }

    @Override
    public void channelWritabilityChanged(ChannelHandlerContext ctx) {
        flush.writabilityChanged();
        admitWaiting();
        updateReading();
        ctx.fireChannelWritabilityChanged();
    }

    private boolean mayDispatch() {
        long allowed = Math.max(1, shared.replyBudgetBytes() / Math.max(1024, replyEstimate));
        return slots.size() < Math.min(allowed, shared.maxPipeline())
                && (pendingKeys < shared.maxPendingKeys() || slots.isEmpty())
                && ctx.channel().isWritable();
    }

    /** Dispatches waiting requests while allowed; re-entrant calls (a request answered at once) leave it to the loop. */
    private void admitWaiting() {
        if (admitting) {
            return;
        }
        admitting = true;
        try {
            while (!closed && !waiting.isEmpty() && mayDispatch()) {
                accept(waiting.poll());
            }
        } finally {
            admitting = false;
        }
    }

    /** Reading stops while requests wait, the connection cannot be written, or the pipeline is full. */
    private void updateReading() {
        if (closed) {
            return;
        }
        boolean writable = ctx.channel().isWritable();
        if (!paused && (!waiting.isEmpty() || !writable || slots.size() >= shared.maxPipeline())) {
            paused = true;
            ctx.channel().config().setAutoRead(false);
        } else if (paused && waiting.isEmpty() && writable && slots.size() <= shared.maxPipeline() / 2) {
            paused = false;
            ctx.channel().config().setAutoRead(true);
        }
    }

    private void releaseWaiting() {
        for (Object m : waiting) {
            if (m instanceof MemcachedRequest r) {
                r.release();
            }
        }
        waiting.clear();
    }

    private void accept(Object msg) {
        Slot slot = new Slot();
        slots.add(slot);
        if (msg instanceof MemcachedRequest r && r.command().family() == Command.Family.RETRIEVAL) {
            slot.keys = r.keyCount();
            pendingKeys += slot.keys;
        }
        if (msg instanceof RequestError e) {
            shared.stats().increment(ProxyStats.Counter.CLIENT_ERRORS);
            slot.close = e.closeConnection();
            if (e.suppressed()) {
                slot.completeSilently();
            } else {
                slot.completeLine(e.replyLine());
            }
        } else {
            dispatch((MemcachedRequest) msg, slot);
        }
    }

    private void dispatch(MemcachedRequest req, Slot slot) {
        shared.stats().increment(ProxyStats.Counter.REQUESTS);
        slot.command = req.command();
        slot.arrivalNanos = System.nanoTime();
        slot.tenant = tenantMetrics;
        if (shared.auth() != null && session.user() == null && req.command() != Command.QUIT) {
            authenticate(req, slot);
            return;
        }
        if (req.command().family() == Command.Family.LOCAL) {
            try {
                answerLocally(req, slot);
            } finally {
                req.release();
            }
            return;
        }
        Resolution resolution;
        MetaFlags metaFlags = req.command().isMeta() ? req.metaFlags() : null;
        try {
            byte[] key = req.keyBytes(); // read once from the client's bytes; the handlers reuse the array
            resolution = shared.resolver()
                    .get()
                    .resolve(
                            session,
                            key == null ? null : new AsciiString(key, false),
                            metaFlags == null ? HintFlags.NONE : metaFlags);
        } catch (HintException e) {
            shared.stats().increment(ProxyStats.Counter.TENANT_REJECTS);
            LOG.debug("client {}: {} ({})", ctx.channel().remoteAddress(), e.replyLine(), e.getMessage());
            req.release();
            slot.completeLine(e.replyLine());
            return;
        }
        if (metaFlags != null) {
            metaFlags.hide(resolution.tenantFlag(), resolution.deadlineFlag()); // hint tokens are never forwarded
            shared.stats().add(ProxyStats.Counter.HINT_TOKENS_STRIPPED, resolution.hintTokens());
        }
        tenantMetrics = tenantMetrics.switchTo(resolution.tenant());
        slot.tenant = tenantMetrics;
        handler.handle(new ProxyRequest(req, resolution, slot.arrivalNanos, connectionId), slot);
    }

    private void authenticate(MemcachedRequest req, Slot slot) {
        try {
            slot.completeLine(SessionCommands.authenticate(req, session, shared.auth(), shared.stats()));
        } finally {
            req.release();
        }
    }

    private void answerLocally(MemcachedRequest req, Slot slot) {
        switch (req.command()) {
            case VERSION -> slot.completeLine("VERSION " + shared.version());
            case VERBOSITY -> {
                if (req.quiet()) {
                    slot.completeSilently();
                } else {
                    slot.completeLine("OK");
                }
            }
            case MN -> slot.completeLine("MN");
            case QUIT -> {
                slot.close = true;
                slot.completeSilently();
            }
            case STATS -> slot.complete(stats(req.args()));
            case DLCTX ->
                slot.completeLine(SessionCommands.dlctx(
                        req.args(), session, shared.resolver().get()));
            default -> throw new IllegalStateException("not a local command: " + req.command());
        }
    }

    private ByteBuf stats(List<String> args) {
        String text = StatsCommand.reply(
                args, shared.table(), () -> shared.pools().apply(ctx.channel().eventLoop()), handler);
        if (text == null) {
            return line("ERROR");
        }
        return ctx.alloc().buffer(text.length()).writeBytes(text.getBytes(StandardCharsets.ISO_8859_1));
    }

    private ByteBuf line(String line) {
        ByteBuf b = ctx.alloc().buffer(line.length() + 2);
        b.writeCharSequence(line, StandardCharsets.ISO_8859_1);
        return b.writeByte('\r').writeByte('\n');
    }

    /** Writes the completed prefix of the reply queue. */
    private void drain() {
        boolean wrote = false;
        while (!slots.isEmpty() && slots.peek().done) {
            Slot s = slots.poll();
            if (s.bytes != null) {
                ctx.write(s.bytes, ctx.voidPromise());
                s.bytes = null;
                wrote = true;
            }
            if (s.close) {
                closed = true;
                ctx.writeAndFlush(io.netty.buffer.Unpooled.EMPTY_BUFFER).addListener(ChannelFutureListener.CLOSE);
                for (Slot rest : slots) {
                    rest.discard();
                }
                slots.clear();
                releaseWaiting();
                return;
            }
        }
        if (wrote) {
            flush.wrote();
        }
        admitWaiting();
        updateReading();
        closeIfDrained();
    }

    /** One request's place in the reply order. */
    private final class Slot implements ReplySink {
        private ByteBuf bytes;
        private boolean done;
        private boolean close;
        /** The request's keys while it counts in {@link #pendingKeys}. */
        private int keys;
        /** The client's request, or null for a line that was not one (counted as a client error instead). */
        private Command command;

        private long arrivalNanos;
        private ProxyMetrics.TenantRequests tenant;

        @Override
        public void complete(ByteBuf reply) {
            if (done || closed) {
                if (reply != null) {
                    reply.release();
                }
                return;
            }
            bytes = reply;
            done = true;
            if (command != null) {
                tenant.answered(
                        command.ordinal(), command.word(), System.nanoTime() - arrivalNanos, ErrorReply.is(reply));
            }
            pendingKeys -= keys;
            keys = 0;
            int size = reply == null ? 0 : reply.readableBytes();
            replyEstimate = Math.max(size, replyEstimate - (replyEstimate >> 4));
            drain();
        }

        @Override
        public void completeLine(String l) {
            if (done || closed) {
                return;
            }
            complete(line(l));
        }

        @Override
        public void completeSilently() {
            complete(null);
        }

        @Override
        public boolean abandoned() {
            return closed;
        }

        void discard() {
            done = true;
            if (bytes != null) {
                bytes.release();
                bytes = null;
            }
        }
    }
}
