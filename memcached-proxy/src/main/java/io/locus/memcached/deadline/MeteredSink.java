package io.locus.memcached.deadline;

import io.locus.memcached.backend.ProxyRequest;
import io.locus.memcached.backend.ReplySink;
import io.locus.memcached.protocol.Command;
import io.locus.memcached.stats.TenantMetrics;
import io.locus.memcached.tenant.Deadline;
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
        record(counters, arrivalNanos, hardDeadlineNanos, rejected);
    }

    /**
     * Records a request whose reply is complete now, for a reply the deadline path writes at once (a cache hit) and so
     * needs no metered sink.
     */
    static void record(TenantMetrics.Counters counters, ProxyRequest pr, long hardDeadlineNanos, boolean rejected) {
        record(counters, pr.arrivalNanos(), hardDeadlineNanos, rejected);
    }

    private static void record(
            TenantMetrics.Counters counters, long arrivalNanos, long hardDeadlineNanos, boolean rejected) {
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

    @Override
    public boolean abandoned() {
        return inner.abandoned();
    }

    /**
     * The relative hard deadline in ns that {@code deadlines_met/missed} judge the request by, or -1 if it is not a hard
     * read. Writes (storage and keyed commands, {@code ms md ma}, {@code mg} with T, N or E) are scheduled best-effort
     * whatever their rule says ({@link io.locus.memcached.schedule.TicketRequest}, [MicroFuge §5.1]) and are never
     * refused, so counting them against a read deadline would mix best-effort writes into the hard-read figure that
     * admission is about (under overload a tenant's sets, queued behind admitted reads, would be most of its "missed").
     */
    static long hardDeadlineNanos(ProxyRequest pr) {
        Deadline d = pr.resolution().deadline();
        if (d.bestEffort()) {
            return -1;
        }
        Command cmd = pr.request().command();
        boolean write = switch (cmd.family()) {
            case RETRIEVAL -> false;
            case META -> cmd != Command.MG || pr.flags().anyOf("TNE");
            default -> true;
        };
        return write ? -1 : d.micros() * 1000;
    }
}
