/**
 * The proxy's statistics in one place: {@link io.locus.memcached.stats.StatsTable} holds every {@code stats} line by
 * group; the memcached {@code stats} command, {@code stats <group>} ({@link io.locus.memcached.stats.StatsGroups} for
 * the derived {@code tenants} and {@code deadline} views) and the Prometheus page
 * ({@link io.locus.memcached.stats.PrometheusEndpoint}, text by {@link io.locus.memcached.stats.PrometheusText}) all
 * read it. No Netty types.
 */
package io.locus.memcached.stats;
