package io.locus.memcached.deadline;

import java.util.List;

/**
 * The {@code mg} requests the in-proxy cache can answer byte for byte as memcached 1.6 would: flags drawn from
 * {@code v f k s q O<opaque>}, each at most once. Anything else ({@code c} needs the backend's cas unique, {@code t}
 * its clock, {@code h l} its access history, {@code T N E R} change the item, {@code b} encodes the key) goes to the
 * backend untouched.
 *
 * <p>memcached echoes the return flags in request order: on a hit {@code f k s O}, on a miss only {@code k O};
 * {@code q} hides the {@code EN} of a miss, never a hit or an error.
 */
final class MetaGetFlags {
    private final boolean value;
    private final boolean quiet;
    private final List<String> flags;

    private MetaGetFlags(List<String> flags, boolean value, boolean quiet) {
        this.flags = flags;
        this.value = value;
        this.quiet = quiet;
    }

    /** Whether the client asked for the value ({@code v}). */
    boolean value() {
        return value;
    }

    /** Whether a miss answers nothing ({@code q}). */
    boolean quiet() {
        return quiet;
    }

    /** The flags if the cache can answer the request, else null. */
    static MetaGetFlags parse(List<String> flags) {
        boolean value = false;
        boolean quiet = false;
        int seen = 0;
        for (String f : flags) {
            char c = f.charAt(0);
            int bit = switch (c) {
                case 'v' -> 1;
                case 'f' -> 2;
                case 'k' -> 4;
                case 's' -> 8;
                case 'q' -> 16;
                case 'O' -> 32;
                default -> -1;
            };
            // Opaques longer than 32 bytes and repeated flags get memcached's own CLIENT_ERROR from the backend.
            if (bit < 0 || (seen & bit) != 0 || (c != 'O' && f.length() != 1) || (c == 'O' && f.length() > 33)) {
                return null;
            }
            seen |= bit;
            value |= c == 'v';
            quiet |= c == 'q';
        }
        return new MetaGetFlags(List.copyOf(flags), value, quiet);
    }

    /** The status line of a hit, without {@code \r\n}: {@code VA <n> ...} or {@code HD ...}. */
    String hitLine(String key, int clientFlags, int valueLength) {
        StringBuilder sb = new StringBuilder(value ? "VA " + valueLength : "HD");
        for (String f : flags) {
            switch (f.charAt(0)) {
                case 'f' -> sb.append(" f").append(Integer.toUnsignedString(clientFlags));
                case 'k' -> sb.append(" k").append(key);
                case 's' -> sb.append(" s").append(valueLength);
                case 'O' -> sb.append(' ').append(f);
                default -> {} // v and q are not echoed
            }
        }
        return sb.toString();
    }

    /** The line of a miss, without {@code \r\n}; callers send nothing when {@link #quiet}. */
    String missLine(String key) {
        StringBuilder sb = new StringBuilder("EN");
        for (String f : flags) {
            switch (f.charAt(0)) {
                case 'k' -> sb.append(" k").append(key);
                case 'O' -> sb.append(' ').append(f);
                default -> {}
            }
        }
        return sb.toString();
    }
}
