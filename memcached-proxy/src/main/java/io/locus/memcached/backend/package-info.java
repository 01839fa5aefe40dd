/**
 * The backends: pipelined connections to memcached, each I/O thread's pool of them, placement on a
 * nutcracker-compatible ketama ring, and the contract every request handler implements.
 *
 * <p>Doors: {@link io.locus.memcached.backend.PassThroughHandler}, the innermost
 * {@link io.locus.memcached.backend.RequestHandler} (a keyed request to its key's backend, the reply to its
 * {@link io.locus.memcached.backend.ReplySink}), and {@link io.locus.memcached.backend.BackendPool}
 * ({@code backend(i).send(call)}) for the handlers that choose a backend themselves. A
 * {@link io.locus.memcached.backend.BackendConnection} matches replies to calls in FIFO order and bounds each call by
 * {@code backend.timeout}; {@link io.locus.memcached.backend.Backend} holds a backend's connections and its health.
 *
 * <p>Uses only {@code stats}, {@code config}, {@code protocol} and {@code tenant}; the deadline path, the balancer's
 * adapter and the server are built on it.
 */
package io.locus.memcached.backend;
