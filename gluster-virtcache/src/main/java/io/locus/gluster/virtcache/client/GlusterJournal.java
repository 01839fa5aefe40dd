package io.locus.gluster.virtcache.client;

import io.locus.gluster.gfapi.GlusterException;
import io.locus.gluster.gfapi.GlusterFile;
import java.io.IOException;

/** A {@link Journal} in a Gluster file: records appended at its end, synced with fsync. Not thread-safe. */
final class GlusterJournal implements Journal {
    private final GlusterFile file;
    private long end;

    GlusterJournal(GlusterFile file) throws GlusterException {
        this.file = file;
        this.end = file.stat().size();
    }

    @Override
    public void append(byte[] record) throws GlusterException {
        file.write(end, record);
        end += record.length;
    }

    @Override
    public void sync() throws GlusterException {
        file.fsync();
    }

    @Override
    public void truncate(long length) throws GlusterException {
        file.truncate(length);
        file.fsync();
        end = length;
    }

    @Override
    public byte[] readAll() throws IOException {
        if (end > Integer.MAX_VALUE) {
            throw new IOException("journal " + file.path() + " of " + end + " bytes (expected: below 2 GiB)");
        }
        return file.read(0, (int) end);
    }
}
