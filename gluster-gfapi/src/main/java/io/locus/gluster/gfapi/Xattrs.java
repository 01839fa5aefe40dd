package io.locus.gluster.gfapi;

import com.sun.jna.Memory;
import com.sun.jna.Native;
import com.sun.jna.Pointer;

/** The size-then-value protocol of {@code getxattr}, shared by the path and fd forms. */
final class Xattrs {
    /** A value that grows between the size query and the read is asked for again, this often. */
    private static final int ATTEMPTS = 3;

    private Xattrs() {}

    interface Call {
        long get(Pointer buf, long size);
    }

    interface Failure {
        GlusterException get();
    }

    static byte[] get(Call call, Failure failure) throws GlusterException {
        for (int attempt = 1; ; attempt++) {
            long size = call.get(null, 0);
            if (size < 0) {
                throw failure.get();
            }
            if (size == 0) {
                return new byte[0];
            }
            Memory buf = new Memory(size);
            long got = call.get(buf, size);
            if (got >= 0) {
                return buf.getByteArray(0, (int) got);
            }
            if (Native.getLastError() != GlusterException.ERANGE || attempt == ATTEMPTS) {
                throw failure.get();
            }
        }
    }

    static Memory memory(byte[] value) {
        Memory buf = new Memory(Math.max(1, value.length));
        buf.write(0, value, 0, value.length);
        return buf;
    }
}
