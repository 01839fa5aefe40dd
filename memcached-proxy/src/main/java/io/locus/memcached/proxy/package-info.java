/**
 * The proxy: a Netty server in front of unmodified memcached backends.
 *
 * <p>Entry point: {@link io.locus.memcached.proxy.ProxyServer}. Each client connection is served by a {@link
 * io.locus.memcached.proxy.ClientHandler} that numbers requests and writes replies strictly in request order; each
 * request goes to the {@link io.locus.memcached.proxy.RequestHandler} of the connection's I/O thread: in the full
 * proxy a {@link io.locus.memcached.proxy.DeadlineHandler} (in-proxy deadline cache through {@code LocalCache}, one
 * EDF scheduler with admission control per backend, per-tenant metrics; shared state in {@link
 * io.locus.memcached.proxy.DeadlineServices}) around the {@link io.locus.memcached.proxy.PassThroughHandler}. Backends are
 * placed on a nutcracker-compatible {@link io.locus.memcached.proxy.KetamaRing} and reached through per-thread
 * {@link io.locus.memcached.proxy.BackendPool}s of pipelined connections.
 *
 * <pre>
 *  client ──► MemcachedRequestDecoder ──► ClientHandler ──(a) tenant/deadline (TenantResolver)
 *                                             │                 ──(b) RequestHandler.handle(request, slot)
 *                                             │                            │
 *                                             │              BackendPool ──► BackendConnection ──► memcached
 *                                             │                            │  (BackendResponseDecoder, FIFO)
 *  client ◄── replies in request order ◄──────┴──(d) slot.complete(bytes) ◄┘ (c)
 * </pre>
 *
 * Threading: a client connection, its handler, and the backend connections it uses all run on one event loop, so
 * none of these classes lock (the schedulers are confined to their event loop). Shared, thread-safe state: {@link
 * io.locus.memcached.proxy.ProxyStats}, {@code TenantMetrics}, {@code LocalCache} (locks per partition and per
 * invalidation stripe), the tenant resolver swapped by {@link io.locus.memcached.proxy.TenantReloader}.
 */
package io.locus.memcached.proxy;
