package io.locus.memcached.schedule;

import java.util.List;

/**
 * Admission control of one backend (MicroFuge §4.2): predicts when a ticket at queue position {@code p} will
 * finish, and tunes a safety factor {@code kappa} so that the fraction of admitted hard tickets that miss
 * stays near {@code target_miss}.
 *
 * <p>Prediction: {@code F(p) = now + kappa * kappaLevel * ((inflight + p) * sMean + sQ)}: the backend serves this
 * proxy's requests one after another, so the ticket waits for the {@code inflight + p} requests ahead of it, each
 * taking the mean service time {@code sMean}, and then for its own service, estimated by the quantile {@code sQ}.
 * A service time is the time the backend spent on one request alone: from the later of its dispatch and the previous
 * reply to its own reply ({@link #observeReply}), so it leaves out the wait behind requests in flight, which the
 * prediction counts itself. An idle backend thus admits a read whose deadline allows one service quantile. Feedback: once per epoch, if the miss fraction {@code m} of completed hard
 * tickets exceeds the target, {@code kappa *= 1.10} (at most kappaMax); if {@code m < target / 2},
 * {@code kappa /= 1.05} (at least kappaMin). Misses raise kappa early: once a tenth of an epoch has passed with at
 * least three misses above the target fraction, kappa goes up at once and a new epoch starts.
 *
 * <p>Not thread-safe: confined to the backend's owner thread, like its {@link DeadlineScheduler}.
 */
public final class AdmissionController {
    /*
     * Design note. [MicroFuge §4.2] only says the scheduler "uses the past response time information to generate
     * estimates ... including the queuing delay" and rejects requests that would miss or make others miss;
     * [MicroFuge §1.4] calls the number of requests that must meet their deadline "a tunable parameter". Everything
     * concrete here is decision 9 of DESIGN.md: EWMA mean for the queue, quantile for the own
     * service, a multiplicative kappa controller on the observed miss fraction. The service time leaves out the wait
     * behind requests in flight: a dispatch-to-reply time includes it, so its quantile would make an idle backend
     * look as slow as a busy one and refuse reads it would serve in time. Tickets already predicted to
     * miss are ignored by the "others" check, so one hopeless ticket cannot block all admissions.
     */
    private static final double KAPPA_UP = 1.10;
    private static final double KAPPA_DOWN = 1.05;
    /*
     * Why raise early: kappa decays by 5 % a second while nothing misses, until the predictions are optimistic enough
     * to admit more than the backend finishes in time; with raises only at epoch ends the proxy then kept admitting
     * for up to a whole second before the first raise. OverloadIT (2 ms backend, 50 ms deadlines) saw bursts of
     * about 250 late replies 3.5 to 5 s into its measured phase, 13 % of all admitted, in 3 of 7 full-suite runs.
     * Reacting within a tenth of an epoch cuts such a burst to roughly what is admitted in that tenth plus one
     * deadline. Three misses, so one slow reply does not move kappa.
     */
    private static final int EARLY_RAISE_MIN_MISSES = 3;
    private static final int EARLY_RAISE_FRACTION_OF_EPOCH = 10;

    private final SchedulerConfig config;
    private final LatencyModel model;
    private final long guardNanos;
    private final long epochNanos;
    private double kappa = 1.0;
    private long lastReplyNanos = Long.MIN_VALUE;
    private long epochStartNanos;
    private boolean epochStarted;
    private long epochMet;
    private long epochMissed;
    private long totalMet;
    private long totalMissed;

    /** A controller with a fresh {@link LatencyModel}. */
    public AdmissionController(SchedulerConfig config) {
        this.config = config;
        this.model = new LatencyModel(config);
        this.guardNanos = config.guard().toNanos();
        this.epochNanos = config.epoch().toNanos();
    }

    /** The backend's latency model. */
    public LatencyModel model() {
        return model;
    }

    /** Current feedback factor, in {@code [kappaMin, kappaMax]}. */
    public double kappa() {
        return kappa;
    }

    /** Guard between predicted finish and deadline, in nanoseconds. */
    public long guardNanos() {
        return guardNanos;
    }

