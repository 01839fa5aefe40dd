package io.locus.memcached.tenant;

/**
 * Per-connection identity: the listener's defaults, the authenticated user, and the {@code dlctx} defaults.
 *
 * <p>Confined to the connection's event loop; not thread-safe.
 */
public final class Session {
    private final String listenerTenant;
    private final Deadline listenerDeadline;
    private String user;
    private String contextTenant;
    private Deadline contextDeadline;

    /**
     * @param listenerTenant the tenant of the port the client connected to, or null
     * @param listenerDeadline the default deadline of that port, or null
     */
    public Session(String listenerTenant, Deadline listenerDeadline) {
        this.listenerTenant = listenerTenant;
        this.listenerDeadline = listenerDeadline;
    }

    public String listenerTenant() {
        return listenerTenant;
    }

    public Deadline listenerDeadline() {
        return listenerDeadline;
    }

    /** The authenticated user, or null before authentication (or when auth is off). */
    public String user() {
        return user;
    }

    public void authenticated(String user) {
        this.user = user;
    }

    public String contextTenant() {
        return contextTenant;
    }

    public Deadline contextDeadline() {
        return contextDeadline;
    }

    /** Sets the {@code dlctx} defaults; nulls clear them. */
    public void context(String tenant, Deadline deadline) {
        this.contextTenant = tenant;
        this.contextDeadline = deadline;
    }
}
