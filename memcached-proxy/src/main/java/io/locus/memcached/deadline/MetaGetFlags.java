package io.locus.memcached.deadline;

import io.locus.memcached.protocol.MetaFlags;
import io.locus.memcached.protocol.ReplyWriter;
import io.netty.buffer.ByteBuf;
import io.netty.buffer.ByteBufAllocator;

/**
 * The {@code mg} requests the in-proxy cache can answer byte for byte as memcached 1.6 would: flags drawn from
 * {@code v f k s q O<opaque>}, each at most once, the opaque at most {@value #MAX_OPAQUE_BYTES} bytes with its
 * {@code O}. Anything else ({@code c} needs the backend's cas unique, {@code t} its clock, {@code h l} its access
 * history, {@code T N E R} change the item, {@code b} encodes the key) goes to the backend untouched.
 *
 * <p>memcached echoes the return flags in request order: on a hit {@code f k s O}, on a miss only {@code k O};
 * {@code q} hides the {@code EN} of a miss, never a hit or an error. The flags are read in the request's line (the
 * opaque is copied from there into the reply): the request must outlive the replies built here.
 */
public final class MetaGetFlags {
    private static final byte[] VA = {'V', 'A', ' '};
    private static final byte[] HD = {'H', 'D'};
    private static final byte[] EN = {'E', 'N'};
    private static final byte[] F = {' ', 'f'};
    private static final byte[] K = {' ', 'k'};
    private static final byte[] S = {' ', 's'};
    private static final byte[] CRLF = {'\r', '\n'};

    /** memcached's longest opaque token, its {@code O} included. */
    static final int MAX_OPAQUE_BYTES = 32;

    private final boolean value;
    private final boolean quiet;
    private final MetaFlags flags;

    private MetaGetFlags(MetaFlags flags, boolean value, boolean quiet) {
        this.flags = flags;
        this.value = value;
        this.quiet = quiet;
    }

    /** Whether the client asked for the value ({@code v}). */
    boolean value() {
        return value;
    }

    /** Whether a miss answers nothing ({@code q}). */
    boolean quiet() {
        return quiet;
    }

    /** The flags if the cache can answer the request, else null. */
    public static MetaGetFlags parse(MetaFlags flags) {
        boolean value = false;
        boolean quiet = false;
        int seen = 0;
        for (int i = 0; i < flags.count(); i++) {
            int c = flags.letter(i);
            int bit = switch (c) {
                case 'v' -> 1;
                case 'f' -> 2;
                case 'k' -> 4;
                case 's' -> 8;
                case 'q' -> 16;
                case 'O' -> 32;
                default -> -1;
            };
            int length = flags.length(i);
            if (bit < 0 || (seen & bit) != 0 || (c != 'O' && length != 1) || length > MAX_OPAQUE_BYTES) {
                return null;
            }
            seen |= bit;
            value |= c == 'v';
            quiet |= c == 'q';
        }
        return new MetaGetFlags(flags, value, quiet);
    }

    /**
     * The reply to a hit: {@code VA <n> ...\r\n<data>\r\n} or {@code HD ...\r\n}, the key echoed as its bytes.
     *
     * @return a new buffer owned by the caller
     */
    public ByteBuf hit(ByteBufAllocator alloc, byte[] key, int clientFlags, byte[] value) {
        ByteBuf b = alloc.buffer(80 + key.length + (this.value ? value.length : 0));
        if (this.value) {
            b.writeBytes(VA);
            ReplyWriter.writeDecimal(b, value.length);
        } else {
            b.writeBytes(HD);
        }
        for (int i = 0; i < flags.count(); i++) {
            switch (flags.letter(i)) {
                case 'f' -> {
                    b.writeBytes(F);
                    ReplyWriter.writeDecimal(b, Integer.toUnsignedLong(clientFlags));
                }
                case 'k' -> b.writeBytes(K).writeBytes(key);
                case 's' -> {
                    b.writeBytes(S);
                    ReplyWriter.writeDecimal(b, value.length);
                }
                case 'O' -> flags.writeFlag(b.writeByte(' '), i);
                default -> {} // v and q are not echoed
            }
        }
        b.writeBytes(CRLF);
        if (this.value) {
            b.writeBytes(value).writeBytes(CRLF);
        }
        return b;
    }

    /**
     * The reply to a miss, {@code EN ...\r\n}, the key echoed as its bytes; callers send nothing when {@link #quiet}.
     *
     * @return a new buffer owned by the caller
     */
    ByteBuf miss(ByteBufAllocator alloc, byte[] key) {
        ByteBuf b = alloc.buffer(48 + key.length);
        b.writeBytes(EN);
        for (int i = 0; i < flags.count(); i++) {
            switch (flags.letter(i)) {
                case 'k' -> b.writeBytes(K).writeBytes(key);
                case 'O' -> flags.writeFlag(b.writeByte(' '), i);
                default -> {}
            }
        }
        return b.writeBytes(CRLF);
    }
}
