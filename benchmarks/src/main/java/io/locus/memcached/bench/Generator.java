package io.locus.memcached.bench;

/**
 * What {@link ProxyBench} drives: {@link LoadGenerator} (a thread per connection, closed loop or open loop) or
 * {@link NioLoadGenerator} (open loop, faithful at overload).
 */
interface Generator {
    LoadGenerator.Result run(LoadGenerator.Target target, KeySource keys, LoadGenerator.Settings settings)
            throws InterruptedException;

    /** Requests completed so far in the current run (progress). */
    long completed();

    /** One line about the last run, or empty. */
    default String summary() {
        return "";
    }

    /** See {@link NioLoadGenerator#admittedMetFromSend}; NaN where not measured. */
    default double admittedMetFromSend(int tenant) {
        return Double.NaN;
    }

    /** {@code nio} or {@code threads}. */
    static Generator of(String kind) {
        return kind.equals("nio") ? new NioLoadGenerator() : new LoadGenerator();
    }
}
