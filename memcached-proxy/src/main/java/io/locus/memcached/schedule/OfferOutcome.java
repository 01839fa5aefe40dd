package io.locus.memcached.schedule;

/**
 * What became of one hard offer, as the service-level controller sees it ({@link ServiceLevels}). A refusal for a
 * missed deadline is split by what its prediction was made of, so the controller can tell refusals that refusing
 * lower levels might prevent from those it cannot.
 */
public enum OfferOutcome {
    /** Admitted. */
    ADMITTED("admitted"),
    /** Refused: the tenant's urgent bucket was empty ({@link RejectReason#TENANT_QUOTA}). */
    TENANT_QUOTA("tenant_quota"),
    /** Refused: even on an idle backend its own predicted service would end after the deadline minus the guard. */
    IDLE_INFEASIBLE("idle_infeasible"),
    /** Refused: the work of its own and higher levels in flight and queued ahead of it already makes it late. */
    OWN_LOAD("own_load"),
    /** Refused: it would be on time without the lower levels' work in flight and queued ahead of it. */
    LOWER_LOAD("lower_load"),
    /** Refused because it would push an admitted ticket late, or the queue was full. */
    OTHER("other");

    private final String statsName;

    OfferOutcome(String statsName) {
        this.statsName = statsName;
    }

    /** True for every outcome but {@link #ADMITTED}. */
    public boolean rejected() {
        return this != ADMITTED;
    }

    /** The field name in {@code stats} ({@code locus_level:<level>:<field>}). */
    public String statsName() {
        return statsName;
    }
}
