package io.locus.memcached.protocol;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.ByteBufAllocator;
import io.netty.buffer.CompositeByteBuf;
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
        line.writeBytes(CRLF);
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
}
