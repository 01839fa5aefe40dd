package io.locus.gluster.virtcache.client;

/** Where a virtual disk's I/O goes (Arumugam, ch. 3, §3.7.3). */
public enum RedirectState {
    /** All I/O on the primary; reads of hot blocks are copied to the log so that a later redirection finds them. */
    NORMAL,
    /** Redirection decided: the logged hot blocks are read once to warm the cache servers; I/O as in REDIRECTED. */
    WARMING,
    /** Hot reads served from the log, all writes logged; the primary sees only cold reads. */
    REDIRECTED,
    /** The peak is over: logged writes are copied back to the primary; new writes go to the primary. */
    DRAINING
}
