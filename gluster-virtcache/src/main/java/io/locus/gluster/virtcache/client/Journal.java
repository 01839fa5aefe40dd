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

    /**
     * Replaces the whole journal by {@code contents}, durably and atomically: after a crash the journal holds either
     * its old records or exactly {@code contents}. Compaction uses it; it also drops a torn tail.
     */
    void replace(byte[] contents) throws IOException;
}
