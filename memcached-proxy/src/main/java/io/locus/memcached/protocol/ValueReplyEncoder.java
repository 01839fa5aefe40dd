package io.locus.memcached.protocol;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.ByteBufAllocator;

/**
 * Writes a single key's {@code VALUE} reply (the same bytes as {@link ReplyWriter#value}) with one copy into the
 * buffer: the reply is assembled in a reused array first, because every write into a direct buffer is a native memory
 * copy with its own fixed cost, and a reply written piece by piece makes eight of them. Values above {@link
 * #ASSEMBLE_LIMIT} bytes are written directly, where one more copy would cost more than the calls it saves.
 *
 * <p>Not thread-safe: one per I/O thread.
 */
public final class ValueReplyEncoder {
    /** Largest value assembled in the array. */
    static final int ASSEMBLE_LIMIT = 4096;

    private static final byte[] VALUE = {'V', 'A', 'L', 'U', 'E', ' '};
    private static final byte[] TAIL = {'\r', '\n', 'E', 'N', 'D', '\r', '\n'};
    /** {@code VALUE }, two blanks, two decimals of at most 10 digits, CRLF after the header and the tail. */
    private static final int FIXED = VALUE.length + 2 + 20 + 2 + TAIL.length;

    private byte[] scratch = new byte[FIXED + 250 + 1024];

    /** {@code VALUE <key> <flags> <bytes>\r\n<data>\r\nEND\r\n}; flags printed unsigned; a new buffer for the caller. */
    public ByteBuf value(ByteBufAllocator alloc, byte[] key, int flags, byte[] value) {
        if (value.length > ASSEMBLE_LIMIT) {
            return ReplyWriter.value(alloc, key, flags, value);
        }
        int max = FIXED + key.length + value.length;
        if (scratch.length < max) {
            scratch = new byte[max];
        }
        byte[] out = scratch;
        System.arraycopy(VALUE, 0, out, 0, VALUE.length);
        int n = VALUE.length;
        System.arraycopy(key, 0, out, n, key.length);
        n += key.length;
        out[n++] = ' ';
        n = decimal(out, n, Integer.toUnsignedLong(flags));
        out[n++] = ' ';
        n = decimal(out, n, value.length);
        out[n++] = '\r';
        out[n++] = '\n';
        System.arraycopy(value, 0, out, n, value.length);
        n += value.length;
        System.arraycopy(TAIL, 0, out, n, TAIL.length);
        n += TAIL.length;
        return alloc.buffer(n).writeBytes(out, 0, n);
    }

    /** Writes {@code v >= 0} in ASCII decimal at {@code at}; returns the index after the last digit. */
    private static int decimal(byte[] out, int at, long v) {
        int digits = 1;
        for (long x = v; x >= 10; x /= 10) {
            digits++;
        }
        int end = at + digits;
        long x = v;
        for (int i = end - 1; i >= at; i--) {
            out[i] = (byte) ('0' + (int) (x % 10));
            x /= 10;
        }
        return end;
    }
}
