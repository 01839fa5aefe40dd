package io.locus.memcached.schedule;

import java.time.Duration;

/**
 * Configuration of one backend's {@link DeadlineScheduler} and {@link AdmissionController}; keys and
 * defaults follow DESIGN.md, "Threads" and README.md, "Configuration".
 *
 * @param window tickets in flight at the backend at once ({@code sched.window} W, default 8; 1 = thesis)
 * @param maxDemotions times a queued ticket may be overtaken before it is frozen ({@code sched.max_demotions}
 *     K, default 16)
 * @param maxQueue queued tickets beyond which hard tickets are rejected ({@code sched.max_queue}, 1024)
 * @param guard slack kept between predicted finish and deadline ({@code admission.guard}; the proxy's default is 500 µs)
 * @param targetMiss fraction of admitted hard tickets allowed to miss ({@code admission.target_miss}, 0.10)
 * @param quantile service-time quantile used for the ticket's own service ({@code admission.quantile},
 *     default 1 - targetMiss)
 * @param kappaMin lower bound of the feedback factor kappa (0.5)
 * @param kappaMax upper bound of kappa (4)
 * @param ewmaAlpha weight of a new sample in the mean service time (0.2)
 * @param sampleWindow samples kept for the quantile (512)
 * @param coldStartSamples samples before the model trusts itself (32)
 * @param initialServiceEstimate service time assumed during cold start
 *     ({@code backend.initial_service_estimate}, 500 µs)
 * @param bestEffortNominalDeadline deadline given to best-effort tickets without one ({@code
 *     be.nominal_deadline}, 1 s)
 * @param dropExpired drop queued hard tickets whose deadline passed instead of dispatching them (true;
 *     false in paper mode)
 * @param epoch length of the feedback epoch (1 s)
 */
