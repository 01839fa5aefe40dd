package io.locus.memcached.protocol;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.ByteBufAllocator;
import io.netty.buffer.CompositeByteBuf;
import io.netty.buffer.Unpooled;
import java.nio.charset.StandardCharsets;
import java.util.List;

/** Writes requests in memcached's text form for a backend. */
public final class RequestWriter {
    private static final byte[] CRLF = {'\r', '\n'};
    private static final byte[] MN = {'m', 'n', '\r', '\n'};

    private RequestWriter() {}

    /**
     * Writes {@code word args...\r\n[data\r\n][mn\r\n]}.
     *
     * @param data the data block, or null; it is retained (the caller keeps its own reference)
     * @param appendNoop whether to follow the request with {@code mn}, so that a quiet request has a reply that ends
     *     (see {@link ReplyFormat#UNTIL_MN})
     * @return a new buffer owned by the caller
     */
    public static ByteBuf write(
            ByteBufAllocator alloc, String word, List<String> args, ByteBuf data, boolean appendNoop) {
        int lineLength = word.length() + 2;
        for (String a : args) {
            lineLength += a.length() + 1;
        }
        ByteBuf line = alloc.buffer(lineLength + (data == null ? 0 : 2) + 4);
        line.writeCharSequence(word, StandardCharsets.ISO_8859_1);
        for (String a : args) {
            line.writeByte(' ');
            line.writeCharSequence(a, StandardCharsets.ISO_8859_1);
        }
        return withData(alloc, line.writeBytes(CRLF), data, appendNoop);
    }

    /** {@code line} (handed over), then {@code data\r\n} if there is a data block (retained), then the {@code mn}. */
    private static ByteBuf withData(ByteBufAllocator alloc, ByteBuf line, ByteBuf data, boolean appendNoop) {
        if (data == null) {
            if (appendNoop) {
                line.writeBytes(MN);
            }
            return line;
        }
        ByteBuf tail = alloc.buffer(6);
        tail.writeBytes(CRLF);
        if (appendNoop) {
            tail.writeBytes(MN);
        }
        CompositeByteBuf all = alloc.compositeBuffer(3);
        all.addComponents(true, line, data.retainedDuplicate(), tail);
        return all;
    }

    /**
     * The request as the client sent it ({@link MemcachedRequest#original()}), followed by {@code mn\r\n} if
     * {@code appendNoop}; or, when it has no original bytes, {@link #write} of its command and tokens.
     *
     * @return a new buffer owned by the caller
     */
    public static ByteBuf forward(ByteBufAllocator alloc, MemcachedRequest req, boolean appendNoop) {
        ByteBuf original = req.original();
        if (original == null) {
            return write(alloc, req.command().word(), req.args(), req.data(), appendNoop);
        }
        if (!appendNoop) {
            return original;
        }
        CompositeByteBuf all = alloc.compositeBuffer(2);
        return all.addComponents(true, original, Unpooled.wrappedBuffer(MN));
    }

    /**
     * A meta request as the client sent it if it carried no hint token, else written anew from its key (and for
     * {@code ms} its datalen) and {@code flags}, the meta flags left after the hint tokens were removed, all as the
     * client's bytes; followed by {@code mn\r\n} if {@code appendNoop}.
     *
     * @return a new buffer owned by the caller
     */
    public static ByteBuf forwardMeta(
            ByteBufAllocator alloc, MemcachedRequest req, MetaFlags flags, boolean appendNoop) {
        if (flags.complete()) {
            return forward(alloc, req, appendNoop); // no hint token to remove
        }
        int head = req.command() == Command.MS ? 2 : 1;
        String word = req.command().word();
        int lineLength = word.length() + 2 + flags.writtenBytes();
        for (int i = 0; i < head; i++) {
            lineLength += req.argSlice(i).readableBytes() + 1;
        }
        ByteBuf line = alloc.buffer(lineLength);
        line.writeCharSequence(word, StandardCharsets.ISO_8859_1);
        for (int i = 0; i < head; i++) {
            ByteBuf t = req.argSlice(i);
            line.writeByte(' ').writeBytes(t, t.readerIndex(), t.readableBytes());
        }
        flags.writeTo(line);
        return withData(alloc, line.writeBytes(CRLF), req.data(), appendNoop);
    }

    /**
     * Writes {@code word [prefix] keys...\r\n}, the prefix and keys copied from their buffers (a multi-get's part for
     * one backend).
     *
     * @param prefix the token before the keys ({@code gat}'s exptime), or null; not released
     * @param keys the keys' bytes; not released
     * @return a new buffer owned by the caller
     */
    public static ByteBuf writeKeys(ByteBufAllocator alloc, String word, ByteBuf prefix, List<ByteBuf> keys) {
        int lineLength = word.length() + 2 + (prefix == null ? 0 : prefix.readableBytes() + 1);
        for (ByteBuf k : keys) {
            lineLength += k.readableBytes() + 1;
        }
        ByteBuf line = alloc.buffer(lineLength);
        line.writeCharSequence(word, StandardCharsets.ISO_8859_1);
        if (prefix != null) {
            line.writeByte(' ').writeBytes(prefix, prefix.readerIndex(), prefix.readableBytes());
        }
        for (ByteBuf k : keys) {
            line.writeByte(' ');
            line.writeBytes(k, k.readerIndex(), k.readableBytes());
        }
        return line.writeBytes(CRLF);
    }
}
