package io.locus.memcached.config;

/**
 * The deadline path of the full mode: rejection replies, the per-backend scheduler and admission control.
 *
 * @param nominalMicros {@code be.nominal_deadline}: the deadline of a request that carries none
 * @param classicRejectAsError {@code classic.reject_mode: error} (otherwise a rejected get is a miss)
 * @param metaRejectAsError {@code meta.reject_mode: error}
 * @param scheduling {@code sched.enabled}
 * @param window {@code sched.window}
 * @param maxDemotions {@code sched.max_demotions}
 * @param maxQueue {@code sched.max_queue}
 * @param admissionGuardMicros {@code admission.guard}
 * @param targetMiss {@code admission.target_miss}
 * @param quantile {@code admission.quantile}
 */
public record DeadlineSection(
        long nominalMicros,
        boolean classicRejectAsError,
        boolean metaRejectAsError,
        boolean scheduling,
        int window,
        int maxDemotions,
        int maxQueue,
        long admissionGuardMicros,
        double targetMiss,
        double quantile) {}
