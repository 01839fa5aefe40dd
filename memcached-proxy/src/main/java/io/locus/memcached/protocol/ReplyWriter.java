package io.locus.memcached.protocol;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.ByteBufAllocator;
import java.nio.charset.StandardCharsets;
import java.util.List;

/** Writes the replies the proxy answers itself (from its local cache) in memcached's text form, byte for byte. */
public final class ReplyWriter {
    private static final byte[] CRLF = {'\r', '\n'};
    private static final byte[] VALUE = {'V', 'A', 'L', 'U', 'E', ' '};
    private static final byte[] END = {'E', 'N', 'D', '\r', '\n'};

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
     * A classic retrieval's reply for one key that has a value: {@code VALUE <key> <flags> <bytes>\r\n<data>\r\nEND\r\n},
     * the same bytes as {@link #values} writes for it.
     *
     * @param key the key's bytes as the client sent them; not released
     * @param flags the client flags, printed unsigned
     * @return a new buffer owned by the caller
     */
    public static ByteBuf value(ByteBufAllocator alloc, ByteBuf key, int flags, byte[] value) {
        ByteBuf out = alloc.buffer(VALUE.length + key.readableBytes() + value.length + 40);
        out.writeBytes(VALUE)
                .writeBytes(key, key.readerIndex(), key.readableBytes())
                .writeByte(' ');
        writeDecimal(out, Integer.toUnsignedLong(flags));
        out.writeByte(' ');
        writeDecimal(out, value.length);
        return out.writeBytes(CRLF).writeBytes(value).writeBytes(CRLF).writeBytes(END);
    }

    /** {@code v >= 0} in ASCII decimal digits. */
    private static void writeDecimal(ByteBuf out, long v) {
        if (v < 10) {
            out.writeByte('0' + (int) v);
            return;
        }
        writeDecimal(out, v / 10);
        out.writeByte('0' + (int) (v % 10));
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
