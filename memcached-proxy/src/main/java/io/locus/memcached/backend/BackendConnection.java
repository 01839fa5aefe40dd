package io.locus.memcached.backend;

import io.locus.memcached.protocol.BackendReply;
import io.locus.memcached.protocol.BackendResponseDecoder;
import io.locus.memcached.protocol.ProtocolLimits;
import io.locus.memcached.stats.ProxyStats;
import io.netty.bootstrap.Bootstrap;
import io.netty.buffer.ByteBuf;
import io.netty.channel.Channel;
import io.netty.channel.ChannelFuture;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelInboundHandlerAdapter;
import io.netty.channel.ChannelInitializer;
import io.netty.channel.ChannelOption;
import io.netty.channel.EventLoop;
import io.netty.channel.socket.SocketChannel;
import io.netty.handler.flush.FlushConsolidationHandler;
import io.prometheus.metrics.core.datapoints.DistributionDataPoint;
import java.util.ArrayDeque;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.TimeUnit;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * One pipelined TCP connection to a backend, confined to one event loop.
 *
 * <p>Requests are written in call order and replies matched strictly first-in first-out; every request sent has
 * exactly one reply (the proxy never sends {@code noreply}/{@code q} without a following {@code mn}). When a reply is
 * late beyond the timeout, or the backend sends bytes that are not a reply, the FIFO can no longer be trusted: the
 * connection is closed and every call on it fails. The next call reconnects.
 */
public final class BackendConnection {
    private static final Logger LOG = LoggerFactory.getLogger(BackendConnection.class);
    public static final String UNAVAILABLE = "SERVER_ERROR backend unavailable";
    static final String TIMEOUT = "SERVER_ERROR backend timeout";
    /** Explicit flushes a {@link FlushConsolidationHandler} may hold back before it writes anyway. */
    private static final int FLUSH_AFTER = 256;
    /** A timer later than this fired after the I/O thread was busy elsewhere, not because the backend was late. */
    private static final long LATE_NANOS = TimeUnit.MILLISECONDS.toNanos(20);
    /** The second look of a late timer: after the loop's next reading of its sockets. */
    private static final long GRACE_NANOS = TimeUnit.MILLISECONDS.toNanos(1);

    /** Where a connect succeeds or fails: the backend this connection is one of. */
    interface Health {
        void markUp();

        void markDown();

        /** The connection was lost, timed out or could not be made: one failure toward ejection. */
        void failed();

        /** A reply arrived: the backend is answering. */
        void replied();
    }

    private final String host;
    private final int port;
    private final Health health;
    private final EventLoop loop;
    private final ProtocolLimits limits;
    private final ProxyStats stats;
    private final long timeoutMicros;
    private final int connectTimeoutMillis;
    private final DistributionDataPoint latency;
    private Channel channel;
    private BackendResponseDecoder decoder;
    private boolean connecting;
    private final ArrayDeque<BackendCall> waiting = new ArrayDeque<>();
    private final ArrayDeque<BackendCall> inFlight = new ArrayDeque<>();
    private ScheduledFuture<?> timer;
    /** The call whose timer fired late and was given one more turn of the loop. */
    private BackendCall graced;

    BackendConnection(
            String host,
            int port,
            Health health,
            EventLoop loop,
            ProtocolLimits limits,
            ProxyStats stats,
            long timeoutMicros,
            int connectTimeoutMillis) {
        this.host = host;
        this.port = port;
        this.health = health;
        this.loop = loop;
        this.limits = limits;
        this.stats = stats;
        this.timeoutMicros = timeoutMicros;
        this.connectTimeoutMillis = connectTimeoutMillis;
        this.latency = stats.metrics().backend(address());
    }

    private String address() {
        return host + ":" + port;
    }

    /** Sends a call, connecting first if needed. */
    void send(BackendCall call) {
        stats.increment(ProxyStats.Counter.BACKEND_REQUESTS);
        call.timeoutAt(System.nanoTime() + timeoutMicros * 1000);
        if (channel != null && !connecting && !channel.isActive()) {
            // Closed, but its channelInactive has not run yet: its calls will get no reply, and the next connection
            // must start with an empty FIFO.
            channel = null;
            failAll(UNAVAILABLE);
        }
        if (channel != null && channel.isActive() && !connecting) {
            write(call);
        } else {
            waiting.add(call);
            if (!connecting) {
                connect();
            }
        }
        // Armed once the call is queued, so a call on an idle connection has its timer too.
        armTimer();
    }

    int outstanding() {
        return waiting.size() + inFlight.size();
    }

    boolean isConnected() {
        return channel != null && channel.isActive() && !connecting;
    }

    private void write(BackendCall call) {
        decoder.expect(call.format());
        inFlight.add(call);
        ByteBuf request = call.takeRequest();
        channel.writeAndFlush(request, channel.voidPromise());
    }

