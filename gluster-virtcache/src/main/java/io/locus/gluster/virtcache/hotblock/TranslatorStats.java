package io.locus.gluster.virtcache.hotblock;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * A file's counters as the {@code virtcache} brick translator reports them in the virtual xattr
 * {@code trusted.virtcache.stats}: one {@code key=value} per line, the current window's hottest blocks in
 * {@code top=block:count,...} (hottest first, at most 32). Immutable.
 */
public final class TranslatorStats {
    /** The xattr holding the stats. */
    public static final String XATTR = "trusted.virtcache.stats";

    private final Map<String, String> values;
    private final List<BlockCount> top;

    private TranslatorStats(Map<String, String> values, List<BlockCount> top) {
        this.values = values;
        this.top = top;
    }

    /** A block and how often the current window saw it. */
    public record BlockCount(long block, long count) {}

    /**
     * Parses the xattr's value.
     *
     * @throws IllegalArgumentException for a line without '=', a repeated key, or a malformed {@code top} entry
     */
    public static TranslatorStats parse(byte[] value) {
        String text = new String(value, StandardCharsets.UTF_8);
        Map<String, String> values = new LinkedHashMap<>();
        int lineNo = 0;
        for (String line : text.split("\n")) {
            lineNo++;
            if (line.isEmpty()) {
                continue;
            }
            int eq = line.indexOf('=');
            if (eq <= 0) {
                throw new IllegalArgumentException(
                        XATTR + " line " + lineNo + " \"" + line + "\" (expected: key=value)");
            }
            if (values.put(line.substring(0, eq), line.substring(eq + 1)) != null) {
                throw new IllegalArgumentException(
                        XATTR + " line " + lineNo + ": key " + line.substring(0, eq) + " repeated");
            }
        }
        List<BlockCount> top = new ArrayList<>();
        String list = values.getOrDefault("top", "");
        if (!list.isEmpty()) {
            for (String entry : list.split(",")) {
                int colon = entry.indexOf(':');
                try {
                    top.add(new BlockCount(
                            Long.parseUnsignedLong(entry.substring(0, colon)),
                            Long.parseUnsignedLong(entry.substring(colon + 1))));
                } catch (RuntimeException e) {
                    throw new IllegalArgumentException(
                            XATTR + " top entry \"" + entry + "\" (expected: block:count)", e);
                }
            }
        }
        return new TranslatorStats(Collections.unmodifiableMap(values), List.copyOf(top));
    }

    /**
     * The numeric value of {@code key}.
     *
     * @throws IllegalArgumentException if the key is missing or not an unsigned decimal
     */
    public long number(String key) {
        String v = values.get(key);
        if (v == null) {
            throw new IllegalArgumentException(XATTR + " has no key " + key + " (keys: " + values.keySet() + ")");
        }
        try {
            return Long.parseUnsignedLong(v);
        } catch (NumberFormatException e) {
            throw new IllegalArgumentException(XATTR + " " + key + "=" + v + " (expected: an unsigned integer)", e);
        }
    }

    /** The raw value of {@code key}, or null. */
    public String get(String key) {
        return values.get(key);
    }

    /** All keys and values, in the translator's order. */
    public Map<String, String> asMap() {
        return values;
    }

    /** Read fops the file saw since the brick started tracking it. */
    public long reads() {
        return number("reads");
    }

    /** Read fops in the current window. */
    public long windowReads() {
        return number("window_reads");
    }

    /** Completed windows of the file; the filter served is of this epoch. */
    public long epoch() {
        return number("epoch");
    }

    public int blockSize() {
        return Math.toIntExact(number("block_size"));
    }

    /** The current window's hottest blocks, hottest first. */
    public List<BlockCount> top() {
        return top;
    }

    /** The current window's count of {@code block} if it is among {@link #top()}, else 0. */
    public long countOf(long block) {
        return top.stream()
                .filter(b -> b.block() == block)
                .mapToLong(BlockCount::count)
                .findFirst()
                .orElse(0);
    }

    @Override
    public String toString() {
        return values.toString();
    }
}