public record SchedulerConfig(
        int window,
        int maxDemotions,
        int maxQueue,
        Duration guard,
        double targetMiss,
        double quantile,
        double kappaMin,
        double kappaMax,
        double ewmaAlpha,
        int sampleWindow,
        int coldStartSamples,
        Duration initialServiceEstimate,
        Duration bestEffortNominalDeadline,
        boolean dropExpired,
        Duration epoch) {

    /**
     * @throws IllegalArgumentException naming the key, the actual value and the expected range
     */
    public SchedulerConfig {
        requireRange("sched.window", window, 1, 1 << 16);
        requireRange("sched.max_demotions", maxDemotions, 0, 1 << 20);
        requireRange("sched.max_queue", maxQueue, 1, 1 << 24);
        requireRange("sample window", sampleWindow, 1, 1 << 20);
        requireRange("cold start samples", coldStartSamples, 0, 1 << 20);
        requirePositive("admission.guard", guard, true);
        requirePositive("backend.initial_service_estimate", initialServiceEstimate, false);
        requirePositive("be.nominal_deadline", bestEffortNominalDeadline, false);
        requirePositive("epoch", epoch, false);
        if (!(targetMiss > 0 && targetMiss < 1)) {
            throw new IllegalArgumentException("admission.target_miss " + targetMiss + " (expected: in (0, 1))");
        }
        if (!(quantile > 0 && quantile <= 1)) {
            throw new IllegalArgumentException("admission.quantile " + quantile + " (expected: in (0, 1])");
        }
        if (!(kappaMin > 0 && kappaMin <= 1 && kappaMax >= 1)) {
            throw new IllegalArgumentException(
                    "admission.kappa range [" + kappaMin + ", " + kappaMax + "] (expected: 0 < min <= 1 <= max)");
        }
        if (!(ewmaAlpha > 0 && ewmaAlpha <= 1)) {
            throw new IllegalArgumentException("ewma alpha " + ewmaAlpha + " (expected: in (0, 1])");
        }
    }

    private static void requireRange(String key, int value, int min, int max) {
        if (value < min || value > max) {
            throw new IllegalArgumentException(key + " " + value + " (expected: " + min + ".." + max + ")");
        }
    }

    private static void requirePositive(String key, Duration value, boolean zeroAllowed) {
        if (value == null || value.isNegative() || (!zeroAllowed && value.isZero())) {
            throw new IllegalArgumentException(
                    key + " " + value + " (expected: " + (zeroAllowed ? ">= 0" : "> 0") + ")");
        }
    }

    /** The defaults (README.md, "Configuration"): enhanced mode, W = 8. */
    public static SchedulerConfig defaults() {
        return new SchedulerConfig(
                8,
                16,
                1024,
                Duration.ofNanos(100_000),
                0.10,
                0.90,
                0.5,
                4.0,
                0.2,
                512,
                32,
                Duration.ofNanos(500_000),
                Duration.ofSeconds(1),
                true,
                Duration.ofSeconds(1));
    }

    /** Paper mode: one ticket in flight per backend [MicroFuge §4.2], no early drop. */
    public static SchedulerConfig paperMode() {
        return defaults().withWindow(1).withDropExpired(false);
    }

    /** A copy with another window. */
    public SchedulerConfig withWindow(int newWindow) {
        return new SchedulerConfig(
                newWindow,
                maxDemotions,
                maxQueue,
                guard,
                targetMiss,
                quantile,
                kappaMin,
                kappaMax,
                ewmaAlpha,
                sampleWindow,
                coldStartSamples,
                initialServiceEstimate,
                bestEffortNominalDeadline,
                dropExpired,
                epoch);
    }

    /** A copy with another demotion bound. */
    public SchedulerConfig withMaxDemotions(int newK) {
        return new SchedulerConfig(
                window,
                newK,
                maxQueue,
                guard,
                targetMiss,
                quantile,
                kappaMin,
                kappaMax,
                ewmaAlpha,
                sampleWindow,
                coldStartSamples,
                initialServiceEstimate,
                bestEffortNominalDeadline,
                dropExpired,
                epoch);
    }

    /** A copy with another queue bound. */
    public SchedulerConfig withMaxQueue(int newMaxQueue) {
        return new SchedulerConfig(
                window,
                maxDemotions,
                newMaxQueue,
                guard,
                targetMiss,
                quantile,
                kappaMin,
                kappaMax,
                ewmaAlpha,
                sampleWindow,
                coldStartSamples,
                initialServiceEstimate,
                bestEffortNominalDeadline,
                dropExpired,
                epoch);
    }

    /** A copy with another miss target; the quantile follows as 1 - target (README.md, "Configuration"). */
    public SchedulerConfig withTargetMiss(double newTarget) {
        return new SchedulerConfig(
                window,
                maxDemotions,
                maxQueue,
                guard,
                newTarget,
                1 - newTarget,
                kappaMin,
                kappaMax,
                ewmaAlpha,
                sampleWindow,
                coldStartSamples,
                initialServiceEstimate,
                bestEffortNominalDeadline,
                dropExpired,
                epoch);
    }

    /** A copy with another cold-start estimate. */
    public SchedulerConfig withInitialServiceEstimate(Duration estimate) {
        return new SchedulerConfig(
                window,
                maxDemotions,
                maxQueue,
                guard,
                targetMiss,
                quantile,
                kappaMin,
                kappaMax,
                ewmaAlpha,
                sampleWindow,
                coldStartSamples,
                estimate,
                bestEffortNominalDeadline,
                dropExpired,
                epoch);
    }

    /** A copy with early drop of expired hard tickets switched on or off. */
    public SchedulerConfig withDropExpired(boolean drop) {
        return new SchedulerConfig(
                window,
                maxDemotions,
                maxQueue,
                guard,
                targetMiss,
                quantile,
                kappaMin,
                kappaMax,
                ewmaAlpha,
                sampleWindow,
                coldStartSamples,
                initialServiceEstimate,
                bestEffortNominalDeadline,
                drop,
                epoch);
    }
}
