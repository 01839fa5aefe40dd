package io.locus.memcached.schedule;

/**
 * Why a ticket was refused or dropped; each maps onto one row of the reply table in
 * DESIGN.md, "Tenants and deadlines", via {@link #serverErrorText(long)}.
 */
public enum RejectReason {
    /** The predicted finish is later than the deadline minus the guard. Reply: {@code deadline reject est=<µs>}. */
    DEADLINE_INFEASIBLE,
    /**
     * Admitting the ticket would push an already admitted hard ticket past its deadline [MicroFuge §4.2].
     * Reply: {@code deadline reject est=<µs>}.
     */
    WOULD_BREAK_ADMITTED,
    /** The backend queue holds {@code max_queue} tickets (hard tickets only). Reply: {@code deadline reject}. */
    QUEUE_FULL,
    /** The tenant's urgent-request token bucket is empty (MicroFuge §4.3). Reply: {@code tenant quota}. */
    TENANT_QUOTA,
    /**
     * An admitted hard ticket was still queued when its deadline passed and was dropped before dispatch
     * ({@code drop_expired}, DESIGN.md, "Beyond the papers" item 6). Reply: {@code deadline exceeded}.
     */
    DEADLINE_EXCEEDED;

    /**
     * The text after {@code SERVER_ERROR } on the wire, per DESIGN.md, "Tenants and deadlines".
     *
     * @param estimateMicros the predicted completion time in microseconds from now (used by deadline rejects)
     */
    public String serverErrorText(long estimateMicros) {
        return switch (this) {
            case DEADLINE_INFEASIBLE, WOULD_BREAK_ADMITTED, QUEUE_FULL -> "deadline reject est=" + estimateMicros;
            case TENANT_QUOTA -> "tenant quota";
            case DEADLINE_EXCEEDED -> "deadline exceeded";
        };
    }
}
