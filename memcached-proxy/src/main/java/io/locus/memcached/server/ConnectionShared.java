package io.locus.memcached.server;

import io.locus.memcached.backend.BackendPool;
import io.locus.memcached.backend.RequestHandler;
import io.locus.memcached.stats.ProxyStats;
import io.locus.memcached.stats.StatsTable;
import io.locus.memcached.tenant.AuthFile;
import io.locus.memcached.tenant.TenantResolver;

/** What all client connections of a {@link ProxyServer} share, handed to each {@link ClientHandler}. */
record ConnectionShared(
        java.util.function.Supplier<TenantResolver> resolver,
        AuthFile auth,
        ProxyStats stats,
        String version,
        int threads,
        int maxPipeline,
        long replyBudgetBytes,
        int maxPendingKeys,
        java.util.function.Function<io.netty.channel.EventLoop, RequestHandler> handlers,
        java.util.function.Function<io.netty.channel.EventLoop, BackendPool> pools,
        StatsTable table) {
    /** The default of {@code limits.reply_budget}. */
    static final long DEFAULT_REPLY_BUDGET = 4L << 20;

    /** The default of {@code limits.max_pending_keys}. */
    static final int DEFAULT_MAX_PENDING_KEYS = 100_000;

    /** A fixed resolver, the default reply budget and only the general {@code stats} lines. */
    ConnectionShared(
            TenantResolver resolver,
            AuthFile auth,
            ProxyStats stats,
            String version,
            int threads,
            int maxPipeline,
            java.util.function.Function<io.netty.channel.EventLoop, RequestHandler> handlers,
            java.util.function.Function<io.netty.channel.EventLoop, BackendPool> pools) {
        this(
                () -> resolver,
                auth,
                stats,
                version,
                threads,
                maxPipeline,
                DEFAULT_REPLY_BUDGET,
                DEFAULT_MAX_PENDING_KEYS,
                handlers,
                pools,
                ProxyStats.table(stats, version, threads));
    }
}
