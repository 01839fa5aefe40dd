/**
 * Locus for memcached: a tenant- and deadline-aware proxy in front of unmodified memcached servers
 * (DESIGN.md).
 *
 * <p>Entry point: {@link io.locus.memcached.MemcachedProxy}, the command line ({@code java -jar ... --config
 * proxy.yaml}). Packages: {@code protocol} (memcached text and meta codecs), {@code proxy} (Netty server, backend
 * pool, ketama ring), {@code config} (YAML configuration), {@code tenant} (tenant and deadline resolution),
 * {@code cache} (deadline cache), {@code schedule} (deadline scheduler and admission), {@code balance} (MBal load
 * balancing).
 */
package io.locus.memcached;