    private void connect() {
        connecting = true;
        BackendResponseDecoder d = new BackendResponseDecoder(limits);
        Bootstrap b = Transport.levelTriggered(new Bootstrap())
                .group(loop)
                .channel(Transport.clientChannel())
                .option(ChannelOption.TCP_NODELAY, true)
                .option(ChannelOption.CONNECT_TIMEOUT_MILLIS, connectTimeoutMillis)
                .handler(new ChannelInitializer<SocketChannel>() {
                    @Override
                    protected void initChannel(SocketChannel ch) {
                        // Requests of one read from the clients leave in one write system call.
                        ch.pipeline().addLast(new FlushConsolidationHandler(FLUSH_AFTER, true), d, new ReplyHandler());
                    }
                });
        ChannelFuture f = b.connect(host, port);
        channel = f.channel();
        decoder = d;
        f.addListener(done -> {
            connecting = false;
            if (!done.isSuccess()) {
                LOG.warn(
                        "cannot connect to backend {}: {}",
                        address(),
                        done.cause().toString());
                health.markDown();
                health.failed();
                channel = null;
                failAll(UNAVAILABLE);
                return;
            }
            stats.increment(ProxyStats.Counter.BACKEND_CONNECTS);
            health.markUp();
            while (!waiting.isEmpty()) {
                write(waiting.poll());
            }
        });
    }

    /**
     * One timer per connection instead of one per request (a scheduled task per request was a measurable share of the
     * pass-through's CPU): calls time out in FIFO order, so the timer only ever needs the oldest call's expiry. When it
     * fires and the oldest call has been answered meanwhile, it re-arms for the call that is now oldest.
     */
    private void armTimer() {
        if (timer == null) {
            BackendCall oldest = oldest();
            if (oldest != null) {
                timer = loop.schedule(
                        this::checkTimeout,
                        Math.max(0, oldest.timeoutAtNanos() - System.nanoTime()),
                        TimeUnit.NANOSECONDS);
            }
        }
    }

    private BackendCall oldest() {
        BackendCall a = inFlight.peek();
        BackendCall b = waiting.peek();
        if (a == null) {
            return b;
        }
        return b == null || a.timeoutAtNanos() - b.timeoutAtNanos() <= 0 ? a : b;
    }

    private void checkTimeout() {
        timer = null;
        BackendCall oldest = oldest();
        long now = System.nanoTime();
        if (oldest != null && oldest.timeoutAtNanos() - now <= 0) {
            if (oldest != graced && now - oldest.timeoutAtNanos() > LATE_NANOS) {
                // The I/O thread itself was held up past the call's expiry (a burst of clients' large requests), and
                // the reply may be waiting unread in the socket: the loop reads its sockets once more before the
                // timer looks again.
                graced = oldest;
                timer = loop.schedule(this::checkTimeout, GRACE_NANOS, TimeUnit.NANOSECONDS);
                return;
            }
            timedOut(oldest);
        }
        armTimer();
    }

    private void timedOut(BackendCall call) {
        if (call.done()) {
            return;
        }
        stats.increment(ProxyStats.Counter.BACKEND_TIMEOUTS);
        LOG.warn(
                "backend {} did not reply within {} us; closing the connection ({} calls on it)",
                address(),
                timeoutMicros,
                outstanding());
        // Counted before the client hears of it, so its next request already sees an ejection this one caused.
        health.failed();
        call.fail(TIMEOUT);
        // Replies on this connection can no longer be matched to requests: start afresh.
        failAll(TIMEOUT);
        closeChannel();
    }

    private void failAll(String line) {
        while (!inFlight.isEmpty()) {
            stats.increment(ProxyStats.Counter.BACKEND_FAILURES);
            inFlight.poll().fail(line);
        }
        while (!waiting.isEmpty()) {
            stats.increment(ProxyStats.Counter.BACKEND_FAILURES);
            waiting.poll().fail(line);
        }
    }

    private void closeChannel() {
        Channel c = channel;
        channel = null;
        connecting = false;
        if (c != null) {
            c.close();
        }
    }

    void close() {
        failAll(UNAVAILABLE);
        closeChannel();
    }

    private final class ReplyHandler extends ChannelInboundHandlerAdapter {
        @Override
        public void channelRead(ChannelHandlerContext ctx, Object msg) {
            BackendReply reply = (BackendReply) msg;
            if (ctx.channel() != channel) {
                reply.release();
                return;
            }
            BackendCall call = inFlight.poll();
            if (call == null) {
                reply.release();
                exceptionCaught(ctx, new IllegalStateException("reply without a request"));
                return;
            }
            // The send time is the expiry less the timeout: no second clock read per call on the way out.
            latency.observe((System.nanoTime() - call.timeoutAtNanos() + timeoutMicros * 1000) / 1e9);
            health.replied();
            call.reply(reply);
        }

        @Override
        public void channelInactive(ChannelHandlerContext ctx) {
            if (ctx.channel() == channel) {
                LOG.warn("backend {} closed the connection ({} calls on it)", address(), outstanding());
                channel = null;
                health.failed();
                failAll(UNAVAILABLE);
            }
        }

        @Override
        public void exceptionCaught(ChannelHandlerContext ctx, Throwable cause) {
            if (ctx.channel() == channel) {
                LOG.warn("backend {} connection failed: {}", address(), cause.toString());
                channel = null;
                health.failed();
                failAll(UNAVAILABLE);
            }
            ctx.close();
        }
    }
}
