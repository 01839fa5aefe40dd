package io.locus.memcached.protocol;

import io.locus.memcached.tenant.HintFlags;
import io.netty.buffer.ByteBuf;
import java.nio.charset.StandardCharsets;

/**
 * The flags after a meta request's key (after {@code ms}'s datalen), read where they lie in the client's line: a flag
 * is its letter (first byte) and the bytes after it. Nothing is copied and no string is made, except a hint token's
 * value when the tenant resolver asks for it. The hint tokens can be hidden ({@link #hide}); every other method then
 * sees only the flags that are forwarded.
 *
 * <p>A view of its request's line: valid while the request is (not retained). One per request, confined to its thread.
 */
public final class MetaFlags implements HintFlags {
    /** The most tokens memcached reads on a meta line, the command and its final empty token included. */
    static final int MAX_TOKENS = 20;
    /** The longest opaque memcached echoes, its {@code O} included. */
    static final int MAX_OPAQUE_BYTES = 32;

    private static final String INVALID_OR_DUPLICATE = "CLIENT_ERROR invalid or duplicate flag";
    private static final String BAD_TOKEN = "CLIENT_ERROR bad token in command line format";
    private static final String UNKNOWN = "CLIENT_ERROR invalid flag";

    private final ByteBuf line;
    /** Start and end offsets in {@link #line} of each token after the command word. */
    private final int[] tokens;
    /** The token of the first flag. */
    private final int first;
    /** How many flags the line holds, hidden ones included. */
    private final int all;
    /** Indices (among all flags) of up to two hidden flags, the smaller first; -1 for none. */
    private int hiddenLow = -1;

    private int hiddenHigh = -1;

    MetaFlags(ByteBuf line, int[] tokens, int first) {
        this.line = line;
        this.tokens = tokens;
        this.first = first;
        this.all = Math.max(0, tokens.length / 2 - first);
    }

    /** Hides up to two flags (indices as {@link HintFlags} counts them before any is hidden; -1 for none). */
    public void hide(int a, int b) {
        int low = Math.min(a, b);
        int high = Math.max(a, b);
        hiddenLow = low < 0 ? high : low;
        hiddenHigh = low < 0 ? -1 : high;
    }

    /** The flags that are forwarded: all but the hidden ones. */
    @Override
    public int count() {
        return all - (hiddenLow >= 0 ? 1 : 0) - (hiddenHigh >= 0 ? 1 : 0);
    }

    /** Whether every flag the client sent is forwarded (none is hidden). */
    public boolean complete() {
        return hiddenLow < 0;
    }

    @Override
    public int letter(int i) {
        return line.getByte(start(i)) & 0xff;
    }

    /** Flag {@code i}'s length in bytes, its letter included. */
    public int length(int i) {
        int t = token(i);
        return tokens[2 * t + 1] - tokens[2 * t];
    }

    @Override
    public String value(int i) {
        int t = token(i);
        return line.toString(
                line.readerIndex() + tokens[2 * t] + 1,
                tokens[2 * t + 1] - tokens[2 * t] - 1,
                StandardCharsets.ISO_8859_1);
    }

    /** Whether a flag has letter {@code letter}. */
    public boolean has(char letter) {
        for (int i = 0; i < count(); i++) {
            if (letter(i) == letter) {
                return true;
            }
        }
        return false;
    }

    /** Whether a flag's letter is one of {@code letters}. */
    public boolean anyOf(String letters) {
        for (int i = 0; i < count(); i++) {
            if (letters.indexOf(letter(i)) >= 0) {
                return true;
            }
        }
        return false;
    }

    /** Whether every flag's letter is one of {@code letters} (true for no flags). */
    public boolean allOf(String letters) {
        for (int i = 0; i < count(); i++) {
            if (letters.indexOf(letter(i)) < 0) {
                return false;
            }
        }
        return true;
    }

    /** Writes flag {@code i}'s bytes as the client sent them. */
    public ByteBuf writeFlag(ByteBuf out, int i) {
        int t = token(i);
        return out.writeBytes(line, line.readerIndex() + tokens[2 * t], tokens[2 * t + 1] - tokens[2 * t]);
    }

