package io.locus.memcached.bench.sim;

import java.io.BufferedInputStream;
import java.io.DataInputStream;
import java.io.EOFException;
import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import org.tukaani.xz.XZInputStream;

/**
 * Reads the key traces of {@code data/kv} as they are (xz-compressed big-endian integers).
 *
 * <ul>
 *   <li>{@link Format#CACHE2K_INT}: one 32-bit key per access; bits 27-31 are the object type, which
 *       {@link #tenantOf} uses as the tenant.</li>
 *   <li>{@link Format#LONG_KEY}: one 64-bit key per access (scarab-recs); one tenant.</li>
 * </ul>
 */
public final class KeyTrace {
    /** The integer width and meaning of a trace. */
    public enum Format {
        /** cache2k traces: big-endian 32-bit ints, object type in bits 27-31. */
        CACHE2K_INT,
        /** scarab-recs: big-endian 64-bit longs, no type. */
        LONG_KEY
    }

    private final Format format;
    private final long[] keys;

    private KeyTrace(Format format, long[] keys) {
        this.format = format;
        this.keys = keys;
    }

    /** The format implied by a trace file name ({@code cache2k-*} or {@code scarab-*}). */
    public static Format formatOf(Path trace) {
        String name = trace.getFileName().toString();
        if (name.startsWith("cache2k-")) {
            return Format.CACHE2K_INT;
        }
        if (name.startsWith("scarab-")) {
            return Format.LONG_KEY;
        }
        throw new IllegalArgumentException(
                "trace file name \"" + name + "\" (expected: cache2k-*.trace.xz or scarab-*.trace.xz)");
    }

    /**
     * Reads up to {@code limit} accesses.
     *
     * @param trace an {@code .xz} trace file
     * @param limit maximum number of accesses, > 0
     * @throws IOException if the file cannot be read or is not valid xz
     */
    public static KeyTrace read(Path trace, int limit) throws IOException {
        if (limit <= 0) {
            throw new IllegalArgumentException("trace limit " + limit + " (expected: > 0)");
        }
        Format format = formatOf(trace);
        long[] keys = new long[Math.min(limit, 1 << 16)];
        int n = 0;
        try (InputStream file = Files.newInputStream(trace);
                DataInputStream in = new DataInputStream(
                        new BufferedInputStream(new XZInputStream(new BufferedInputStream(file)), 1 << 16))) {
            while (n < limit) {
                long key;
                try {
                    key = format == Format.CACHE2K_INT ? in.readInt() & 0xffffffffL : in.readLong();
                } catch (EOFException end) {
                    break;
                }
                if (n == keys.length) {
                    keys = Arrays.copyOf(keys, (int) Math.min(limit, 2L * keys.length));
                }
                keys[n++] = key;
            }
        }
        return new KeyTrace(format, Arrays.copyOf(keys, n));
    }

    /** The format of this trace. */
    public Format format() {
        return format;
    }

    /** Number of accesses read. */
    public int size() {
        return keys.length;
    }

    /** The key of access {@code i} (cache2k keys as unsigned 32-bit values). */
    public long key(int i) {
        return keys[i];
    }

    /** The tenant of a key: {@code type-<bits 27-31>} for cache2k, {@code scarab} otherwise. */
    public String tenantOf(long key) {
        return format == Format.CACHE2K_INT ? "type-" + (key >>> 27) : "scarab";
    }
}
