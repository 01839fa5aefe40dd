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
        if (outcome == Reply.REJECTED) {
            rejected++;
        } else if (outcome == Reply.ERROR) {
            errors++;
        }
    }

    private void recordLatency(long latencyNanos) {
        latencyMicros.recordValue(Math.max(1, Math.min(MAX_MICROS, latencyNanos / 1000)));
    }

    /** Adds another thread's counts to this one. */
    void add(OpStats other) {
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
