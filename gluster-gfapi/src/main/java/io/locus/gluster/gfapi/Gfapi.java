package io.locus.gluster.gfapi;

import com.sun.jna.Library;
import com.sun.jna.Native;
import com.sun.jna.Pointer;

/**
 * The {@code libgfapi.so.0} functions this binding calls, through JNA, with the signatures of glusterfs 10.3's
 * {@code <glusterfs/api/glfs.h>}.
 *
 * <p>LP64 types: {@code glfs_t*} and {@code glfs_fd_t*} are opaque pointers; {@code size_t}, {@code ssize_t} and
 * {@code off_t} are {@code long}; {@code mode_t} is {@code int}. Failures return -1 or NULL and set errno, read with
 * {@link Native#getLastError()} right after the call (JNA keeps it per thread); gfapi leaves errno set after some
 * successful calls, so only a failed return is trusted.
 *
 * <p>{@code glfs_pread}, {@code glfs_pwrite}, {@code glfs_fsync} and {@code glfs_ftruncate} resolve (as dlsym does)
 * to their default version {@code GFAPI_6.0}, which takes trailing {@code struct glfs_stat *} arguments: declaring
 * the older signature would corrupt the stack. NULL is passed for them.
 */
interface Gfapi extends Library {
    Gfapi INSTANCE = Native.load("gfapi", Gfapi.class);

    int O_RDONLY = 0;
    int O_RDWR = 2;
    int O_CREAT = 0100;
    int O_EXCL = 0200;
    int O_TRUNC = 01000;
    int O_DIRECT = 040000;
    /** gfapi's log level INFO. */
    int LOG_INFO = 7;

    Pointer glfs_new(String volname);

    int glfs_set_volfile_server(Pointer fs, String transport, String host, int port);

    int glfs_set_logging(Pointer fs, String logfile, int loglevel);

    int glfs_init(Pointer fs);

    int glfs_fini(Pointer fs);

    Pointer glfs_creat(Pointer fs, String path, int flags, int mode);

    Pointer glfs_open(Pointer fs, String path, int flags);

    int glfs_close(Pointer fd);

    long glfs_pread(Pointer fd, Pointer buf, long count, long offset, int flags, Pointer poststat);

    long glfs_pwrite(Pointer fd, Pointer buf, long count, long offset, int flags, Pointer prestat, Pointer poststat);

    int glfs_fsync(Pointer fd, Pointer prestat, Pointer poststat);

    int glfs_ftruncate(Pointer fd, long length, Pointer prestat, Pointer poststat);

    int glfs_fstat(Pointer fd, Pointer stat);

    int glfs_stat(Pointer fs, String path, Pointer stat);

    long glfs_fgetxattr(Pointer fd, String name, Pointer value, long size);

    int glfs_fsetxattr(Pointer fd, String name, Pointer value, long size, int flags);

    int glfs_fremovexattr(Pointer fd, String name);

    long glfs_getxattr(Pointer fs, String path, String name, Pointer value, long size);

    int glfs_setxattr(Pointer fs, String path, String name, Pointer value, long size, int flags);

    int glfs_removexattr(Pointer fs, String path, String name);

    int glfs_unlink(Pointer fs, String path);

    int glfs_rename(Pointer fs, String oldpath, String newpath);
}
