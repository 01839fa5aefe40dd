package io.locus.memcached.schedule;

/**
 * A request for a ticket at one backend.
 *
 * @param tenant the resolved tenant (DESIGN.md, "Tenants and deadlines")
 * @param kind read or write; writes are always scheduled best-effort [MicroFuge §5.1]
 * @param hard true for a hard deadline (may be rejected), false for best-effort (never rejected)
 * @param arrivalNanos when the proxy had read the complete request, on the scheduler's clock
 * @param deadlineNanos relative deadline in nanoseconds (> 0), or {@link #NO_DEADLINE} for best-effort
 *     requests without a nominal deadline (they get {@code be.nominal_deadline})
 */
public record TicketRequest(String tenant, Kind kind, boolean hard, long arrivalNanos, long deadlineNanos) {

    /** Deadline value for best-effort requests without a nominal deadline. */
    public static final long NO_DEADLINE = -1;

    /** The operation the ticket stands for. */
    public enum Kind {
        READ,
        WRITE
    }

    /**
     * @throws IllegalArgumentException if the tenant or kind is missing, or the deadline is not positive
     */
    public TicketRequest {
        if (tenant == null || kind == null) {
            throw new IllegalArgumentException("tenant " + tenant + ", kind " + kind + " (expected: both set)");
        }
        // [MicroFuge §5.1]: writes are always best-effort.
        if (kind == Kind.WRITE) {
            hard = false;
        }
        if (deadlineNanos <= 0 && !(deadlineNanos == NO_DEADLINE && !hard)) {
            throw new IllegalArgumentException("deadline " + deadlineNanos + " ns for a "
                    + (hard ? "hard" : "best-effort") + " request (expected: > 0"
                    + (hard ? ")" : " or NO_DEADLINE)"));
        }
    }

    /** A hard-deadline read. */
    public static TicketRequest hardRead(String tenant, long arrivalNanos, long deadlineNanos) {
        return new TicketRequest(tenant, Kind.READ, true, arrivalNanos, deadlineNanos);
    }

    /** A best-effort read with a nominal deadline (or {@link #NO_DEADLINE}). */
    public static TicketRequest bestEffortRead(String tenant, long arrivalNanos, long deadlineNanos) {
        return new TicketRequest(tenant, Kind.READ, false, arrivalNanos, deadlineNanos);
    }

    /** A write: always best-effort, the deadline is nominal (or {@link #NO_DEADLINE}). */
    public static TicketRequest write(String tenant, long arrivalNanos, long deadlineNanos) {
        return new TicketRequest(tenant, Kind.WRITE, false, arrivalNanos, deadlineNanos);
    }
}
