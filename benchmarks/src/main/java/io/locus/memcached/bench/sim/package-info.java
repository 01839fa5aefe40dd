/**
 * Trace-driven simulation of the deadline cache against a plain LRU and Caffeine (W-TinyLFU): replays a
 * real key trace ({@code data/kv}, see {@code data/README.md}) as cache-aside reads and
 * reports hit ratios per tenant and per deadline range. Entry point: {@link
 * io.locus.memcached.bench.sim.TraceReplay}; trace reading in {@link io.locus.memcached.bench.sim.KeyTrace}.
 *
 * <p>Plain Java, no Netty, no sockets; deterministic for DLC and LRU (fixed seeds, virtual clock).
 */
package io.locus.memcached.bench.sim;
