/**
 * Locus for memcached: a tenant- and deadline-aware proxy in front of unmodified memcached servers
 * (DESIGN.md).
 *
 * <p>Entry point: {@link io.locus.memcached.MemcachedProxy}, the command line ({@code java -jar ... --config
 * proxy.yaml}). Packages by feature, each using only those after it: {@code server} (listener, client
 * connections, local commands), {@code deadline} (the full mode's cache front, scheduler adapter and admission) and
 * {@code balance.netty} (MBal's router and replication thread), {@code backend} (connections, pool, ketama
 * placement), {@code stats} (every counter, one table); then {@code config} (YAML configuration), {@code protocol}
 * (memcached text and meta codecs), and the pure cores without Netty types: {@code tenant} (tenant and deadline
 * resolution), {@code cache} (deadline cache), {@code schedule} (deadline scheduler and admission) and
 * {@code balance} (MBal's algorithms).
 * README, "How a request flows", follows one request through them.
 */
package io.locus.memcached;
