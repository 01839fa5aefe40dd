package io.locus.gluster.virtcache.client;

import java.util.function.LongPredicate;

/** Where a virtual disk's I/O goes (Arumugam, ch. 3, §3.7.3). */
public enum RedirectState {
    /** All I/O on the primary; reads of hot blocks are copied to the log so that a later redirection finds them. */
    NORMAL,
    /** Redirection decided: the logged hot blocks are read once to warm the cache servers; I/O as in REDIRECTED. */
    WARMING,
    /** Hot reads served from the log, all writes logged; the primary sees only cold reads. */
    REDIRECTED,
    /** The peak is over: logged writes are copied back to the primary; new writes go to the primary. */
    DRAINING;

    /** Whether writes go to the log and hot reads are served from it: WARMING and REDIRECTED. */
    boolean redirects() {
        return this == WARMING || this == REDIRECTED;
    }

    /**
     * Whether a read of {@code block} goes to the log: its newest copy is there ({@code dirty}), in every state; or the
     * disk redirects and the log holds a copy ({@code inLog}) of a block the filter calls hot (asked only then).
     */
    boolean readsFromLog(long block, boolean dirty, boolean inLog, LongPredicate hot) {
        return dirty || (redirects() && inLog && hot.test(block));
    }
}