    /** Writes each flag preceded by a space. */
    public ByteBuf writeTo(ByteBuf out) {
        for (int i = 0; i < count(); i++) {
            writeFlag(out.writeByte(' '), i);
        }
        return out;
    }

    /** The bytes {@link #writeTo} writes. */
    public int writtenBytes() {
        int n = 0;
        for (int i = 0; i < count(); i++) {
            n += 1 + length(i);
        }
        return n;
    }

    /**
     * What memcached 1.6 answers to these flags on {@code command} ({@code mg ms md ma}), or null if it accepts them:
     * the checks of its {@code _meta_flag_preparse} (a repeated letter or one from 0x7f up, an unknown letter, a bad
     * number after {@code N T R F C J D}, an {@code M} that is not one letter), too many tokens, and an opaque longer
     * than {@value #MAX_OPAQUE_BYTES} bytes. Not checked here: the key's base64 ({@code b}), the key's length and
     * {@code ms}'s datalen (the decoder's). Reads the forwarded flags, as the backend would see them.
     */
    public String error(Command command) {
        int lineTokens = 2 + first + count(); // the command, key (and datalen), flags, the final empty token
        if (lineTokens > MAX_TOKENS) {
            return command == Command.MG
                    ? "CLIENT_ERROR options flags are too long"
                    : "CLIENT_ERROR options flags too long";
        }
        String preparse = preparse();
        if (preparse != null) {
            return command == Command.MD || command == Command.MA ? INVALID_OR_DUPLICATE : preparse;
        }
        for (int i = 0; i < count(); i++) {
            if (letter(i) == 'O' && length(i) > MAX_OPAQUE_BYTES) {
                return "CLIENT_ERROR opaque token too long";
            }
        }
        return null;
    }

    /**
     * memcached's {@code _meta_flag_preparse}: an unknown or repeated flag stops it; a bad number is remembered and the
     * last message wins ({@code F} sets none of its own, so alone it leaves memcached's default).
     */
    private String preparse() {
        boolean[] seen = new boolean[127];
        boolean failed = false;
        String error = null;
        for (int i = 0; i < count(); i++) {
            int c = letter(i);
            if (c >= 127 || seen[c]) {
                return "CLIENT_ERROR duplicate flag";
            }
            seen[c] = true;
            int s = start(i) + 1;
            int e = start(i) + length(i);
            String bad = switch (c) {
                case 'N', 'T', 'R' -> Tokens.isCNumber(line, s, e, false) ? null : BAD_TOKEN;
                case 'C' -> Tokens.isCNumber(line, s, e, true) ? null : BAD_TOKEN;
                case 'F' -> Tokens.isCNumber(line, s, e, true) ? null : "";
                case 'M' -> length(i) == 2 ? null : "CLIENT_ERROR incorrect length for M token";
                case 'J' -> Tokens.isCNumber(line, s, e, true) ? null : "CLIENT_ERROR invalid numeric initial value";
                case 'D' -> Tokens.isCNumber(line, s, e, true) ? null : "CLIENT_ERROR invalid numeric delta value";
                case 'b', 'O', 'P', 'L', 'k', 's', 't', 'c', 'f', 'v', 'h', 'l', 'u', 'q', 'I' -> null;
                default -> UNKNOWN;
            };
            if (bad == UNKNOWN) {
                return UNKNOWN;
            }
            if (bad != null) {
                failed = true;
                error = bad.isEmpty() ? error : bad;
            }
        }
        return failed ? (error == null ? RequestError.BAD_FORMAT : error) : null;
    }

    /** The token of forwarded flag {@code i}, the hidden ones skipped. */
    private int token(int i) {
        if (i < 0 || i >= count()) {
            throw new IndexOutOfBoundsException("flag " + i + " of " + count());
        }
        int raw = i;
        if (hiddenLow >= 0 && hiddenLow <= raw) {
            raw++;
        }
        if (hiddenHigh >= 0 && hiddenHigh <= raw) {
            raw++;
        }
        return first + raw;
    }

    /** Where forwarded flag {@code i} starts in {@link #line}. */
    private int start(int i) {
        return line.readerIndex() + tokens[2 * token(i)];
    }
}
