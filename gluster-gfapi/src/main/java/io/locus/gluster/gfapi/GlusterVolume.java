package io.locus.gluster.gfapi;

import com.sun.jna.Memory;
import com.sun.jna.Native;
import com.sun.jna.Pointer;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.Map;
import java.util.Objects;

/**
 * A GlusterFS volume opened through libgfapi ({@code glfs_t}): open and create files, path-based stat, extended
 * attributes and unlink.
 *
 * <p>One {@code glfs_t} per volume per JVM: {@link #connect} hands each caller a view of the same handle, counted,
 * and the last {@link #close()} finishes it. {@code glfs_fini} takes about 11 s in glusterfs 10.3 (rpc-clnt's 10 s
 * call-bail timer, an upstream problem), so it runs on a daemon thread and close returns at once; a JVM that exits
 * first cuts it short, which the server takes as a disconnect.
 *
 * <p>Thread-safe: gfapi is thread-safe per {@code glfs_t}, and views may be used from any thread.
 */
public final class GlusterVolume implements AutoCloseable {
    /** glusterd's management port, where clients fetch the volume's layout. */
    public static final int VOLFILE_PORT = 24007;

    private static final Map<String, Handle> HANDLES = new HashMap<>();

    private final Handle handle;
    private volatile boolean closed;

    private GlusterVolume(Handle handle) {
        this.handle = handle;
    }

    /**
     * A view of {@code volume} served by the glusterd on {@code server}:24007, sharing this JVM's handle of that volume
     * if one is open (the first connect's {@code logFile} then stays in use).
     *
     * @throws GlusterException if {@code glfs_init} fails (glusterd down, no such volume; details in {@code logFile})
     */
    public static GlusterVolume connect(String server, String volume, Path logFile) throws GlusterException {
        Objects.requireNonNull(server, "server");
        Objects.requireNonNull(volume, "volume");
        Objects.requireNonNull(logFile, "logFile");
        synchronized (HANDLES) {
            Handle h = HANDLES.get(server + "/" + volume);
            if (h == null) {
                h = Handle.init(server, volume, logFile.toAbsolutePath());
                HANDLES.put(h.key(), h);
            }
            h.users++;
            return new GlusterVolume(h);
        }
    }

    /** The volume's name. */
    public String name() {
        return handle.volume;
    }

    /** The server the volume's layout came from. */
    public String server() {
        return handle.server;
    }

    /** How many open views share this volume's handle (1 if this is the only one). */
    public int sharedBy() {
        synchronized (HANDLES) {
            return handle.users;
        }
    }

    /**
     * Opens an existing file.
     *
     * @throws GlusterException with errno 2 ENOENT if there is no such file (also when the brick holding it is down:
     *     the distribute layer then reports the file as absent)
     */
    public GlusterFile open(String path, boolean writable) throws GlusterException {
        Pointer fd = Gfapi.INSTANCE.glfs_open(fs(), checkPath(path), writable ? Gfapi.O_RDWR : Gfapi.O_RDONLY);
        if (fd == null) {
            throw failure("glfs_open", path);
        }
        return new GlusterFile(this, path, fd);
    }

    /**
     * Opens an existing file for reading and writing with O_DIRECT, as QEMU opens a disk with {@code cache=none}: the
     * brick then reads and writes the file's disk, not its page cache, so offsets and lengths must be multiples of the
     * brick device's logical block size (usually 512 bytes).
     *
     * @throws GlusterException as {@link #open}
     */
    public GlusterFile openDirect(String path) throws GlusterException {
        Pointer fd = Gfapi.INSTANCE.glfs_open(fs(), checkPath(path), Gfapi.O_RDWR | Gfapi.O_DIRECT);
        if (fd == null) {
            throw failure("glfs_open", path);
        }
        return new GlusterFile(this, path, fd);
    }

    /** Creates {@code path} (mode 0644) or truncates it to 0 bytes, opened for reading and writing. */
    public GlusterFile create(String path) throws GlusterException {
        Pointer fd =
                Gfapi.INSTANCE.glfs_creat(fs(), checkPath(path), Gfapi.O_RDWR | Gfapi.O_CREAT | Gfapi.O_TRUNC, 0644);
        if (fd == null) {
            throw failure("glfs_creat", path);
        }
        return new GlusterFile(this, path, fd);
    }

    /** The size and mode of {@code path}. */
    public FileStat stat(String path) throws GlusterException {
        Memory buf = new Memory(FileStat.STRUCT_BYTES);
        if (Gfapi.INSTANCE.glfs_stat(fs(), checkPath(path), buf) != 0) {
            throw failure("glfs_stat", path);
        }
        return FileStat.of(buf);
    }

