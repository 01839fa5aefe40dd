package io.locus.memcached.bench;

import org.HdrHistogram.Histogram;

/**
 * What one tenant's requests did in the measured window: latency histogram (microseconds, 1 µs .. 60 s, 3
 * significant digits), gets and hits, sets, proxy rejects, errors, and deadlines met per range. A get with a deadline
 * counts as met when its value came back (a hit) within the deadline, latency measured from the request's intended
 * start: the harness preloads every key, so a miss is a proxy's refusal ({@code classic.reject_mode: miss}) or a
 * lost item, not an answer. Not thread-safe: one per client thread and tenant, merged with
 * {@link #add}.
 */
public final class OpStats {
    static final long MAX_MICROS = 60_000_000L;

    final Histogram latencyMicros = new Histogram(MAX_MICROS, 3);
    /**
     * Latency from when the request was written rather than from its intended start (the {@link NioLoadGenerator}
     * only, gets and sets of the window): without the generator's own lag, for comparing what each row adds.
     */
    final Histogram fromSendMicros = new Histogram(MAX_MICROS, 3);

    /**
     * Latency by reply kind ({@link Kind}), allocated on first use: which requests make a row's tail (a refusal is
     * answered without a backend, so a tail shared by refusals is a stall of the machine or of the proxy's I/O, not a
     * queue).
     */
    private final Histogram[] byKind = new Histogram[Kind.values().length];

    long gets;
    long hits;
    long sets;
    long rejected;
    long errors;
    final long[] deadlineGets = new long[3];
    final long[] met = new long[3];
    /** Gets with a deadline that the proxy refused up front (admission control), per range. */
    final long[] deadlineRejected = new long[3];
    /** Requests of the window still without a reply when the generator stopped waiting ({@link NioLoadGenerator}). */
    long unanswered;

    /** Records a get. {@code outcome}: its reply; {@code deadlineNanos} < 0 for best-effort. */
    void recordGet(long latencyNanos, Reply outcome, DeadlineRange range, long deadlineNanos) {
        gets++;
        recordLatency(latencyNanos);
        recordKind(
                outcome == Reply.HIT ? Kind.HIT : outcome == Reply.REJECTED ? Kind.REFUSED : Kind.OTHER_GET,
                latencyNanos);
        switch (outcome) {
            case HIT -> hits++;
            case REJECTED -> rejected++;
            case ERROR -> errors++;
            default -> {}
        }
        if (range != DeadlineRange.BEST_EFFORT) {
            deadlineGets[range.ordinal()]++;
            if (outcome == Reply.HIT && latencyNanos <= deadlineNanos) {
                met[range.ordinal()]++;
            }
            if (outcome == Reply.REJECTED) {
                deadlineRejected[range.ordinal()]++;
            }
        }
    }

    /**
     * Records a request that got no reply before the generator stopped waiting: not an op and no latency sample (its
     * latency is unknown), but a get with a deadline counts as one whose deadline was missed.
     */
    void recordUnanswered(boolean get, DeadlineRange range) {
        unanswered++;
        if (get && range != DeadlineRange.BEST_EFFORT) {
            deadlineGets[range.ordinal()]++;
        }
    }

    /** Records a set. */
    void recordSet(long latencyNanos, Reply outcome) {
        sets++;
        recordLatency(latencyNanos);
        recordKind(Kind.SET, latencyNanos);
        if (outcome == Reply.REJECTED) {
            rejected++;
        } else if (outcome == Reply.ERROR) {
            errors++;
        }
    }

    private void recordLatency(long latencyNanos) {
        latencyMicros.recordValue(Math.max(1, Math.min(MAX_MICROS, latencyNanos / 1000)));
    }

    private void recordKind(Kind kind, long latencyNanos) {
        Histogram h = byKind[kind.ordinal()];
        if (h == null) {
            h = byKind[kind.ordinal()] = new Histogram(MAX_MICROS, 2);
        }
        h.recordValue(Math.max(1, Math.min(MAX_MICROS, latencyNanos / 1000)));
    }

    /** Requests of one reply kind recorded. */
    public long count(Kind kind) {
        Histogram h = byKind[kind.ordinal()];
        return h == null ? 0 : h.getTotalCount();
    }

