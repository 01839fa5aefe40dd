/**
 * The server: the listener, the client connections, and the commands the proxy answers itself.
 *
 * <p>Door: {@link io.locus.memcached.server.ProxyServer}, which binds the listeners, builds each I/O thread's
 * {@link io.locus.memcached.backend.RequestHandler} (the deadline path and the balancing step around the
 * pass-through path, as the mode and {@code lb.enabled} ask) and the shared statistics table. Each client connection
 * is a {@code ClientHandler}: it numbers requests, resolves each one's tenant and deadline, answers {@code version},
 * {@code stats} ({@code StatsCommand}), auth and {@code dlctx} ({@code SessionCommands}) itself, hands keyed requests
 * to the thread's handler and writes replies strictly in request order. {@code TenantReloader} swaps the tenant
 * resolver on SIGHUP.
 *
 * <p>The top of the module: it may use every other package; none uses it but {@code MemcachedProxy}, the command line.
 * A connection and everything it calls run on one event loop.
 */
package io.locus.memcached.server;
