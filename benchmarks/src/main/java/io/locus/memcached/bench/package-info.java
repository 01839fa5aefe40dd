/**
 * {@code ./locus bench proxy}: the end-to-end evaluation of the memcached proxy against direct memcached and
 * twemproxy, on real memcached servers on loopback (DESIGN.md, "How it is measured").
 *
 * <p>Pieces: {@link io.locus.memcached.bench.ProxyBench} (the harness main), {@link
 * io.locus.memcached.bench.LoadGenerator} (closed-loop or rate-paced text-protocol clients, one thread per
 * connection), {@link io.locus.memcached.bench.KeySource} (seeded scrambled Zipf keys or a real key trace, each key
 * carrying its tenant and deadline range in its prefix, the way the proxy's key-prefix rules read them), {@link
 * io.locus.memcached.bench.SlowShim} (a byte-forwarding shim that releases each backend reply only when a
 * single-server queue model says its service finished, so deadlines matter on loopback). The proxy runs as its
 * shaded jar in a child process: this module also holds Cassandra, and the two must not share a JVM's Netty.
 */
package io.locus.memcached.bench;
