package io.locus.memcached.schedule;

/**
 * The answer to a ticket request.
 *
 * @param admitted true if a ticket was issued (best-effort requests are always admitted)
 * @param reason why not, or null if admitted
 * @param predictedFinishNanos predicted completion instant on the scheduler's clock (also for rejections:
 *     the {@code est=} of the reply, DESIGN.md, "Tenants and deadlines")
 * @param ticket the issued ticket, or null if rejected or only evaluated
 * @param <T> the payload type
 */
public record Decision<T>(boolean admitted, RejectReason reason, long predictedFinishNanos, Ticket<T> ticket) {

    static <T> Decision<T> admit(long predictedFinishNanos, Ticket<T> ticket) {
        return new Decision<>(true, null, predictedFinishNanos, ticket);
    }

    static <T> Decision<T> reject(RejectReason reason, long predictedFinishNanos) {
        return new Decision<>(false, reason, predictedFinishNanos, null);
    }
}
