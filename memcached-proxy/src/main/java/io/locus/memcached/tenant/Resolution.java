package io.locus.memcached.tenant;

/**
 * The tenant and deadline of one request, and where its hint tokens are among its meta flags (they are not forwarded).
 *
 * @param tenant the tenant id; {@code default} when nothing names one
 * @param deadline the deadline, never null; {@link Deadline#microsOr} with the nominal deadline gives microseconds
 * @param tenantFlag the index of the tenant token among the meta flags, or -1
 * @param deadlineFlag the index of the deadline token among the meta flags, or -1
 */
public record Resolution(String tenant, Deadline deadline, int tenantFlag, int deadlineFlag) {
    /** A request without hint tokens. */
    public Resolution(String tenant, Deadline deadline) {
        this(tenant, deadline, -1, -1);
    }

    /** How many hint tokens the request carried. */
    public int hintTokens() {
        return (tenantFlag >= 0 ? 1 : 0) + (deadlineFlag >= 0 ? 1 : 0);
    }
}
