package io.locus.gluster.virtcache.client;

import java.io.IOException;

/**
 * An append-only record log that survives the client: the block map's journal. {@link #readAll()} returns what was
 * appended, possibly with a torn last record if the writer died mid-append.
 */
public interface Journal {
    void append(byte[] record) throws IOException;

    /** Makes every appended record durable. */
    void sync() throws IOException;

    byte[] readAll() throws IOException;

    /** Cuts the journal to its first {@code length} bytes: drops a torn tail before new records follow it. */
    void truncate(long length) throws IOException;
}
