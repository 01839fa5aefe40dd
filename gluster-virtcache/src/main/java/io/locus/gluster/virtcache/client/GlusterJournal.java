package io.locus.gluster.virtcache.client;

import io.locus.gluster.gfapi.GlusterException;
import io.locus.gluster.gfapi.GlusterFile;
import io.locus.gluster.gfapi.GlusterVolume;
import java.io.IOException;

/**
 * A {@link Journal} in a Gluster file: records appended at its end, synced with fsync. {@link #replace} writes a
 * sibling file {@code <path>.new}, syncs it and renames it over the journal, so a crash leaves one whole journal or
 * the other. Appends and replacements are serialised by the caller; {@link #sync} may run beside an append.
 */
final class GlusterJournal implements Journal {
    private final GlusterVolume volume;
    private final String path;
    private volatile GlusterFile file;
    private long end;

    GlusterJournal(GlusterVolume volume, String path, GlusterFile file) throws GlusterException {
        this.volume = volume;
        this.path = path;
        this.file = file;
        this.end = file.stat().size();
    }

    GlusterFile file() {
        return file;
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
    public void replace(byte[] contents) throws GlusterException {
        String next = path + ".new";
        try (GlusterFile f = volume.create(next)) {
            f.write(0, contents);
            f.fsync();
        }
        volume.rename(next, path);
        GlusterFile old = file;
        file = volume.open(path, true);
        end = contents.length;
        old.close();
    }

    @Override
    public byte[] readAll() throws IOException {
        if (end > Integer.MAX_VALUE) {
            throw new IOException("journal " + path + " of " + end + " bytes (expected: below 2 GiB)");
        }
        return file.read(0, (int) end);
    }
}
