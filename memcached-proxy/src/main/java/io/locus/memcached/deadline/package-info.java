/**
 * The deadline path of the full mode (MicroFuge: A. K. Singh, <i>Performance Isolation in Cloud Storage Systems</i>;
 * design note {@code memcached-proxy/DEADLINES.md}): the in-proxy cache front, the adapter to the EDF schedulers and
 * admission, and per-tenant metering.
 *
 * <p>Door: {@link io.locus.memcached.deadline.DeadlineHandler#factory}, one handler per I/O thread around the next
 * handler (the balancing step or the pass-through path), over the state all threads share in
 * {@link io.locus.memcached.deadline.DeadlineServices} (the {@code LocalCache}, tenant metrics, service levels).
 * {@code DeadlineHandler} sorts a request (cached read, forwarded read, write, broadcast) and drops the local copies a
 * write touches; {@code CachedReads} answers {@code get} and {@code mg} from the cache and sends the fills of misses;
 * both send backend requests only through {@code DeadlineRouter}, which chooses the backend or copy, makes the ticket
 * at that backend's scheduler and sends the request below once it is dispatched. {@code ScheduledRequest} and
 * {@code GetBatch} are tickets' payloads ({@code ScheduledWork}); {@code BatchedGet} fetches a multi-get's missing keys
 * in batches, within a connection's share of each scheduler ({@code ConnectionShares}) and the I/O thread's
 * {@code FetchQueue}; {@code ConnectionOrder} keeps one connection's requests in order through the schedulers;
 * {@code MeteredSink} records latency and deadlines met or missed.
 *
 * <p>Uses {@code backend}, {@code stats} and the pure cores {@code cache} and {@code schedule}; not the balancer.
 * Confined to the owning event loop except {@code DeadlineServices} and {@code LocalCache}, which are thread-safe.
 */
package io.locus.memcached.deadline;
