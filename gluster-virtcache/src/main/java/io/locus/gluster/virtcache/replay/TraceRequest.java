package io.locus.gluster.virtcache.replay;

/**
 * One block I/O of a disk trace.
 *
 * @param line the trace line it came from (1-based, header included)
 * @param write true for a write, false for a read
 * @param offset byte offset on the disk
 * @param size bytes
 * @param timeSeconds when the trace saw it
 */
public record TraceRequest(long line, boolean write, long offset, int size, long timeSeconds) {}
