package io.locus.gluster.virtcache.client;

/**
 * When a client redirects and when it reverts, decided on the client from the brick's verdict and the disk's own I/O
 * rate, one poll at a time (Arumugam, ch. 3, §3.7.3: "once the load in the system goes back to normal, the I/O is
 * redirected back ... for this we monitor the I/O rate at the block driver on the host").
 *
 * <p>The brick's verdict alone cannot end a redirection: once the disk's load is redirected the brick no longer sees
 * it and soon reports {@code normal}, which would make the disk flap. So a redirection ends only when the disk's I/O
 * rate has been at most {@code calmFactor} times its rate while it was on its primary for {@code calmPolls} polls in a
 * row, no earlier than {@code minRedirectPolls} polls after it began, and while the brick does not report interference.
 * No clock inside: each {@link #decide} is one poll. Not thread-safe.
 *
 * @param calmPolls consecutive calm polls before reverting (6)
 * @param minRedirectPolls polls a redirection lasts at least (10)
 * @param calmFactor a poll is calm when the disk's I/O rate is at most this times its baseline (1.1)
 */
public record RedirectPolicy(int calmPolls, int minRedirectPolls, double calmFactor) {

    public static final RedirectPolicy DEFAULTS = new RedirectPolicy(6, 10, 1.1);

    /** What the client does at one poll. */
    public enum Action {
        NONE,
        START_REDIRECT,
        WARM,
        END_REDIRECT,
        DRAIN
    }

    /** @throws IllegalArgumentException naming the parameter, its value and the range expected */
    public RedirectPolicy {
        if (calmPolls < 1) {
            throw new IllegalArgumentException("calmPolls " + calmPolls + " (expected: >= 1)");
        }
        if (minRedirectPolls < 0) {
            throw new IllegalArgumentException("minRedirectPolls " + minRedirectPolls + " (expected: >= 0)");
        }
        if (!(calmFactor >= 1) || Double.isInfinite(calmFactor)) {
            throw new IllegalArgumentException("calmFactor " + calmFactor + " (expected: a finite value >= 1)");
        }
    }

    /** A policy's memory: the disk's baseline I/O rate and how long the current redirection has run. */
    public static final class Tracker {
        private final RedirectPolicy policy;
        private double baselineIops = Double.NaN;
        private long baselinePolls;
        private int redirectedPolls;
        private int calmStreak;

        public Tracker(RedirectPolicy policy) {
            this.policy = policy;
        }

        /**
         * One poll.
         *
         * @param state the disk's state now
         * @param interfered whether the brick reports the disk's file {@code interfered}
         * @param iops the disk's I/O rate since the previous poll, as its client saw it
         * @throws IllegalArgumentException for a negative or non-finite rate
         */
        public Action decide(RedirectState state, boolean interfered, double iops) {
            if (!(iops >= 0) || Double.isInfinite(iops)) {
                throw new IllegalArgumentException("iops " + iops + " (expected: a finite value >= 0)");
            }
            switch (state) {
                case NORMAL -> {
                    if (interfered) {
                        redirectedPolls = 0;
                        calmStreak = 0;
                        return Action.START_REDIRECT;
                    }
                    // The mean rate while on the primary and not interfered: what "back to normal" is judged by.
                    baselinePolls++;
                    baselineIops = baselinePolls == 1 ? iops : baselineIops + (iops - baselineIops) / baselinePolls;
                    return Action.NONE;
                }
                case WARMING -> {
                    redirectedPolls++;
                    return Action.WARM;
                }
                case REDIRECTED -> {
                    redirectedPolls++;
                    boolean calm = Double.isNaN(baselineIops) || iops <= policy.calmFactor() * baselineIops;
                    calmStreak = calm ? calmStreak + 1 : 0;
                    boolean revert = redirectedPolls >= policy.minRedirectPolls()
                            && calmStreak >= policy.calmPolls()
                            && !interfered;
                    return revert ? Action.END_REDIRECT : Action.NONE;
                }
                case DRAINING -> {
                    return Action.DRAIN;
                }
                default -> throw new IllegalStateException("state " + state);
            }
        }

        /** The disk's mean I/O rate over the polls it spent on its primary without interference; NaN before any. */
        public double baselineIops() {
            return baselineIops;
        }
    }
}
