package io.locus.memcached.protocol;

import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.HashMap;
import java.util.Map;

/**
 * The commands the proxy understands: memcached's classic text commands, its meta commands, and the proxy-only
 * {@code dlctx} verb (DESIGN.md, "Tenants and deadlines"). Names are case-sensitive, as in memcached.
 */
public enum Command {
    GET("get", Family.RETRIEVAL),
    GETS("gets", Family.RETRIEVAL),
    GAT("gat", Family.RETRIEVAL),
    GATS("gats", Family.RETRIEVAL),
    SET("set", Family.STORAGE),
    ADD("add", Family.STORAGE),
    REPLACE("replace", Family.STORAGE),
    APPEND("append", Family.STORAGE),
    PREPEND("prepend", Family.STORAGE),
    CAS("cas", Family.STORAGE),
    DELETE("delete", Family.KEYED),
    INCR("incr", Family.KEYED),
    DECR("decr", Family.KEYED),
    TOUCH("touch", Family.KEYED),
    VERSION("version", Family.LOCAL),
    VERBOSITY("verbosity", Family.LOCAL),
    STATS("stats", Family.LOCAL),
    FLUSH_ALL("flush_all", Family.BROADCAST),
    QUIT("quit", Family.LOCAL),
    MG("mg", Family.META),
    MS("ms", Family.META),
    MD("md", Family.META),
    MA("ma", Family.META),
    ME("me", Family.META),
    MN("mn", Family.LOCAL),
    DLCTX("dlctx", Family.LOCAL);

    /** How a command is routed. */
    public enum Family {
        /** One or more keys, each possibly on another backend; the reply is a list of items then {@code END}. */
        RETRIEVAL,
        /** One key and a data block. */
        STORAGE,
        /** One key, no data block, one reply line. */
        KEYED,
        /** One key, meta flags, possibly a data block ({@code ms}). */
        META,
        /** Sent to every backend. */
        BROADCAST,
        /** Answered by the proxy itself. */
        LOCAL
    }

    private static final Map<String, Command> BY_WORD = new HashMap<>();
    /** Every command, for {@link #lookup(byte[], int, int)}: the decoder reads the word without making a string. */
    private static final Command[] ALL = values();

    static {
        for (Command c : ALL) {
            BY_WORD.put(c.word, c);
        }
    }

    private final String word;
    private final byte[] wordBytes;
    private final Family family;

    Command(String word, Family family) {
        this.word = word;
        this.wordBytes = word.getBytes(StandardCharsets.US_ASCII);
        this.family = family;
    }

    /** The command as written on the wire. */
    public String word() {
        return word;
    }

    public Family family() {
        return family;
    }

    /** Whether this is one of the meta commands ({@code mg ms md ma me}; {@code mn} is answered locally). */
    public boolean isMeta() {
        return family == Family.META;
    }

    /** The command spelled {@code word}, or {@code null} if the proxy does not know it (memcached replies {@code ERROR}). */
    public static Command lookup(String word) {
        return BY_WORD.get(word);
    }

    /** {@link #lookup(String)} of the word in {@code line[from, to)}. */
    public static Command lookup(byte[] line, int from, int to) {
        for (Command c : ALL) {
            if (Arrays.equals(c.wordBytes, 0, c.wordBytes.length, line, from, to)) {
                return c;
            }
        }
        return null;
    }
}
