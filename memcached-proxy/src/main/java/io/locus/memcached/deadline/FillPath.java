package io.locus.memcached.deadline;

import io.locus.memcached.backend.ProxyRequest;
import io.locus.memcached.backend.ReplySink;
import io.locus.memcached.stats.TenantMetrics;

/**
 * How the cache's fills reach a backend: the one door from {@link CachedReads} into the deadline path, so the cache
 * side chooses no backend and touches no scheduler itself.
 */
interface FillPath {
    /** Chooses the backend for the fill {@code fill} of {@code key} and its ticket; nothing is sent yet. */
    Route route(ProxyRequest fill, String key);

    /** A fill whose backend and ticket are chosen. */
    interface Route {
        /** Absolute deadline of the fill's ticket (nanoTime), or {@link Long#MAX_VALUE} for a best-effort fill. */
        long deadlineNanos();

        /** Sends the fill; {@code refusal} runs instead of {@code target} if admission refuses it. */
        void send(ReplySink target, TenantMetrics.Counters counters, ScheduledRequest.Refusal refusal);
    }
}
