package io.locus.memcached.stats;

import org.HdrHistogram.Histogram;
import org.HdrHistogram.Recorder;

/**
 * A tenant's latencies in microseconds since the proxy started, as an HdrHistogram with one significant digit: a
 * reported quantile is the upper end of the sub-bucket holding it, at most 1/16 (6.25 %) above the recorded value.
 * Values from 0 to {@link #MAX_MICROS}; larger ones count as {@code MAX_MICROS}, negative ones as 0.
 *
 * <p>{@link #record} runs on the I/O threads for every reply: it is wait-free and allocates nothing (a
 * {@link Recorder} of fixed range). Readers ({@code stats}, Prometheus) take what was recorded since the last read
 * and add it to the running total under this object's lock, so a read sees a consistent cut.
 */
public final class LatencyHistogram {
    /** One hour: anything slower is a stuck request, not a latency to resolve. */
    static final long MAX_MICROS = 3_600_000_000L;

    private static final int SIGNIFICANT_DIGITS = 1;

    private final Recorder recorder = new Recorder(MAX_MICROS, SIGNIFICANT_DIGITS);
    private final Histogram total = new Histogram(MAX_MICROS, SIGNIFICANT_DIGITS);
    private Histogram interval;

    /** Records one latency, µs. */
    public void record(long micros) {
        recorder.recordValue(Math.max(0, Math.min(MAX_MICROS, micros)));
    }

    synchronized long count() {
        drain();
        return total.getTotalCount();
    }

    /**
     * The {@code q}-quantile (0 < q <= 1) in µs, HdrHistogram's value at percentile {@code 100 q}, rounded up to its
     * sub-bucket's upper end; 0 when nothing was recorded.
     */
    synchronized long quantileMicros(double q) {
        drain();
        return total.getTotalCount() == 0 ? 0 : total.getValueAtPercentile(100 * q);
    }

    private void drain() {
        interval = recorder.getIntervalHistogram(interval);
        total.add(interval);
    }
}
