package io.locus.memcached.balance.netty;

import io.locus.memcached.cache.ByteKey;
import io.locus.memcached.protocol.ReplyWriter;
import io.locus.memcached.protocol.Tokens;
import io.netty.buffer.ByteBuf;
import io.netty.buffer.CompositeByteBuf;
import io.netty.buffer.PooledByteBufAllocator;
import java.nio.charset.StandardCharsets;
import java.util.Base64;

/**
 * An item read from a backend with {@code mg <key> b v f t}: data (null for a miss), flags, TTL (-1 none), or failed.
 * The data is a retained slice of the reply; whoever holds the value releases it.
 */
final class MetaValue {
    /** No answer: the backend failed or was unreachable. */
    static final MetaValue FAILED = new MetaValue(null, 0, -1, true);

    private static final byte[] VALUE = {'V', 'A', 'L', 'U', 'E', ' '};

    private final ByteBuf data;
    private final long flags;
    private final long ttl;
    private final boolean failed;

    MetaValue(ByteBuf data, long flags, long ttl, boolean failed) {
        this.data = data;
        this.flags = flags;
        this.ttl = ttl;
        this.failed = failed;
    }

    /** The item's data, or null for a miss or a failure. */
    ByteBuf data() {
        return data;
    }

    /** The client flags (memcached's unsigned 32 bits). */
    long flags() {
        return flags;
    }

    /** The remaining TTL in seconds, -1 for none. */
    long ttl() {
        return ttl;
    }

    /** Whether the backend failed or was unreachable. */
    boolean failed() {
        return failed;
    }

    MetaValue retainedDuplicate() {
        return new MetaValue(data == null ? null : data.retainedDuplicate(), flags, ttl, failed);
    }

    /**
     * A hit as a classic {@code VALUE <key> <flags> <n>[ <cas>]} block followed by {@code tail} (such as
     * {@code \r\n}, or {@code \r\nEND\r\n} for a whole one-key reply); takes over this value's data.
     */
    ByteBuf valueBlock(ByteKey key, String cas, byte[] tail) {
        ByteBuf head =
                PooledByteBufAllocator.DEFAULT.buffer(32 + key.bytes().length + (cas == null ? 0 : cas.length()));
        head.writeBytes(VALUE).writeBytes(key.bytes()).writeByte(' ');
        ReplyWriter.writeDecimal(head, flags);
        head.writeByte(' ');
        ReplyWriter.writeDecimal(head, data.readableBytes());
        if (cas != null) {
            head.writeByte(' ').writeCharSequence(cas, StandardCharsets.US_ASCII);
        }
        head.writeByte('\r').writeByte('\n');
        CompositeByteBuf out = PooledByteBufAllocator.DEFAULT.compositeBuffer(3);
        out.addComponent(true, head);
        out.addComponent(true, data);
        out.addComponent(
                true, PooledByteBufAllocator.DEFAULT.buffer(tail.length).writeBytes(tail));
        return out;
    }

    void release() {
        if (data != null && data.refCnt() > 0) {
            data.release();
        }
    }

    /**
     * Parses {@code VA <n> f<flags> t<ttl>} + data, {@code EN}, or anything else as a failure, from the reply's bytes.
     */
    static MetaValue parse(ByteBuf b) {
        int start = b.readerIndex();
        int eol = b.indexOf(start, b.writerIndex(), (byte) '\r');
        if (eol == start + 2 && b.getByte(start) == 'E' && b.getByte(start + 1) == 'N') {
            return new MetaValue(null, 0, -1, false);
        }
        if (eol < start + 4 || b.getByte(start) != 'V' || b.getByte(start + 1) != 'A' || b.getByte(start + 2) != ' ') {
            return FAILED;
        }
        long length = -1;
        long flags = 0;
        long ttl = -1;
        for (int t = start + 3; t < eol; ) {
            int end = b.indexOf(t, eol, (byte) ' ');
            end = end < 0 ? eol : end;
            if (length < 0) {
                length = number(b, t, end);
                if (length < 0) {
                    return FAILED;
                }
            } else if (end > t + 1 && b.getByte(t) == 'f') {
                flags = number(b, t + 1, end);
                if (flags < 0) {
                    return FAILED;
                }
            } else if (end > t + 1 && b.getByte(t) == 't') {
                ttl = b.getByte(t + 1) == '-' ? -1 : number(b, t + 1, end);
            }
            t = end + 1;
        }
        return new MetaValue(b.retainedSlice(eol + 2, (int) length), flags, ttl, false);
    }

    /** The decimal in {@code [from, to)}, or -1 if it is not one (memcached writes these, so that means a failure). */
    private static long number(ByteBuf b, int from, int to) {
        return Tokens.decimal(b, from, to, 18);
    }

    /** A key for meta commands' {@code b} flag. */
    static String base64(ByteKey key) {
        return Base64.getEncoder().encodeToString(key.bytes());
    }

    /**
     * {@code <word> <key in base64><tail>\r\n}, written from the key's bytes; {@code tail} begins with the {@code b}
     * flag.
     *
     * @return a new buffer owned by the caller
     */
    static ByteBuf line(String word, byte[] key, String tail) {
        byte[] b64 = Base64.getEncoder().encode(key);
        ByteBuf line = PooledByteBufAllocator.DEFAULT.buffer(word.length() + 1 + b64.length + tail.length() + 2);
        line.writeCharSequence(word, StandardCharsets.US_ASCII);
        line.writeByte(' ').writeBytes(b64).writeCharSequence(tail, StandardCharsets.US_ASCII);
        return line.writeByte('\r').writeByte('\n');
    }
}
