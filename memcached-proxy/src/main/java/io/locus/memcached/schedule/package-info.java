/**
 * The per-backend deadline scheduler (MicroFuge DLS) and its admission control
 * (MicroFuge ch. 4, DESIGN.md, "Threads").
 *
 * <p>Entry point: {@link io.locus.memcached.schedule.DeadlineScheduler}, one per backend, configured by
 * {@link io.locus.memcached.schedule.SchedulerConfig}. It orders tickets earliest-deadline-first with bounded
 * demotion, keeps at most {@code window} tickets in flight at the backend, and asks its
 * {@link io.locus.memcached.schedule.AdmissionController} (latency model {@link
 * io.locus.memcached.schedule.LatencyModel} plus a miss-rate feedback loop) whether a hard deadline can be
 * met. {@link io.locus.memcached.schedule.ServiceLevels} is shared by all backends and holds the tenant
 * fairness state (service levels, urgent-rate buckets). Rejections are {@link
 * io.locus.memcached.schedule.RejectReason} values that map onto the reply table of DESIGN.md, "Tenants and deadlines".
 *
 * <p>This package holds no host types: no Netty, no protocol classes, time from an injected
 * {@code LongSupplier} of nanoseconds. A guard test ({@code CoreHasNoHostTypesTest}) fails if that changes.
 */
package io.locus.memcached.schedule;
