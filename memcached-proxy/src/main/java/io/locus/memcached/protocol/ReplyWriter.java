package io.locus.memcached.protocol;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.ByteBufAllocator;

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
     * @param keys the keys' bytes as the client sent them
     * @param values the value of {@code keys[i]}, or null for a miss (no line)
     * @param flags the client flags of {@code keys[i]}, printed unsigned
     * @return a new buffer owned by the caller
     */
    public static ByteBuf values(ByteBufAllocator alloc, byte[][] keys, byte[][] values, int[] flags) {
        int size = END.length;
        for (int i = 0; i < keys.length; i++) {
            if (values[i] != null) {
                size += VALUE.length + keys[i].length + values[i].length + 26;
            }
        }
        ByteBuf out = alloc.buffer(size);
        for (int i = 0; i < keys.length; i++) {
            if (values[i] != null) {
                out.writeBytes(VALUE).writeBytes(keys[i]).writeByte(' ');
                writeItemTail(out, flags[i], values[i]);
            }
        }
        return out.writeBytes(END);
    }

    /**
     * {@link #values(ByteBufAllocator, byte[][], byte[][], int[])} with the keys written from the request's line, so a
     * get of many keys needs no array per key.
     *
     * @param request the classic retrieval; its keys are read while it is not released
     */
    public static ByteBuf values(ByteBufAllocator alloc, MemcachedRequest request, byte[][] values, int[] flags) {
        int size = END.length;
        for (int i = 0; i < values.length; i++) {
            if (values[i] != null) {
                size += VALUE.length + request.keySlice(i).readableBytes() + values[i].length + 26;
            }
        }
        ByteBuf out = alloc.buffer(size);
        for (int i = 0; i < values.length; i++) {
            if (values[i] != null) {
                ByteBuf key = request.keySlice(i);
                out.writeBytes(VALUE)
                        .writeBytes(key, key.readerIndex(), key.readableBytes())
                        .writeByte(' ');
                writeItemTail(out, flags[i], values[i]);
            }
        }
        return out.writeBytes(END);
    }

    /** {@code <flags> <bytes>\r\n<data>\r\n}, the end of a {@code VALUE} item. */
    private static void writeItemTail(ByteBuf out, int flags, byte[] value) {
        writeDecimal(out, Integer.toUnsignedLong(flags));
        out.writeByte(' ');
        writeDecimal(out, value.length);
        out.writeBytes(CRLF).writeBytes(value).writeBytes(CRLF);
    }

    /**
     * A classic retrieval's reply for one key that has a value: {@code VALUE <key> <flags> <bytes>\r\n<data>\r\nEND\r\n},
     * the same bytes as {@link #values} writes for it.
     *
     * @param key the key's bytes as the client sent them
     * @param flags the client flags, printed unsigned
     * @return a new buffer owned by the caller
     */
    public static ByteBuf value(ByteBufAllocator alloc, byte[] key, int flags, byte[] value) {
        ByteBuf out = alloc.buffer(VALUE.length + key.length + value.length + 40);
        out.writeBytes(VALUE).writeBytes(key).writeByte(' ');
        writeItemTail(out, flags, value);
        return out.writeBytes(END);
    }

    /** {@code v >= 0} in ASCII decimal digits. */
    public static void writeDecimal(ByteBuf out, long v) {
        if (v < 10) {
            out.writeByte('0' + (int) v);
            return;
        }
        writeDecimal(out, v / 10);
        out.writeByte('0' + (int) (v % 10));
    }
}
