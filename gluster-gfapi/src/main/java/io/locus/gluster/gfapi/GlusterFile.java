package io.locus.gluster.gfapi;

import com.sun.jna.Memory;
import com.sun.jna.Pointer;
import java.util.Arrays;
import java.util.concurrent.locks.ReadWriteLock;
import java.util.concurrent.locks.ReentrantReadWriteLock;

/**
 * One open file of a {@link GlusterVolume} ({@code glfs_fd_t}): positional reads and writes, fsync, truncate, stat
 * and extended attributes.
 *
 * <p>Thread-safe: calls from many threads run concurrently (gfapi serialises nothing per fd for them); {@link #close}
 * waits for calls in progress and later calls fail with {@link IllegalStateException}, so the fd is never used after
 * glfs_close.
 */
public final class GlusterFile implements AutoCloseable {
    /** Larger reads and writes are split into calls of this size. */
    static final int MAX_CALL_BYTES = 1 << 20;

    private final GlusterVolume volume;
    private final String path;
    private final ReadWriteLock lock = new ReentrantReadWriteLock();
    private Pointer fd;

    GlusterFile(GlusterVolume volume, String path, Pointer fd) {
        this.volume = volume;
        this.path = path;
        this.fd = fd;
    }

    /** The volume path the file was opened as. */
    public String path() {
        return path;
    }

    /**
     * Up to {@code length} bytes from {@code offset}; fewer only where the file ends (a hole reads as zeros).
     *
     * @throws GlusterException with the errno, e.g. 107 ENOTCONN when the brick holding the file is down
     */
    public byte[] read(long offset, int length) throws GlusterException {
        checkRange(offset, length);
        lock.readLock().lock();
        try {
            Pointer open = fd();
            byte[] out = new byte[length];
            int done = 0;
            while (done < length) {
                int n = Math.min(MAX_CALL_BYTES, length - done);
                Memory buf = new Memory(n);
                long got = Gfapi.INSTANCE.glfs_pread(open, buf, n, offset + done, 0, null);
                if (got < 0) {
                    throw volume.failure("glfs_pread", path + " @" + (offset + done));
                }
                if (got == 0) {
                    break;
                }
                buf.read(0, out, done, (int) got);
                done += (int) got;
            }
            return done == length ? out : Arrays.copyOf(out, done);
        } finally {
            lock.readLock().unlock();
        }
    }

    /** Writes all of {@code data} at {@code offset}; past the end the file grows and the gap reads as zeros. */
    public void write(long offset, byte[] data) throws GlusterException {
        checkRange(offset, data.length);
        lock.readLock().lock();
        try {
            Pointer open = fd();
            int done = 0;
            while (done < data.length) {
                int n = Math.min(MAX_CALL_BYTES, data.length - done);
                Memory buf = new Memory(Math.max(1, n));
                buf.write(0, data, done, n);
                long put = Gfapi.INSTANCE.glfs_pwrite(open, buf, n, offset + done, 0, null, null);
                if (put <= 0) {
                    throw volume.failure("glfs_pwrite", path + " @" + (offset + done));
                }
                done += (int) put;
            }
        } finally {
            lock.readLock().unlock();
        }
    }

    /** Makes the file's written data durable on the brick. */
    public void fsync() throws GlusterException {
        lock.readLock().lock();
        try {
            if (Gfapi.INSTANCE.glfs_fsync(fd(), null, null) != 0) {
                throw volume.failure("glfs_fsync", path);
            }
        } finally {
            lock.readLock().unlock();
        }
    }

    /** Cuts or extends the file to {@code length} bytes. */
    public void truncate(long length) throws GlusterException {
        if (length < 0) {
            throw new IllegalArgumentException("truncate length " + length + " of " + path + " (expected: >= 0)");
        }
        lock.readLock().lock();
        try {
            if (Gfapi.INSTANCE.glfs_ftruncate(fd(), length, null, null) != 0) {
                throw volume.failure("glfs_ftruncate", path + " to " + length);
            }
        } finally {
            lock.readLock().unlock();
        }
    }

