package io.locus.cassandra.drop;

import java.nio.charset.StandardCharsets;
import java.util.List;

/**
 * The token intervals of a directory (DESIGN.md, "Directory ranges"), for range scans such as
 * {@code SELECT ... WHERE token(path) >= ? AND token(path) <= ?}. Both bounds are inclusive. Pure; thread-safe.
 */
public final class DirectoryRanges {
    private DirectoryRanges() {}

    /** An inclusive token interval. */
    public static final class Interval {
        private final byte[] first;
        private final byte[] last;

        Interval(byte[] first, byte[] last) {
            this.first = first;
            this.last = last;
        }

        /** The interval's lowest token. */
        public byte[] first() {
            return first;
        }

        /** The interval's highest token. */
        public byte[] last() {
            return last;
        }

        @Override
        public String toString() {
            return "[" + TokenMath.toHex(first) + ", " + TokenMath.toHex(last) + "]";
        }
    }

    /**
     * The interval holding exactly the direct entries of {@code dir} (one readdir+stat), up to 16-bit sibling code
     * collisions, which clients filter by path. Works at any depth. For "/" it also holds the root's own entry.
     *
     * @throws IllegalArgumentException if {@code dir} is not an absolute path (or has a '..' segment)
     */
    public static Interval listing(String dir) {
        byte[] prefix = prefix(dir, false);
        byte[] first = prefix.clone();
        TokenLayout.putInt(first, TokenLayout.NAME_OFFSET, 1);
        byte[] last = prefix.clone();
        TokenLayout.putInt(last, TokenLayout.NAME_OFFSET, 0xFFFF_FFFFL);
        return new Interval(first, last);
    }

    /**
     * The interval holding every entry below {@code dir} (its whole subtree, not its own entry).
     *
     * @throws IllegalArgumentException if {@code dir} is not an absolute path, or deeper than 20 levels (below that
     *     depth a subtree is spread by hash inside its level-20 ancestor's interval)
     */
    public static Interval subtree(String dir) {
        byte[] prefix = prefix(dir, true);
        int depth = PathNames.components(dir).size();
        byte[] first = prefix.clone();
        TokenLayout.putInt(first, TokenLayout.NAME_OFFSET, 1);
        byte[] last = prefix.clone();
        for (int i = 2 * depth; i < TokenLayout.TOKEN_BYTES; i++) {
            last[i] = (byte) 0xFF;
        }
        return new Interval(first, last);
    }

    /** Level codes (and overflow) of {@code dir} as the parent of its entries; other bytes zero. */
    private static byte[] prefix(String dir, boolean subtree) {
        List<String> c = PathNames.components(dir);
        if (c == null) {
            throw new IllegalArgumentException("directory \"" + dir + "\" (expected: an absolute path without '..')");
        }
        if (subtree && c.size() > TokenLayout.LEVELS) {
            throw new IllegalArgumentException(
                    "directory \"" + dir + "\" has depth " + c.size() + " (expected: <= 20 for a subtree interval)");
        }
        // The token of a child entry "dir/x" carries exactly dir's level codes; its name field is then replaced.
        byte[] child = PathEncoder.encode(
                (PathNames.prefix(c, c.size()) + (c.isEmpty() ? "" : "/") + "x").getBytes(StandardCharsets.UTF_8));
        TokenLayout.putInt(child, TokenLayout.NAME_OFFSET, 0);
        return child;
    }
}
