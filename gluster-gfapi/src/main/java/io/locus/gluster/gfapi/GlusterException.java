package io.locus.gluster.gfapi;

import com.sun.jna.Library;
import com.sun.jna.Native;
import java.io.IOException;

/**
 * A failed libgfapi call, with the call, the path, the volume and the errno with its text, e.g.
 * {@code glfs_pread(/vm1.img @65536) on volume gv0: errno 107 (Transport endpoint is not connected)}.
 */
public final class GlusterException extends IOException {
    private static final long serialVersionUID = 1L;

    /** errno values callers test for. */
    public static final int ENOENT = 2;

    public static final int EEXIST = 17;
    public static final int ERANGE = 34;
    public static final int ENODATA = 61;
    public static final int ENOTCONN = 107;

    private final int errno;
    private final String path;

    GlusterException(String call, String path, String volume, int errno) {
        super(call + "(" + path + ") on volume " + volume + ": errno " + errno + " (" + describe(errno) + ")");
        this.errno = errno;
        this.path = path;
    }

    /** The errno the call set. */
    public int errno() {
        return errno;
    }

    /** The volume path the call was about (with an {@code @offset} for I/O at an offset). */
    public String path() {
        return path;
    }

    static String describe(int errno) {
        try {
            return LibC.INSTANCE.strerror(errno);
        } catch (RuntimeException | LinkageError e) {
            return "strerror unavailable";
        }
    }

    interface LibC extends Library {
        LibC INSTANCE = Native.load("c", LibC.class);

        String strerror(int errnum);
    }
}
