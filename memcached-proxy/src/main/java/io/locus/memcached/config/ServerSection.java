package io.locus.memcached.config;

/**
 * The proxy process itself: what it runs, how many I/O threads, what it answers to {@code version}, its side doors.
 *
 * @param mode {@code mode}: the full deadline path or byte-for-byte pass-through
 * @param ioThreads {@code io_threads}, with {@code auto} already resolved
 * @param busyPollMicros {@code server.busy_poll_us}: how long an I/O thread polls before it sleeps; 0 = never
 * @param version {@code version}
 * @param authEnabled {@code auth.enabled}
 * @param authFile {@code auth.file}; empty when auth is off
 * @param prometheusPort {@code metrics.prometheus_port}; 0 = no endpoint
 * @param reloadIntervalMicros {@code reload.interval}; 0 = reload only on SIGHUP
 */
public record ServerSection(
        Mode mode,
        int ioThreads,
        int busyPollMicros,
        String version,
        boolean authEnabled,
        String authFile,
        int prometheusPort,
        long reloadIntervalMicros) {

    /** {@code mode}. */
    public enum Mode {
        FULL,
        PASS_THROUGH
    }
}