    /** The latency percentile of one reply kind in milliseconds (2 significant digits), NaN without samples. */
    public double latencyMillis(Kind kind, double percentile) {
        Histogram h = byKind[kind.ordinal()];
        return h == null || h.getTotalCount() == 0 ? Double.NaN : h.getValueAtPercentile(percentile) / 1000.0;
    }

    /** Adds another thread's counts to this one. */
    void add(OpStats other) {
        for (Kind k : Kind.values()) {
            Histogram h = other.byKind[k.ordinal()];
            if (h != null) {
                if (byKind[k.ordinal()] == null) {
                    byKind[k.ordinal()] = new Histogram(MAX_MICROS, 2);
                }
                byKind[k.ordinal()].add(h);
            }
        }
        latencyMicros.add(other.latencyMicros);
        fromSendMicros.add(other.fromSendMicros);
        gets += other.gets;
        hits += other.hits;
        sets += other.sets;
        rejected += other.rejected;
        errors += other.errors;
        unanswered += other.unanswered;
        for (int r = 0; r < 3; r++) {
            deadlineGets[r] += other.deadlineGets[r];
            met[r] += other.met[r];
            deadlineRejected[r] += other.deadlineRejected[r];
        }
    }

    /** Requests completed (gets and sets). */
    public long ops() {
        return gets + sets;
    }

    /** Hits / gets, or NaN without gets. */
    public double hitRatio() {
        return gets == 0 ? Double.NaN : (double) hits / gets;
    }

    /** Gets with a deadline whose value came in time / gets with a deadline; NaN if there were none. */
    public double metRatio() {
        long all = deadlineGets[0] + deadlineGets[1] + deadlineGets[2];
        return all == 0 ? Double.NaN : (double) (met[0] + met[1] + met[2]) / all;
    }

    /** The same for one range. */
    public double metRatio(DeadlineRange range) {
        long all = deadlineGets[range.ordinal()];
        return all == 0 ? Double.NaN : (double) met[range.ordinal()] / all;
    }

    /** Gets with a deadline, all ranges. */
    public long deadlineGets() {
        return deadlineGets[0] + deadlineGets[1] + deadlineGets[2];
    }

    /** Gets with a deadline whose value came back within it, all ranges. */
    public long deadlinesMet() {
        return met[0] + met[1] + met[2];
    }

    /** Gets with a deadline refused up front, all ranges. */
    public long deadlineRejected() {
        return deadlineRejected[0] + deadlineRejected[1] + deadlineRejected[2];
    }

    /** Requests of the measured window never answered (see {@link #recordUnanswered}). */
    public long unanswered() {
        return unanswered;
    }

    /** Rejected / requests, or NaN without requests. */
    public double rejectRatio() {
        return ops() == 0 ? Double.NaN : (double) rejected / ops();
    }

    /** Latency at a percentile (0..100), milliseconds; NaN without requests. */
    public double latencyMillis(double percentile) {
        return latencyMicros.getTotalCount() == 0
                ? Double.NaN
                : latencyMicros.getValueAtPercentile(percentile) / 1000.0;
    }

    /** Records a latency from the send (see {@link #fromSendMicros}). */
    void recordFromSend(long latencyNanos) {
        fromSendMicros.recordValue(Math.max(1, Math.min(MAX_MICROS, latencyNanos / 1000)));
    }

    /** Latency from the send at a percentile (0..100), milliseconds; NaN if none was recorded. */
    public double fromSendMillis(double percentile) {
        return fromSendMicros.getTotalCount() == 0
                ? Double.NaN
                : fromSendMicros.getValueAtPercentile(percentile) / 1000.0;
    }

    /** Requests grouped by what answered them, for the tail breakdown. */
    public enum Kind {
        /** Gets that returned the value (from the proxy's cache or a backend). */
        HIT("hits"),
        /** Gets the proxy refused up front. */
        REFUSED("refusals"),
        /** Other gets (misses, errors). */
        OTHER_GET("other gets"),
        /** Sets (the workload's and cache-aside fills after a miss). */
        SET("sets");

        private final String label;

        Kind(String label) {
            this.label = label;
        }

        /** How the report names it. */
        public String label() {
            return label;
        }
    }

    /** The classified reply of one request. */
    enum Reply {
        /** A get that returned the value. */
        HIT,
        /** A get that returned no value. */
        MISS,
        /** A set that was stored. */
        STORED,
        /** The proxy refused the request for its deadline or tenant quota. */
        REJECTED,
        /** Any other error reply or a broken connection. */
        ERROR
    }
}
