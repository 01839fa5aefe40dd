package io.locus.memcached.protocol;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.Unpooled;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

/**
 * The command line being parsed: its bytes, copied out of the cumulation once (the parser then reads an array, not a
 * buffer), and where each token starts and ends. Token 0 is the command word; argument {@code i} is token {@code i +
 * 1}. One per connection, reused for every line.
 */
final class CommandLine {
    private byte[] text = new byte[256];
    /** {@link #text} as a buffer, for {@link Tokens}. */
    private ByteBuf wrapped = Unpooled.wrappedBuffer(text);
    /** Start and end offsets in {@link #text} of each token, the command word first. */
    private int[] bounds = new int[32];

    private int count;

    /** Copies {@code length} bytes of {@code in} from {@code start}; the index of the first NUL byte, or -1. */
    int copy(ByteBuf in, int start, int length) {
        if (text.length < length) {
            text = new byte[Math.max(length, 2 * text.length)];
            wrapped = Unpooled.wrappedBuffer(text);
        }
        in.getBytes(start, text, 0, length);
        for (int i = 0; i < length; i++) {
            if (text[i] == 0) {
                return i;
            }
        }
        return -1;
    }

    /** Splits the first {@code length} bytes on runs of spaces, as memcached does (a tab is part of a token). */
    void tokenize(int length) {
        count = 0;
        int i = 0;
        while (i < length) {
            while (i < length && text[i] == ' ') {
                i++;
            }
            int s = i;
            while (i < length && text[i] != ' ') {
                i++;
            }
            if (i > s) {
                if (bounds.length < 2 * count + 2) {
                    bounds = Arrays.copyOf(bounds, 2 * bounds.length);
                }
                bounds[2 * count] = s;
                bounds[2 * count + 1] = i;
                count++;
            }
        }
    }

    /** Tokens, the command word included. */
    int count() {
        return count;
    }

    Command command() {
        return Command.lookup(text, bounds[0], bounds[1]);
    }

    /** Token {@code t} as an ISO-8859-1 string, for messages. */
    String token(int t) {
        return text(bounds[2 * t], bounds[2 * t + 1]);
    }

    /** Argument {@code i} as an ISO-8859-1 string, for messages. */
    String arg(int i) {
        return token(i + 1);
    }

    /** The arguments from {@code first} to the last, as the client spaced them, for messages. */
    String argsFrom(int first) {
        return text(bounds[2 * first + 2], bounds[2 * count - 1]);
    }

    String text(int from, int to) {
        return new String(text, from, to - from, StandardCharsets.ISO_8859_1);
    }

    int argLength(int i) {
        return bounds[2 * i + 3] - bounds[2 * i + 2];
    }

    boolean argIs(int i, byte[] word) {
        return Arrays.equals(text, bounds[2 * i + 2], bounds[2 * i + 3], word, 0, word.length);
    }

    /** Whether a meta flag from argument {@code first} on is q (memcached reads a flag by its first byte). */
    boolean hasQuietFlag(int first) {
        for (int i = first + 1; i < count; i++) {
            if (text[bounds[2 * i]] == 'q') {
                return true;
            }
        }
        return false;
    }

    boolean argIsInt32(int i) {
        return Tokens.isInt32(wrapped, bounds[2 * i + 2], bounds[2 * i + 3]);
    }

    boolean argIsUint64(int i) {
        return Tokens.isUint64(wrapped, bounds[2 * i + 2], bounds[2 * i + 3]);
    }

    /** Argument {@code i} as a data block length, or -1. */
    long argAsLength(int i) {
        return Tokens.parseLength(wrapped, bounds[2 * i + 2], bounds[2 * i + 3]);
    }

    /** The line's bytes as copied (valid up to the line's length, until the next line). */
    byte[] bytes() {
        return text;
    }

    /** Where each argument starts and ends, relative to the line's first byte, for the request to keep. */
    int[] argBounds() {
        return Arrays.copyOfRange(bounds, 2, 2 * count);
    }

    /** memcached's error for a key argument over {@code maxKeyBytes}, or null. */
    RequestError keyError(int arg, int maxKeyBytes, boolean suppressed) {
        int length = argLength(arg);
        if (length <= maxKeyBytes) {
            return null;
        }
        return new RequestError(
                RequestError.BAD_FORMAT,
                suppressed,
                false,
                "key length " + length + " bytes (expected: <= " + maxKeyBytes + "): \"" + Tokens.truncate(arg(arg))
                        + "\"");
    }

    /** The error for the first of arguments {@code [from, to)} that is too long a key, or null. */
    RequestError keyError(int from, int to, int maxKeyBytes) {
        for (int i = from; i < to; i++) {
            RequestError e = keyError(i, maxKeyBytes, false);
            if (e != null) {
                return e;
            }
        }
        return null;
    }

    /** The tokens of {@code line} as {@link #tokenize(int)} splits them. */
    static List<String> tokenize(String line) {
        CommandLine parsed = new CommandLine();
        parsed.text = line.getBytes(StandardCharsets.ISO_8859_1);
        parsed.wrapped = Unpooled.wrappedBuffer(parsed.text);
        parsed.tokenize(parsed.text.length);
        List<String> tokens = new ArrayList<>(parsed.count);
        for (int t = 0; t < parsed.count; t++) {
            tokens.add(parsed.token(t));
        }
        return tokens;
    }
}
