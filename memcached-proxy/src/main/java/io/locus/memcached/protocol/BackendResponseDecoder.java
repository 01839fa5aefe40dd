package io.locus.memcached.protocol;

import io.netty.buffer.ByteBuf;
import io.netty.channel.ChannelHandlerContext;
import io.netty.handler.codec.ByteToMessageDecoder;
import java.nio.charset.StandardCharsets;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.List;

/**
 * Decodes a backend's byte stream into whole {@link BackendReply}s, one per request sent, in order.
 *
 * <p>Before each request is written, its {@link ReplyFormat} must be {@link #expect(ReplyFormat) expected} (on the
 * channel's event loop). Bytes that arrive when nothing is expected, lines longer than the line limit and data blocks
 * larger than the item limit raise {@link BackendProtocolException}: the connection is then out of step and must be
 * closed. Nothing is consumed until a reply is complete, and then it is emitted as one retained slice.
 */
/*
 * Design note. Re-scanning an incomplete reply on each read costs little: lines are short and data blocks are skipped
 * by their declared length, so a 1 MiB value arriving in 64 KiB reads is scanned 16 times at a few dozen bytes each.
 */
public final class BackendResponseDecoder extends ByteToMessageDecoder {
    private final ProtocolLimits limits;
    private final ArrayDeque<ReplyFormat> expected = new ArrayDeque<>();

    public BackendResponseDecoder(ProtocolLimits limits) {
        this.limits = limits;
    }

    /** Registers the format of the next request's reply; call before writing the request. */
    public void expect(ReplyFormat format) {
        expected.add(format);
    }

    @Override
    protected void decode(ChannelHandlerContext ctx, ByteBuf in, List<Object> out) {
        try {
            decodeReplies(in, out);
        } catch (BackendProtocolException e) {
            // The stream is out of step: nothing after this point can be matched to a request.
            in.skipBytes(in.readableBytes());
            expected.clear();
            throw e;
        }
    }

    private void decodeReplies(ByteBuf in, List<Object> out) {
        while (in.isReadable()) {
            ReplyFormat format = expected.peek();
            if (format == null) {
                throw new BackendProtocolException("backend sent " + in.readableBytes() + " bytes nobody asked for: \""
                        + preview(in, in.readerIndex()) + "\"");
            }
            List<BackendReply.Item> items = new ArrayList<>();
            int end = scan(format, in, items);
            if (end < 0) {
                return;
            }
            expected.poll();
            int start = in.readerIndex();
            boolean error = isErrorLine(in, start, end);
            out.add(new BackendReply(in.readRetainedSlice(end - start), items, error));
        }
    }

    /** Returns the index after the complete reply starting at the reader index, or -1 if it is incomplete. */
    private int scan(ReplyFormat format, ByteBuf in, List<BackendReply.Item> items) {
        int start = in.readerIndex();
        int pos = start;
        while (true) {
            int eol = lineEnd(in, pos);
            if (eol < 0) {
                return -1;
            }
            int next = eol + 1;
            switch (format) {
                case LINE -> {
                    return next;
                }
                case VALUES -> {
                    if (startsWith(in, pos, "VALUE ")) {
                        int after = skipItem(in, pos, eol, 3, items, start);
                        if (after < 0) {
                            return -1;
                        }
                        pos = after;
                        continue;
                    }
                    return next; // END, or an error line
                }
                case META -> {
                    return startsWith(in, pos, "VA ") ? skipData(in, pos, eol, 1) : next;
                }
                case UNTIL_MN -> {
                    if (startsWith(in, pos, "MN\r\n")) {
                        return next;
                    }
                    if (startsWith(in, pos, "VA ")) {
                        pos = skipData(in, pos, eol, 1);
                    } else if (startsWith(in, pos, "VALUE ")) {
                        pos = skipItem(in, pos, eol, 3, items, start);
                    } else {
                        pos = next;
                    }
                    if (pos < 0) {
                        return -1;
                    }
                }
                default -> throw new IllegalStateException("unknown format " + format);
            }
        }
    }

