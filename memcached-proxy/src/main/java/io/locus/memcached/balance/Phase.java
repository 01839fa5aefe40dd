package io.locus.memcached.balance;

/**
 * The balancing phases this proxy runs (MBal §3.1; its Figure 4 is reconstructed in BALANCE.md, "Phase state machine").
 *
 * <p>MBal's Phase 2, server-local cachelet migration, has no member here. In MBal a cachelet moves between the worker
 * threads of one server by changing its owner pointer: no data is copied [MBal §3.3], and clients then address the
 * new worker's port [MBal §2.3]. An unmodified memcached has none of that: its worker threads share one hash table and
 * one LRU, a key belongs to the process rather than to a thread, and a client (or proxy) cannot choose which thread
 * serves a key, since connections are handed to threads round-robin. There is therefore no thread-local load to
 * balance and nothing for a pointer move to change. Two memcached processes on one host are separate caches, so
 * moving keys between them copies data; that is Phase 3's copy protocol with a cheaper link, not a zero-copy Phase 2.
 * Where MBal would enter Phase 2 (REPL_high reached, a write-hot hotspot, or {@code rdev > lb.p2_rdev}), this
 * balancer goes to {@link #COORDINATED_MIGRATION} directly, subject to Phase 3's own guards (persistence, cooldown,
 * minimum gain).
 */
public enum Phase {
    /** No hotspot, no lease or migration outstanding. */
    NORMAL,
    /** Phase 1: hot, read-dominated keys are replicated to shadow backends under leases. */
    KEY_REPLICATION,
    /** Phase 3: virtual buckets move from overloaded to lightly loaded backends (permanent). */
    COORDINATED_MIGRATION,
    /**
     * More than {@code lb.server_load_thresh} of the backends are overloaded, or Phase 3 cannot bring the source
     * under capacity: the pool needs more backends (MBal: "add new cache servers", out of scope here).
     */
    SCALE_OUT_ADVISED
}