    /**
     * Predicted finish instant of a ticket that would sit at queue index {@code position}.
     *
     * @param nowNanos current time
     * @param inflight tickets dispatched and not completed
     * @param position tickets ahead of it in the queue
     * @param kappaLevel the tenant's service-level inflation (1 for none)
     */
    public long predictFinishNanos(long nowNanos, int inflight, int position, double kappaLevel) {
        double aheadNanos = (double) (inflight + position) * model.meanNanos();
        return nowNanos + (long) (kappa * kappaLevel * (aheadNanos + model.quantileNanos()));
    }

    /**
     * True if inserting a ticket at {@code position} keeps every queued hard ticket behind it that is now
     * predicted to meet its deadline still predicted to meet it (each is pushed back one mean service time).
     */
    public <T> boolean othersStillMeet(List<Ticket<T>> queue, int position, long nowNanos, int inflight) {
        double shift = kappa * model.meanNanos();
        for (int j = position; j < queue.size(); j++) {
            Ticket<T> t = queue.get(j);
            if (!t.hard()) {
                continue;
            }
            long slack = t.deadlineAtNanos() - guardNanos - predictFinishNanos(nowNanos, inflight, j, 1.0);
            if (slack >= 0 && slack < shift) {
                return false;
            }
        }
        return true;
    }

    /**
     * Feeds one backend reply into the model: its service time is {@code replyAt - max(dispatchedAt, previous
     * replyAt)}. Replies on one backend connection come in request order, so a request sent while others were in
     * flight started its service when the previous reply left.
     *
     * @param dispatchedAtNanos when the request was written to the backend
     * @param replyAtNanos when its complete reply arrived (not before any earlier call's)
     * @throws IllegalArgumentException if {@code replyAtNanos < dispatchedAtNanos}
     */
    public void observeReply(long dispatchedAtNanos, long replyAtNanos) {
        if (replyAtNanos < dispatchedAtNanos) {
            throw new IllegalArgumentException("reply at " + replyAtNanos + " ns before dispatch at "
                    + dispatchedAtNanos + " ns (expected: reply >= dispatch)");
        }
        long start = Math.max(dispatchedAtNanos, Math.min(lastReplyNanos, replyAtNanos));
        lastReplyNanos = Math.max(lastReplyNanos, replyAtNanos);
        model.observe(replyAtNanos - start);
    }

    /**
     * Records the outcome of an admitted hard ticket (completed or dropped) and runs the epoch controller
     * when an epoch has passed.
     */
    public void recordOutcome(boolean met, long nowNanos) {
        rollEpoch(nowNanos);
        if (met) {
            epochMet++;
            totalMet++;
        } else {
            epochMissed++;
            totalMissed++;
            raiseEarlyOnMisses(nowNanos);
        }
    }

    private void raiseEarlyOnMisses(long nowNanos) {
        if (epochMissed < EARLY_RAISE_MIN_MISSES
                || nowNanos - epochStartNanos < epochNanos / EARLY_RAISE_FRACTION_OF_EPOCH
                || (double) epochMissed / (epochMet + epochMissed) <= config.targetMiss()) {
            return;
        }
        kappa = Math.min(config.kappaMax(), kappa * KAPPA_UP);
        epochMet = 0;
        epochMissed = 0;
        epochStartNanos = nowNanos;
    }

    /** Runs the kappa controller if at least one epoch passed since the current one started. */
    public void rollEpoch(long nowNanos) {
        if (!epochStarted) {
            epochStarted = true;
            epochStartNanos = nowNanos;
            return;
        }
        if (nowNanos - epochStartNanos < epochNanos) {
            return;
        }
        long outcomes = epochMet + epochMissed;
        if (outcomes > 0) {
            double missFraction = (double) epochMissed / outcomes;
            if (missFraction > config.targetMiss()) {
                kappa = Math.min(config.kappaMax(), kappa * KAPPA_UP);
            } else if (missFraction < config.targetMiss() / 2) {
                kappa = Math.max(config.kappaMin(), kappa / KAPPA_DOWN);
            }
        }
        epochMet = 0;
        epochMissed = 0;
        epochStartNanos = nowNanos;
    }

    /** Admitted hard tickets that met their deadline, since start. */
    public long totalMet() {
        return totalMet;
    }

    /** Admitted hard tickets that missed (late or dropped), since start. */
    public long totalMissed() {
        return totalMissed;
    }
}
