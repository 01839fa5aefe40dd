package io.locus.memcached.protocol;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.ByteBufAllocator;
import java.nio.charset.StandardCharsets;
import java.util.List;

/** Writes the replies the proxy answers itself (from its local cache) in memcached's text form, byte for byte. */
public final class ReplyWriter {
    private static final byte[] CRLF = {'\r', '\n'};

    private ReplyWriter() {}

    /**
     * A classic retrieval's reply: {@code VALUE <key> <flags> <bytes>\r\n<data>\r\n} for each key that has a value, in
     * request order, then {@code END\r\n}.
     *
     * @param values the value of {@code keys.get(i)}, or null for a miss (no line)
     * @param flags the client flags of {@code keys.get(i)}, printed unsigned
     * @return a new buffer owned by the caller
     */
    public static ByteBuf values(ByteBufAllocator alloc, List<String> keys, byte[][] values, int[] flags) {
        int size = 5;
        for (int i = 0; i < keys.size(); i++) {
            if (values[i] != null) {
                size += keys.get(i).length() + values[i].length + 40;
            }
        }
        ByteBuf out = alloc.buffer(size);
        for (int i = 0; i < keys.size(); i++) {
            if (values[i] != null) {
                out.writeCharSequence(
                        "VALUE " + keys.get(i) + " " + Integer.toUnsignedString(flags[i]) + " " + values[i].length
                                + "\r\n",
                        StandardCharsets.ISO_8859_1);
                out.writeBytes(values[i]).writeBytes(CRLF);
            }
        }
        out.writeCharSequence("END\r\n", StandardCharsets.ISO_8859_1);
        return out;
    }

    /**
     * A meta reply: {@code <statusLine>\r\n}, then {@code <data>\r\n} if {@code value} is not null.
     *
     * @param statusLine e.g. {@code VA 5 f0 kfoo} or {@code HD}, without {@code \r\n}
     * @return a new buffer owned by the caller
     */
    public static ByteBuf meta(ByteBufAllocator alloc, String statusLine, byte[] value) {
        ByteBuf b = alloc.buffer(statusLine.length() + 4 + (value != null ? value.length + 2 : 0));
        b.writeCharSequence(statusLine, StandardCharsets.ISO_8859_1);
        b.writeBytes(CRLF);
        if (value != null) {
            b.writeBytes(value).writeBytes(CRLF);
        }
        return b;
    }
}
