package io.locus.memcached.deadline;

import io.locus.memcached.backend.ProxyRequest;
import io.locus.memcached.backend.ReplySink;
import io.locus.memcached.stats.TenantMetrics;
import io.netty.buffer.ByteBuf;

/**
 * A client's sink on the deadline path, recording latency and met/missed per tenant when the reply is complete.
 * Confined to its I/O thread.
 */
final class MeteredSink implements ReplySink {
    private final ReplySink inner;
    private final TenantMetrics.Counters counters;
    private final long arrivalNanos;
    private final long hardDeadlineNanos;
    /** Refused requests count in neither met nor missed. */
    private boolean rejected;

    MeteredSink(ReplySink inner, TenantMetrics.Counters counters, ProxyRequest pr, long hardDeadlineNanos) {
        this.inner = inner;
        this.counters = counters;
        this.arrivalNanos = pr.arrivalNanos();
        this.hardDeadlineNanos = hardDeadlineNanos;
    }

    TenantMetrics.Counters counters() {
        return counters;
    }

    void markRejected(boolean rejected) {
        this.rejected = rejected;
    }

    private void record() {
        long elapsed = System.nanoTime() - arrivalNanos;
        counters.requests().increment();
        counters.latency().record(elapsed / 1000);
        if (hardDeadlineNanos > 0 && !rejected) {
            if (elapsed <= hardDeadlineNanos) {
                counters.met().increment();
            } else {
                counters.missed().increment();
            }
        }
    }

    @Override
    public void complete(ByteBuf reply) {
        record();
        inner.complete(reply);
    }

    @Override
    public void completeLine(String line) {
        record();
        inner.completeLine(line);
    }

    @Override
    public void completeSilently() {
        record();
        inner.completeSilently();
    }
}
