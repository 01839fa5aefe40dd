package io.locus.memcached.config;

/**
 * How the proxy talks to each memcached of {@code pool.servers}.
 *
 * @param conns {@code backend.conns}: connections per backend per I/O thread
 * @param timeoutMicros {@code backend.timeout}
 * @param connectTimeoutMicros {@code backend.connect_timeout}
 * @param retryIntervalMicros {@code backend.retry_interval}
 */
public record BackendSection(int conns, long timeoutMicros, long connectTimeoutMicros, long retryIntervalMicros) {}