    /** The file's size and mode. */
    public FileStat stat() throws GlusterException {
        lock.readLock().lock();
        try {
            Memory buf = new Memory(FileStat.STRUCT_BYTES);
            if (Gfapi.INSTANCE.glfs_fstat(fd(), buf) != 0) {
                throw volume.failure("glfs_fstat", path);
            }
            return FileStat.of(buf);
        } finally {
            lock.readLock().unlock();
        }
    }

    /**
     * The value of extended attribute {@code name}.
     *
     * @throws GlusterException with errno 61 ENODATA if there is no such attribute
     */
    public byte[] getxattr(String name) throws GlusterException {
        lock.readLock().lock();
        try {
            Pointer open = fd();
            return Xattrs.get(
                    (buf, size) -> Gfapi.INSTANCE.glfs_fgetxattr(open, name, buf, size),
                    () -> volume.failure("glfs_fgetxattr " + name, path));
        } finally {
            lock.readLock().unlock();
        }
    }

    /**
     * The value of {@code name} read into a buffer of exactly {@code maxBytes}, as a caller of the C API with a fixed
     * buffer would.
     *
     * @throws GlusterException with errno 34 ERANGE if the value is larger
     */
    public byte[] getxattr(String name, int maxBytes) throws GlusterException {
        if (maxBytes < 1) {
            throw new IllegalArgumentException("xattr buffer " + maxBytes + " bytes (expected: >= 1)");
        }
        lock.readLock().lock();
        try {
            Memory buf = new Memory(maxBytes);
            long got = Gfapi.INSTANCE.glfs_fgetxattr(fd(), name, buf, maxBytes);
            if (got < 0) {
                throw volume.failure("glfs_fgetxattr " + name + " into " + maxBytes + " bytes", path);
            }
            return buf.getByteArray(0, (int) got);
        } finally {
            lock.readLock().unlock();
        }
    }

    /** Sets extended attribute {@code name} ({@code trusted.*} needs root). */
    public void setxattr(String name, byte[] value) throws GlusterException {
        lock.readLock().lock();
        try {
            if (Gfapi.INSTANCE.glfs_fsetxattr(fd(), name, Xattrs.memory(value), value.length, 0) != 0) {
                throw volume.failure("glfs_fsetxattr " + name, path);
            }
        } finally {
            lock.readLock().unlock();
        }
    }

    /** Removes extended attribute {@code name}. */
    public void removexattr(String name) throws GlusterException {
        lock.readLock().lock();
        try {
            if (Gfapi.INSTANCE.glfs_fremovexattr(fd(), name) != 0) {
                throw volume.failure("glfs_fremovexattr " + name, path);
            }
        } finally {
            lock.readLock().unlock();
        }
    }

    /**
     * Closes the fd once the calls in progress are done. Idempotent.
     *
     * @throws GlusterException if glfs_close fails (the fd is released anyway)
     */
    @Override
    public void close() throws GlusterException {
        lock.writeLock().lock();
        try {
            if (fd == null) {
                return;
            }
            Pointer open = fd;
            fd = null;
            if (Gfapi.INSTANCE.glfs_close(open) != 0) {
                throw volume.failure("glfs_close", path);
            }
        } finally {
            lock.writeLock().unlock();
        }
    }

    @Override
    public String toString() {
        return "GlusterFile[" + volume.name() + ":" + path + (fd == null ? ", closed" : "") + "]";
    }

    private Pointer fd() {
        Pointer open = fd;
        if (open == null) {
            throw new IllegalStateException("file " + path + " on volume " + volume.name() + " is closed");
        }
        return open;
    }

    private void checkRange(long offset, int length) {
        if (offset < 0 || length < 0 || offset + length < 0) {
            throw new IllegalArgumentException("I/O of " + length + " bytes at offset " + offset + " of " + path
                    + " (expected: offset >= 0, length >= 0, end below 2^63)");
        }
    }
}
