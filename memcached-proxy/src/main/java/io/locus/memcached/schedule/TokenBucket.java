package io.locus.memcached.schedule;

/**
 * A token bucket refilled continuously at {@code ratePerSecond} up to {@code burst} tokens; starts full.
 * An infinite rate never runs dry. Not thread-safe by itself (guarded by {@link ServiceLevels}).
 */
final class TokenBucket {
    private final double ratePerNano;
    private final double burst;
    private double tokens;
    private long lastNanos;
    private boolean started;

    TokenBucket(double ratePerSecond, int burst) {
        if (!(ratePerSecond > 0)) {
            throw new IllegalArgumentException("token rate " + ratePerSecond + "/s (expected: > 0)");
        }
        if (burst < 1) {
            throw new IllegalArgumentException("token burst " + burst + " (expected: >= 1)");
        }
        this.ratePerNano = ratePerSecond / 1e9;
        this.burst = burst;
        this.tokens = burst;
    }

    boolean tryAcquire(long nowNanos) {
        if (Double.isInfinite(ratePerNano)) {
            return true;
        }
        if (started && nowNanos > lastNanos) {
            tokens = Math.min(burst, tokens + (nowNanos - lastNanos) * ratePerNano);
        }
        started = true;
        lastNanos = Math.max(lastNanos, nowNanos);
        if (tokens >= 1) {
            tokens -= 1;
            return true;
        }
        return false;
    }
}
