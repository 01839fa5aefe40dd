/**
 * The proxy's statistics in one place: {@link io.locus.memcached.stats.StatsTable} holds every {@code stats} line by
 * group; the memcached {@code stats} command, {@code stats <group>} ({@link io.locus.memcached.stats.StatsGroups} for
 * the derived {@code tenants} and {@code deadline} views) and the Prometheus page
 * ({@link io.locus.memcached.stats.PrometheusEndpoint}, the lines as counters and gauges by
 * {@link io.locus.memcached.stats.StatsLineMetrics}) all read it. The request path's latency histograms and labelled
 * counters are {@link io.locus.memcached.stats.ProxyMetrics}, one Prometheus registry per proxy. The counters behind it: {@link io.locus.memcached.stats.ProxyStats} (the proxy's own, one
 * {@code LongAdder} per {@link io.locus.memcached.stats.ProxyStats.Counter}) and
 * {@link io.locus.memcached.stats.TenantMetrics} (per tenant, with a {@link io.locus.memcached.stats.LatencyHistogram}
 * each). Thread-safe; no Netty types; uses no other package of the proxy.
 */
package io.locus.memcached.stats;
