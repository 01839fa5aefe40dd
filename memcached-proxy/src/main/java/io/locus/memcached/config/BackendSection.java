package io.locus.memcached.config;

/**
 * How the proxy talks to each memcached of {@code pool.servers}.
 *
 * @param conns {@code backend.conns}: connections per backend per I/O thread
 * @param timeoutMicros {@code backend.timeout}
 * @param connectTimeoutMicros {@code backend.connect_timeout}
 * @param retryIntervalMicros {@code backend.retry_interval}
 * @param ejection {@code backend.auto_eject_hosts}, {@code backend.server_failure_limit} and
 *     {@code backend.server_retry_timeout}
 */
public record BackendSection(
        int conns, long timeoutMicros, long connectTimeoutMicros, long retryIntervalMicros, Ejection ejection) {

    /**
     * nutcracker's ejection of failing servers from the ring.
     *
     * @param autoEjectHosts whether failing servers leave the ring at all
     * @param serverFailureLimit consecutive failures that eject a server
     * @param serverRetryTimeoutMicros how long an ejected server stays out
     */
    public record Ejection(boolean autoEjectHosts, int serverFailureLimit, long serverRetryTimeoutMicros) {
        /** Ejection off, with nutcracker's defaults for the limit and the retry timeout. */
        public static final Ejection OFF = new Ejection(false, 2, 30_000_000);
    }
}
