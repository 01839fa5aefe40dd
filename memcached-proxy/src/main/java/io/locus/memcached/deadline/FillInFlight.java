package io.locus.memcached.deadline;

import io.locus.memcached.backend.ProxyRequest;
import io.locus.memcached.stats.TenantMetrics;
import java.util.ArrayList;
import java.util.List;
import java.util.function.Consumer;

/**
 * A fill on its way to the backend, which later misses of the same key may wait for instead of sending their own
 * (single-flight, DEADLINES.md, "In the proxy"): under Zipf a hot key's misses arrive together, and each extra fill is
 * a backend request that admission must also find room for. Confined to its I/O thread.
 */
final class FillInFlight {
    /** A miss waiting for this fill. */
    record Waiter(ProxyRequest origin, TenantMetrics.Counters counters, Consumer<FillResult> done) {}

    private final long version;
    /** Absolute deadline of the fill's ticket (nanoTime), or {@link Long#MAX_VALUE} for a best-effort fill. */
    private final long deadlineNanos;

    private final List<Waiter> waiters = new ArrayList<>(2);

    FillInFlight(long version, long deadlineNanos) {
        this.version = version;
        this.deadlineNanos = deadlineNanos;
    }

    long version() {
        return version;
    }

    long deadlineNanos() {
        return deadlineNanos;
    }

    void waitFor(Waiter w) {
        waiters.add(w);
    }

    List<Waiter> waiters() {
        return waiters;
    }

    /**
     * Whether a miss with deadline {@code deadlineNanos} may wait for this fill: only if the fill is due no later, so
     * EDF serves it at least as early as the waiter's own fill, and admission already judged the earlier deadline.
     */
    boolean dueNoLaterThan(long deadlineNanos) {
        return deadlineNanos == Long.MAX_VALUE
                || (this.deadlineNanos != Long.MAX_VALUE && this.deadlineNanos - deadlineNanos <= 0);
    }
}
