package io.locus.gluster.virtcache.client;

import io.locus.gluster.gfapi.GlusterException;
import io.locus.gluster.gfapi.GlusterFile;

/** A {@link BlockStore} on an open Gluster file. */
final class GlusterBlockStore implements BlockStore {
    private final GlusterFile file;

    GlusterBlockStore(GlusterFile file) {
        this.file = file;
    }

    @Override
    public byte[] read(long offset, int length) throws GlusterException {
        return file.read(offset, length);
    }

    @Override
    public void write(long offset, byte[] data) throws GlusterException {
        file.write(offset, data);
    }

    @Override
    public void flush() throws GlusterException {
        file.fsync();
    }
}
