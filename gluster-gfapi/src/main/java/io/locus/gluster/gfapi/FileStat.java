package io.locus.gluster.gfapi;

import com.sun.jna.Memory;

/**
 * What {@code stat} says of a file: its size and mode bits.
 *
 * @param size bytes
 * @param mode the {@code st_mode} bits: type and permissions
 */
public record FileStat(long size, int mode) {
    /** sizeof(struct stat) on x86_64 Linux. */
    static final int STRUCT_BYTES = 144;

    private static final int S_IFMT = 0170000;
    private static final int S_IFREG = 0100000;
    private static final int S_IFDIR = 0040000;

    /** Reads x86_64's struct stat: st_mode (u32) at offset 24, st_size (i64) at 48. */
    static FileStat of(Memory stat) {
        return new FileStat(stat.getLong(48), stat.getInt(24));
    }

    public boolean isRegularFile() {
        return (mode & S_IFMT) == S_IFREG;
    }

    public boolean isDirectory() {
        return (mode & S_IFMT) == S_IFDIR;
    }

    /** The permission bits, e.g. 0644. */
    public int permissions() {
        return mode & 07777;
    }
}
