package io.locus.gluster.virtcache.client;

import java.io.IOException;

/**
 * Bytes at offsets: a VM disk's primary file, or its shadow image on the log volume. Implementations must be safe for
 * concurrent calls.
 */
public interface BlockStore {
    /** Up to {@code length} bytes from {@code offset}; fewer only past the end (holes read as zeros). */
    byte[] read(long offset, int length) throws IOException;

    /** Writes all of {@code data} at {@code offset}. */
    void write(long offset, byte[] data) throws IOException;

    /** Makes every acknowledged write durable. */
    void flush() throws IOException;
}
