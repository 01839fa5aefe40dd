/**
 * The in-proxy deadline cache (DLC): MicroFuge's deadline-aware multi-queue LRU, bounded in bytes, with
 * tenant fairness and per-tenant statistics (MicroFuge §3.1, DEADLINES.md, "In the proxy").
 *
 * <p>Entry point: {@link io.locus.memcached.cache.DeadlineCache}, configured by
 * {@link io.locus.memcached.cache.DeadlineCacheConfig}. {@link io.locus.memcached.cache.DeadlineClasses} is the
 * queue index function (deadline to deadline class) and the eviction multiplier.
 *
 * <p>This package holds no host types: no Netty, no protocol classes. Time comes from an injected
 * {@code LongSupplier} of nanoseconds, keys and values are plain {@code byte[]}. A guard test
 * ({@code CoreHasNoHostTypesTest}) fails if that changes.
 */
package io.locus.memcached.cache;