    /**
     * The value of extended attribute {@code name} of {@code path}.
     *
     * @throws GlusterException with errno 61 ENODATA if the file has no such attribute
     */
    public byte[] getxattr(String path, String name) throws GlusterException {
        checkPath(path);
        return Xattrs.get(
                (buf, size) -> Gfapi.INSTANCE.glfs_getxattr(fs(), path, name, buf, size),
                () -> failure("glfs_getxattr " + name, path));
    }

    /** Sets extended attribute {@code name} of {@code path} ({@code trusted.*} needs root). */
    public void setxattr(String path, String name, byte[] value) throws GlusterException {
        checkPath(path);
        Memory buf = Xattrs.memory(value);
        if (Gfapi.INSTANCE.glfs_setxattr(fs(), path, name, buf, value.length, 0) != 0) {
            throw failure("glfs_setxattr " + name, path);
        }
    }

    /** Removes extended attribute {@code name} of {@code path}. */
    public void removexattr(String path, String name) throws GlusterException {
        if (Gfapi.INSTANCE.glfs_removexattr(fs(), checkPath(path), name) != 0) {
            throw failure("glfs_removexattr " + name, path);
        }
    }

    /** Removes {@code path}. */
    public void unlink(String path) throws GlusterException {
        if (Gfapi.INSTANCE.glfs_unlink(fs(), checkPath(path)) != 0) {
            throw failure("glfs_unlink", path);
        }
    }

    /** Renames {@code from} to {@code to}, replacing {@code to} if it exists (atomically, as rename(2) does). */
    public void rename(String from, String to) throws GlusterException {
        checkPath(to);
        if (Gfapi.INSTANCE.glfs_rename(fs(), checkPath(from), to) != 0) {
            throw failure("glfs_rename to " + to, from);
        }
    }

    /**
     * Releases this view; the last view of the handle starts {@code glfs_fini} on a daemon thread and returns at once.
     * Files opened through it should be closed first. Idempotent.
     */
    @Override
    public void close() {
        synchronized (HANDLES) {
            if (closed) {
                return;
            }
            closed = true;
            if (--handle.users > 0) {
                return;
            }
            HANDLES.remove(handle.key());
        }
        Thread fini = new Thread(handle::fini, "glfs_fini-" + handle.volume);
        fini.setDaemon(true);
        fini.start();
    }

    @Override
    public String toString() {
        return "GlusterVolume[" + handle.key() + (closed ? ", closed" : "") + "]";
    }

    GlusterException failure(String call, String path) {
        return new GlusterException(call, path, handle.volume, Native.getLastError());
    }

    private Pointer fs() {
        if (closed) {
            throw new IllegalStateException("volume " + handle.volume + " is closed (this view)");
        }
        return handle.fs;
    }

    private static String checkPath(String path) {
        if (path == null || !path.startsWith("/")) {
            throw new IllegalArgumentException("volume path \"" + path + "\" (expected: absolute, e.g. /vm1.img)");
        }
        return path;
    }

    /** One initialised {@code glfs_t}. */
    private static final class Handle {
        final String server;
        final String volume;
        final Pointer fs;
        int users;

        private Handle(String server, String volume, Pointer fs) {
            this.server = server;
            this.volume = volume;
            this.fs = fs;
        }

        String key() {
            return server + "/" + volume;
        }

        static Handle init(String server, String volume, Path logFile) throws GlusterException {
            try {
                Files.createDirectories(logFile.getParent());
            } catch (IOException e) {
                throw new UncheckedIOException("cannot create the directory of the gfapi log " + logFile, e);
            }
            Gfapi api = Gfapi.INSTANCE;
            Pointer fs = api.glfs_new(volume);
            if (fs == null) {
                throw new GlusterException("glfs_new", "/", volume, Native.getLastError());
            }
            if (api.glfs_set_volfile_server(fs, "tcp", server, VOLFILE_PORT) != 0) {
                throw new GlusterException(
                        "glfs_set_volfile_server " + server + ":" + VOLFILE_PORT, "/", volume, Native.getLastError());
            }
            if (api.glfs_set_logging(fs, logFile.toString(), Gfapi.LOG_INFO) != 0) {
                throw new GlusterException("glfs_set_logging " + logFile, "/", volume, Native.getLastError());
            }
            // A failed init leaves the handle unusable; finishing it would cost 11 s for nothing.
            if (api.glfs_init(fs) != 0) {
                throw new GlusterException(
                        "glfs_init (volfile server " + server + ":" + VOLFILE_PORT + ", log " + logFile + ")",
                        "/",
                        volume,
                        Native.getLastError());
            }
            return new Handle(server, volume, fs);
        }

        void fini() {
            Gfapi.INSTANCE.glfs_fini(fs);
        }
    }
}
