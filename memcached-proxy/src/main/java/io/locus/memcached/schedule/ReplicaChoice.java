package io.locus.memcached.schedule;

import java.util.List;
import java.util.random.RandomGenerator;

/**
 * Power-of-two-choices replica selection by predicted finish ([MicroFuge §4.1]; DESIGN.md, "Threads"):
 * pick two replicas at random, evaluate the request at both schedulers, commit to the one that admits it
 * with the earlier predicted finish.
 *
 * <p>Rules: both admit, the earlier finish wins (ties: the first); one admits, it wins; none admits, a hard
 * request is rejected (the decision with the earlier estimate is returned for the reply's {@code est=}),
 * a best-effort request cannot be rejected and goes to the earlier finish.
 *
 * <p>Threading: {@link DeadlineScheduler#evaluate} reads scheduler state, so {@link #choose} must run where
 * both schedulers may be read (their owner thread, or a shared one). The winner's {@link
 * DeadlineScheduler#offer} re-runs admission, so a state change in between is caught, not ignored.
 */
public final class ReplicaChoice {
    private ReplicaChoice() {}

    /**
     * The outcome of a choice.
     *
     * @param index index in the candidate list to commit to, or -1 if a hard request is rejected everywhere
     * @param evaluation the winner's evaluation, or the best rejection
     * @param <T> payload type
     */
    public record Choice<T>(int index, Decision<T> evaluation) {}

    /**
     * Picks up to two distinct candidates uniformly at random from {@code replicas}.
     *
     * @throws IllegalArgumentException if {@code replicas} is empty
     */
    public static <S> List<S> pickTwo(List<S> replicas, RandomGenerator random) {
        int n = replicas.size();
        if (n == 0) {
            throw new IllegalArgumentException("replicas: 0 (expected: >= 1)");
        }
        if (n <= 2) {
            return replicas;
        }
        int a = random.nextInt(n);
        int b = random.nextInt(n - 1);
        if (b >= a) {
            b++;
        }
        return List.of(replicas.get(a), replicas.get(b));
    }

    /**
     * Evaluates the request at every candidate (normally two) and chooses one.
     *
     * @throws IllegalArgumentException if {@code candidates} is empty
     */
    public static <T> Choice<T> choose(List<DeadlineScheduler<T>> candidates, TicketRequest request) {
        if (candidates.isEmpty()) {
            throw new IllegalArgumentException("candidates: 0 (expected: >= 1)");
        }
        int best = -1;
        Decision<T> bestDecision = null;
        int bestRejected = -1;
        Decision<T> bestRejection = null;
        for (int i = 0; i < candidates.size(); i++) {
            Decision<T> d = candidates.get(i).evaluate(request);
            if (d.admitted()) {
                if (bestDecision == null || d.predictedFinishNanos() < bestDecision.predictedFinishNanos()) {
                    best = i;
                    bestDecision = d;
                }
            } else if (bestRejection == null || d.predictedFinishNanos() < bestRejection.predictedFinishNanos()) {
                bestRejected = i;
                bestRejection = d;
            }
        }
        if (bestDecision != null) {
            return new Choice<>(best, bestDecision);
        }
        return new Choice<>(request.hard() ? -1 : bestRejected, bestRejection);
    }
}
