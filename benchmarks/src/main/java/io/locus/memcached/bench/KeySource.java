package io.locus.memcached.bench;

import java.util.List;
import java.util.function.Consumer;

/** Where requests' keys come from: a seeded synthetic distribution or a real trace. */
public interface KeySource {
    /** The tenants, in the order of {@link Access#tenant()}. */
    List<TenantProfile> tenants();

    /** A one-line description for the report. */
    String describe();

    /** Number of distinct keys ({@link #forEachKey} visits this many). */
    long distinctKeys();

    /** Visits every distinct key once, for preloading the backends. */
    void forEachKey(Consumer<Access> visitor);

    /**
     * An independent request stream for one client connection; the same {@code (stream, seed)} always gives the
     * same sequence.
     *
     * @param stream index of the connection, 0-based
     * @param streams number of connections
     * @param seed run seed
     */
    Cursor cursor(int stream, int streams, long seed);

    /** A request stream. Not thread-safe: one per client thread. */
    interface Cursor {
        /** The next access. */
        Access next();
    }
}
