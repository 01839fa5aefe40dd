package io.locus.gluster.virtcache.detector;

import io.locus.gluster.virtcache.hotblock.TranslatorStats;
import java.util.Objects;

/**
 * Turns two successive {@code trusted.virtcache.stats} readings of one file into an
 * {@link InterferenceDetector.Sample} and the brick's average queue depth between them: arrivals = Δops / Δt, the
 * service time d = Δidle_latency / Δidle_completed (fops issued while nothing else was in flight, so without
 * queueing), and queue depth = Δqueue_area / Δt. When no fop ran idle in the interval, the last known d is kept; before
 * any is known, the average latency of the interval stands in. Not thread-safe.
 */
public final class LoadSampler {
    private TranslatorStats last;
    private double deviceSeconds = Double.NaN;

    /** One interval's result. */
    public record Interval(InterferenceDetector.Sample sample, double averageQueueDepth, double seconds) {}

    /**
     * Takes the next reading; returns the interval since the previous one, or null for the first reading or an
     * interval of no time or no completed fop yet.
     *
     * @param redirectedPerSecond what the client sends elsewhere meanwhile
     * @throws IllegalArgumentException if a counter went backwards (the brick restarted: start a new sampler)
     */
    public Interval next(TranslatorStats now, double redirectedPerSecond) {
        Objects.requireNonNull(now, "now");
        TranslatorStats prev = last;
        last = now;
        if (prev == null) {
            return null;
        }
        long clock = delta(prev, now, "brick_clock_us");
        long ops = delta(prev, now, "ops");
        long completed = delta(prev, now, "completed");
        long latency = delta(prev, now, "latency_us");
        long idle = delta(prev, now, "idle_completed");
        long idleLatency = delta(prev, now, "idle_latency_us");
        long area = delta(prev, now, "brick_queue_area_us");
        if (clock == 0) {
            return null;
        }
        if (idle > 0) {
            deviceSeconds = Math.max(1e-6, idleLatency / 1e6 / idle);
        } else if (Double.isNaN(deviceSeconds) && completed > 0) {
            deviceSeconds = Math.max(1e-6, latency / 1e6 / completed);
        }
        if (Double.isNaN(deviceSeconds)) {
            return null;
        }
        double seconds = clock / 1e6;
        return new Interval(
                new InterferenceDetector.Sample(ops / seconds, redirectedPerSecond, deviceSeconds),
                (double) area / clock,
                seconds);
    }

    private static long delta(TranslatorStats prev, TranslatorStats now, String key) {
        long d = now.number(key) - prev.number(key);
        if (d < 0) {
            throw new IllegalArgumentException(TranslatorStats.XATTR + " " + key + " went from " + prev.number(key)
                    + " to " + now.number(key) + " (expected: non-decreasing; did the brick restart?)");
        }
        return d;
    }
}