    /** Skips {@code VALUE <key> <flags> <bytes> ...\r\n<data>\r\n}, recording the item. */
    private int skipItem(ByteBuf in, int pos, int eol, int lengthToken, List<BackendReply.Item> items, int replyStart) {
        int after = skipData(in, pos, eol, lengthToken);
        if (after >= 0) {
            int keyStart = pos + 6;
            int keyEnd = in.indexOf(keyStart, eol, (byte) ' ');
            if (keyEnd < 0) {
                throw new BackendProtocolException("VALUE line without flags: \"" + preview(in, pos) + "\"");
            }
            items.add(new BackendReply.Item(pos - replyStart, after - pos, keyEnd - keyStart));
        }
        return after;
    }

    /** Skips a header line and the data block whose length is its token number {@code lengthToken} (0-based). */
    private int skipData(ByteBuf in, int pos, int eol, int lengthToken) {
        long length = lengthAt(in, pos, eol, lengthToken);
        if (length < 0 || length > limits.maxItemSizeBytes()) {
            throw new BackendProtocolException(
                    "bad data length in \"" + preview(in, pos) + "\" (expected: 0.." + limits.maxItemSizeBytes() + ")");
        }
        int dataEnd = eol + 1 + (int) length;
        if (in.writerIndex() < dataEnd + 2) {
            return -1;
        }
        if (in.getByte(dataEnd) != '\r' || in.getByte(dataEnd + 1) != '\n') {
            throw new BackendProtocolException(
                    "data block of " + length + " bytes not followed by \\r\\n after \"" + preview(in, pos) + "\"");
        }
        return dataEnd + 2;
    }

    /**
     * The unsigned decimal token number {@code token} (0-based, single spaces as memcached writes them) of the line
     * {@code [pos, eol)}, or -1 if there is none or it is not a number below 2^31; read in place because this runs for
     * every value the proxy relays.
     */
    static long lengthAt(ByteBuf in, int pos, int eol, int token) {
        int end = eol > pos && in.getByte(eol - 1) == '\r' ? eol - 1 : eol;
        int i = pos;
        for (int t = 0; t < token; t++) {
            i = in.indexOf(i, end, (byte) ' ');
            if (i < 0) {
                return -1;
            }
            i++;
        }
        long value = 0;
        int digits = 0;
        for (; i < end; i++) {
            byte b = in.getByte(i);
            if (b == ' ') {
                break;
            }
            if (b < '0' || b > '9' || ++digits > 10) {
                return -1;
            }
            value = value * 10 + (b - '0');
        }
        return digits == 0 || value > Integer.MAX_VALUE ? -1 : value;
    }

    private int lineEnd(ByteBuf in, int pos) {
        int limit = Math.min(in.writerIndex(), pos + limits.maxLineBytes() + 2);
        int eol = in.indexOf(pos, limit, (byte) '\n');
        if (eol < 0 && in.writerIndex() - pos > limits.maxLineBytes() + 1) {
            throw new BackendProtocolException(
                    "reply line longer than " + limits.maxLineBytes() + " bytes: \"" + preview(in, pos) + "\"");
        }
        return eol;
    }

    private static boolean isErrorLine(ByteBuf in, int start, int end) {
        return startsWith(in, start, "ERROR")
                || startsWith(in, start, "CLIENT_ERROR ")
                || startsWith(in, start, "SERVER_ERROR ");
    }

    static boolean startsWith(ByteBuf in, int pos, String prefix) {
        if (in.writerIndex() - pos < prefix.length()) {
            return false;
        }
        for (int i = 0; i < prefix.length(); i++) {
            if (in.getByte(pos + i) != prefix.charAt(i)) {
                return false;
            }
        }
        return true;
    }

    private static String preview(ByteBuf in, int pos) {
        int n = Math.min(80, in.writerIndex() - pos);
        return in.toString(pos, n, StandardCharsets.ISO_8859_1)
                .replace("\r", "\\r")
                .replace("\n", "\\n");
    }

    /** How many replies are still expected; the connection is idle when this is 0. */
    public int outstanding() {
        return expected.size();
    }

    /** Forgets every expected reply (after the connection is closed). */
    public void clear() {
        expected.clear();
    }
}
