package io.locus.memcached.server;

import io.locus.memcached.backend.BackendPool;
import io.locus.memcached.backend.PassThroughHandler;
import io.locus.memcached.backend.PoolRing;
import io.locus.memcached.backend.RequestHandler;
import io.locus.memcached.backend.Transport;
import io.locus.memcached.balance.netty.BalancingHandler;
import io.locus.memcached.balance.netty.BalancingServices;
import io.locus.memcached.config.ConfigException;
import io.locus.memcached.config.Listener;
import io.locus.memcached.config.ProxyConfig;
import io.locus.memcached.config.ServerSection;
import io.locus.memcached.deadline.DeadlineHandler;
import io.locus.memcached.deadline.DeadlineServices;
import io.locus.memcached.protocol.MemcachedRequestDecoder;
import io.locus.memcached.protocol.ProtocolLimits;
import io.locus.memcached.stats.PrometheusEndpoint;
import io.locus.memcached.stats.ProxyStats;
import io.locus.memcached.stats.StatsTable;
import io.locus.memcached.tenant.AuthFile;
import io.locus.memcached.tenant.TenantResolver;
import io.netty.bootstrap.ServerBootstrap;
import io.netty.buffer.PooledByteBufAllocator;
import io.netty.channel.Channel;
import io.netty.channel.ChannelInitializer;
import io.netty.channel.ChannelOption;
import io.netty.channel.EventLoop;
import io.netty.channel.EventLoopGroup;
import io.netty.channel.WriteBufferWaterMark;
import io.netty.channel.socket.SocketChannel;
import io.netty.util.concurrent.DefaultThreadFactory;
import java.io.IOException;
import java.net.InetSocketAddress;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The proxy server: binds every listener, serves clients on {@code io_threads} event loops, and keeps one
 * {@link BackendPool} and one {@link RequestHandler} per event loop.
 *
 * <p>{@link #start()} fails at once if a port cannot be bound or the auth file cannot be read; {@link #close()}
 * closes listeners, client and backend connections and stops the threads (idempotent).
 */
public final class ProxyServer implements AutoCloseable {
    private static final Logger LOG = LoggerFactory.getLogger(ProxyServer.class);

    private final ProxyConfig config;
    private final PoolRing ring;
    private final ProxyStats stats = new ProxyStats();
    private final Map<EventLoop, BackendPool> pools = new ConcurrentHashMap<>();
    private final Map<EventLoop, RequestHandler> handlers = new ConcurrentHashMap<>();
    private final List<Channel> serverChannels = new ArrayList<>();
    private EventLoopGroup boss;
    private EventLoopGroup workers;

    private final RequestHandler.Factory handlerFactory;
    private final DeadlineServices deadlines;
    private final AtomicReference<TenantResolver> resolver = new AtomicReference<>();
    private PrometheusEndpoint prometheus;
    private BalancingServices balancing;

    /** The load balancer, or null when off (tests drive Phase 3 moves through it). */
    public BalancingServices balancing() {
        return balancing;
    }

    /**
     * The full proxy: in-proxy deadline cache, per-backend deadline schedulers and admission control
     * ({@link DeadlineServices}); with {@code mode: pass_through} the byte-for-byte pass-through instead.
     *
     * @throws ConfigException if the deadline settings are not usable
     */
    public ProxyServer(ProxyConfig config) {
        this.config = config;
        this.ring = BackendPool.ringFor(config);
        boolean passThrough = config.server().mode() == ServerSection.Mode.PASS_THROUGH;
        this.deadlines = passThrough ? null : new DeadlineServices(config, ring, stats);
        this.handlerFactory = passThrough ? RequestHandler.Factory.PASS_THROUGH : DeadlineHandler.factory(deadlines);
    }

    /** A proxy whose per-thread handlers {@code handlerFactory} builds around the pass-through path (no cache). */
    public ProxyServer(ProxyConfig config, RequestHandler.Factory handlerFactory) {
        this.config = config;
        this.ring = BackendPool.ringFor(config);
        this.handlerFactory = handlerFactory;
        this.deadlines = null;
    }

    /**
     * Binds all listeners and starts serving.
     *
     * @return the bound addresses, in listener order (port 0 in the config becomes the port actually bound)
     * @throws ConfigException if the auth file cannot be read
     * @throws IllegalStateException naming the address if a listener cannot be bound
     */
    public List<InetSocketAddress> start() {
        AuthFile auth = null;
        if (config.server().authEnabled()) {
            Path file = Path.of(config.server().authFile());
            try {
                auth = AuthFile.read(file);
            } catch (IOException | IllegalArgumentException e) {
                throw new ConfigException("auth.file: cannot use " + file + ": " + e.getMessage(), e);
            }
        }
        resolver.set(new TenantResolver(config.tenantPolicy()));
        balancing = BalancingServices.create(config, ring, stats);
        StatsTable table = ProxyStats.table(
                stats, config.server().version(), config.server().ioThreads());
        table.add(StatsTable.GENERAL, ring::statsLines);
        if (deadlines != null) {
            table.add(StatsTable.DEADLINE, deadlines::statsLines);
        }
        if (balancing != null) {
            table.add(StatsTable.LB, balancing::statsLines);
        }
        int threads = config.server().ioThreads();
        boss = Transport.group(1, new DefaultThreadFactory("locus-accept", true));
        workers = Transport.group(
                threads,
                new DefaultThreadFactory("locus-io", true),
                config.server().busyPollMicros());
        ConnectionShared shared = new ConnectionShared(
                resolver::get,
                auth,
                stats,
                config.server().version(),
                threads,
                config.limits().maxPipeline(),
                config.limits().replyBudgetBytes(),
                config.limits().maxPendingKeys(),
                this::handlerFor,
                this::poolFor,
                table);
        ProtocolLimits limits = config.limits().protocol();
        List<InetSocketAddress> bound = new ArrayList<>();
        for (Listener l : config.listeners()) {
            ServerBootstrap b = Transport.levelTriggeredChildren(new ServerBootstrap())
                    .group(boss, workers)
                    .channel(Transport.serverChannel())
                    .option(ChannelOption.SO_REUSEADDR, true)
                    .childOption(ChannelOption.TCP_NODELAY, true)
                    .childOption(ChannelOption.ALLOW_HALF_CLOSURE, true)
                    .childOption(ChannelOption.ALLOCATOR, PooledByteBufAllocator.DEFAULT)
                    // Above 1 MiB of unsent replies a connection is not writable and the proxy stops dispatching its
                    // requests.
                    .childOption(
                            ChannelOption.WRITE_BUFFER_WATER_MARK, new WriteBufferWaterMark(256 * 1024, 1024 * 1024))
                    .childHandler(new ChannelInitializer<SocketChannel>() {
                        @Override
                        protected void initChannel(SocketChannel ch) {
                            // A connection's replies leave once per turn of its I/O thread, in one write system call
                            // (ReplyFlush, FlushBatch).
                            ch.pipeline().addLast(new MemcachedRequestDecoder(limits), new ClientHandler(shared, l));
                        }
                    });
            try {
                Channel ch = b.bind(l.host(), l.port()).sync().channel();
                serverChannels.add(ch);
                bound.add((InetSocketAddress) ch.localAddress());
            } catch (Exception e) {
                close();
                throw new IllegalStateException("cannot listen on " + l.host() + ":" + l.port() + ": " + e, e);
            }
        }
        int metricsPort = config.server().prometheusPort();
        if (metricsPort > 0) {
            try {
                prometheus = new PrometheusEndpoint(
                        config.listeners().get(0).host(), metricsPort, stats.metrics(), table::all);
            } catch (IllegalStateException e) {
                close();
                throw e;
            }
        }
        LOG.info(
                "locus memcached proxy listening on {}, {} backends, {} I/O threads ({})",
                bound,
                config.servers().size(),
                threads,
                Transport.name());
        return bound;
    }

    /** The ring placing keys on backends (the same as nutcracker's for this pool). */
    public PoolRing ring() {
        return ring;
    }

    public ProxyStats stats() {
        return stats;
    }

    /** The deadline path's shared state, or null for a proxy built with its own handler factory. */
    public DeadlineServices deadlines() {
        return deadlines;
    }

    /** The Prometheus endpoint's address, or null when {@code metrics.prometheus_port} is 0. */
    public InetSocketAddress prometheusAddress() {
        return prometheus == null ? null : prometheus.address();
    }

    /**
     * Applies the tenant part of a re-read configuration ({@code tenants}, {@code deadline_rules}, {@code hints.*},
     * {@code auth.allowed_tenants}; cache weights and service levels stay as started) without touching
     * connections: requests resolved from now on use it. Other changed keys need a restart (logged).
     */
    public void reloadTenants(ProxyConfig fresh) {
        resolver.set(new TenantResolver(fresh.tenantPolicy()));
        if (!fresh.sameExceptTenants(config)) {
            LOG.warn("configuration reload: only tenants, deadline rules and hints were applied; other changes need a"
                    + " restart");
        }
        LOG.info(
                "configuration reload: {} tenants, {} deadline rules",
                fresh.tenants().size(),
                fresh.deadlineRules().size());
    }

    private BackendPool poolFor(EventLoop loop) {
        return pools.computeIfAbsent(loop, l -> new BackendPool(config, ring, l, stats));
    }

    private RequestHandler handlerFor(EventLoop loop) {
        return handlers.computeIfAbsent(loop, l -> {
            RequestHandler base = new PassThroughHandler(poolFor(l), stats, PooledByteBufAllocator.DEFAULT);
            return handlerFactory.create(
                    balancing == null ? base : new BalancingHandler(balancing, base, poolFor(l), l));
        });
    }

    @Override
    public void close() {
        if (prometheus != null) {
            prometheus.close();
            prometheus = null;
        }
        for (Channel c : serverChannels) {
            c.close().awaitUninterruptibly();
        }
        serverChannels.clear();
        for (Map.Entry<EventLoop, BackendPool> e : pools.entrySet()) {
            e.getKey().submit(e.getValue()::close).awaitUninterruptibly(5, TimeUnit.SECONDS);
        }
        if (balancing != null) {
            balancing.close();
            balancing = null;
        }
        if (boss != null) {
            boss.shutdownGracefully(0, 2, TimeUnit.SECONDS).awaitUninterruptibly();
            workers.shutdownGracefully(0, 2, TimeUnit.SECONDS).awaitUninterruptibly();
            boss = null;
        }
    }
}
