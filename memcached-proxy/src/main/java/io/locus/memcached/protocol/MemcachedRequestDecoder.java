package io.locus.memcached.protocol;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.ByteBufUtil;
import io.netty.channel.ChannelHandlerContext;
import io.netty.handler.codec.ByteToMessageDecoder;
import java.nio.charset.StandardCharsets;
import java.util.List;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Decodes a client's byte stream into {@link MemcachedRequest}s and {@link RequestError}s.
 *
 * <p>Guarantees: exactly one message per command line the client sent (so the proxy sends exactly one reply, or none
 * when the client asked for none); never buffers more than one line of {@link ProtocolLimits#maxLineBytes()} plus one
 * data block of {@link ProtocolLimits#maxItemSizeBytes()}; a malformed line costs the client one error reply and the
 * connection stays usable. The only input after which the stream is given up is a binary-protocol request (first byte
 * {@code 0x80}), which the proxy does not speak.
 */
/*
 * Design note. Where memcached 1.6 itself rejects a line, this decoder rejects it with memcached's words and follows
 * memcached's choice of what to do with the data block: a bad key or a bad number leaves the data block unread (it is
 * then parsed as the next command, as memcached does), while a too-large length skips the block. This is what keeps
 * the proxy byte-for-byte transparent, and what keeps each backend connection in step: the proxy only forwards lines
 * memcached would accept, so every forwarded request has exactly one reply.
 *
 * States: READ_LINE -> (READ_DATA | SKIP_DATA) -> READ_LINE; DISCARD_LINE skips the rest of an over-long line;
 * CLOSED swallows everything after binary-protocol input.
 */
public final class MemcachedRequestDecoder extends ByteToMessageDecoder {
    private static final Logger LOG = LoggerFactory.getLogger(MemcachedRequestDecoder.class);
    private static final byte BINARY_MAGIC = (byte) 0x80;
    private static final byte[] NOREPLY = "noreply".getBytes(StandardCharsets.US_ASCII);
    /**
     * memcached closes a connection whose partial line exceeds 2048 bytes unless it is a get, so the proxy never
     * forwards longer lines of other commands (it would lose every request pipelined on that backend connection).
     */
    static final int MAX_OTHER_LINE_BYTES = 2048;

    private enum State {
        READ_LINE,
        READ_DATA,
        SKIP_DATA,
        DISCARD_LINE,
        CLOSED
    }

    private final ProtocolLimits limits;
    private State state = State.READ_LINE;
    private boolean firstByte = true;
    /** Valid in READ_DATA: the parsed header waiting for its data block. */
    private PendingBlock pending;
    /** Valid in SKIP_DATA: bytes still to skip. */
    private long skipRemaining;

    private long requestCount;

    private final CommandLine tokens = new CommandLine();
    /** While a line is parsed: the cumulation, and where the line with its terminator lies in it. */
    private ByteBuf lineSource;

    private int lineStart;
    private int lineBytes;
    /**
     * Bytes of the incomplete line at the reader index already searched for its end: a get of 20,000 keys arrives in
     * dozens of reads, and searching it from its start at each one cost the I/O thread time quadratic in its length.
     */
    private int searched;

    private boolean lineVerbatim;

    public MemcachedRequestDecoder(ProtocolLimits limits) {
        this.limits = limits;
    }

    @Override
    protected void decode(ChannelHandlerContext ctx, ByteBuf in, List<Object> out) {
        while (in.isReadable()) {
            switch (state) {
                case READ_LINE -> {
                    if (!readLine(ctx, in, out)) {
                        return;
                    }
                }
                case READ_DATA -> {
                    if (!readData(in, out)) {
                        return;
                    }
                }
                case SKIP_DATA -> {
                    int n = (int) Math.min(skipRemaining, in.readableBytes());
                    in.skipBytes(n);
                    skipRemaining -= n;
                    if (skipRemaining == 0) {
                        state = State.READ_LINE;
                    }
                }
                case DISCARD_LINE -> {
                    int eol = in.indexOf(in.readerIndex(), in.writerIndex(), (byte) '\n');
                    if (eol < 0) {
                        in.skipBytes(in.readableBytes());
                        return;
                    }
                    in.readerIndex(eol + 1);
                    state = State.READ_LINE;
                }
                case CLOSED -> {
                    in.skipBytes(in.readableBytes());
                    return;
                }
                default -> throw new IllegalStateException("unknown state " + state);
            }
        }
    }

    /** Reads one command line; false if more bytes are needed. Reading: {@code <here>cmd args...\r\n[data\r\n]}. */
    private boolean readLine(ChannelHandlerContext ctx, ByteBuf in, List<Object> out) {
        if (firstByte) {
            firstByte = false;
            if (in.getByte(in.readerIndex()) == BINARY_MAGIC) {
                state = State.CLOSED;
                in.skipBytes(in.readableBytes());
                out.add(new RequestError(
                        "CLIENT_ERROR binary protocol is not supported",
                        false,
                        true,
                        "first byte 0x80 (binary protocol magic; expected: a text or meta command)"));
                return false;
            }
        }
        int start = in.readerIndex();
        int searchEnd = Math.min(in.writerIndex(), start + limits.maxLineBytes() + 2);
        int eol = in.indexOf(Math.min(start + searched, searchEnd), searchEnd, (byte) '\n');
        searched = eol < 0 ? searchEnd - start : 0;
        if (eol < 0) {
            if (in.readableBytes() > limits.maxLineBytes() + 1) {
                String detail = "line length > " + limits.maxLineBytes() + " bytes (expected: <= "
                        + limits.maxLineBytes() + ")";
                logBad(ctx, in, start, detail);
                in.skipBytes(searchEnd - start);
                searched = 0;
                state = State.DISCARD_LINE;
                out.add(RequestError.of("CLIENT_ERROR line too long", detail));
                return true;
            }
            return false;
        }
        int end = eol > start && in.getByte(eol - 1) == '\r' ? eol - 1 : eol;
        if (end - start > limits.maxLineBytes()) {
            String detail = "line length " + (end - start) + " bytes (expected: <= " + limits.maxLineBytes() + ")";
            logBad(ctx, in, start, detail);
            in.readerIndex(eol + 1);
            out.add(RequestError.of("CLIENT_ERROR line too long", detail));
            return true;
        }
        int length = end - start;
        // memcached reads the line as a C string: a NUL byte ends it.
        int nul = tokens.copy(in, start, length);
        lineSource = in;
        lineStart = start;
        lineBytes = eol + 1 - start;
        lineVerbatim = nul < 0;
        requestCount++;
        DecodedRequest parsed;
        try {
            parsed = parseLine(nul < 0 ? length : nul);
        } finally {
            lineSource = null;
        }
        in.readerIndex(eol + 1);
        if (parsed != null) {
            if (parsed instanceof RequestError e && LOG.isDebugEnabled()) {
                LOG.debug(
                        "request {} on {}: {} ({}); line: {}",
                        requestCount,
                        ctx.channel(),
                        e.replyLine(),
                        e.detail(),
                        Tokens.truncate(tokens.text(0, nul < 0 ? length : nul)));
            }
            out.add(parsed);
        }
        return true;
    }

    /** Reads the data block of the pending storage command: {@code cmd args\r\n<here>data\r\n}. */
    private boolean readData(ByteBuf in, List<Object> out) {
        if (in.readableBytes() < pending.length() + 2) {
            return false;
        }
        PendingBlock block = pending;
        pending = null;
        state = State.READ_LINE;
        int crlf = in.readerIndex() + block.length();
        if (in.getByte(crlf) != '\r' || in.getByte(crlf + 1) != '\n') {
            // memcached reads the declared length plus two bytes, then rejects the block; parsing resumes after them.
            in.skipBytes(block.length() + 2);
            out.add(block.unterminated());
            return true;
        }
        out.add(block.complete(in.readRetainedSlice(block.length() + 2)));
        return true;
    }

    /**
     * Parses the first {@code length} bytes of the command line; a request without data, an error, or null when a
     * data block must be read first.
     */
    private DecodedRequest parseLine(int length) {
        tokens.tokenize(length);
        if (tokens.count() == 0) {
            return RequestError.of(RequestError.ERROR, "empty line (expected: a command)");
        }
        Command command = tokens.command();
        if (command == null) {
            return RequestError.of(RequestError.ERROR, "unknown command \"" + Tokens.truncate(tokens.token(0)) + "\"");
        }
        int args = tokens.count() - 1;
        if (command.family() != Command.Family.RETRIEVAL && length > MAX_OTHER_LINE_BYTES) {
            return RequestError.of(
                    "CLIENT_ERROR line too long",
                    command.word() + " line of " + length + " bytes (expected: <= " + MAX_OTHER_LINE_BYTES
                            + " except for get/gets/gat/gats)");
        }
        return switch (command) {
            case GET, GETS -> retrieval(command, args, 0);
            case GAT, GATS -> gat(command, args);
            case SET, ADD, REPLACE, APPEND, PREPEND -> storage(command, args, 4);
            case CAS -> storage(command, args, 5);
            case DELETE -> keyed(command, args, 1, 3);
            case INCR, DECR, TOUCH -> keyed(command, args, 2, 3);
            case VERBOSITY -> counted(command, args, 1, 2);
            case FLUSH_ALL -> counted(command, args, 0, 2);
            case VERSION, STATS, QUIT, MN, DLCTX -> request(command, false);
            case MG, MD, MA, ME -> meta(command, args);
            case MS -> metaSet(args);
        };
    }

    /** The request for the line being parsed: its bytes retained from the cumulation, its token offsets. */
    private MemcachedRequest request(Command command, boolean quiet) {
        ByteBuf line = lineSource.retainedSlice(lineStart, lineBytes);
        MemcachedRequest r = new MemcachedRequest(command, line, tokens.argBounds(), null, quiet, lineVerbatim);
        r.firstKeyFrom(tokens.bytes());
        return r;
    }

    private DecodedRequest retrieval(Command command, int args, int firstKey) {
        if (args <= firstKey) {
            return RequestError.of(RequestError.ERROR, command.word() + " without a key (expected: at least one key)");
        }
        RequestError e = tokens.keyError(firstKey, args, limits.maxKeyBytes());
        return e != null ? e : request(command, false);
    }

    private DecodedRequest gat(Command command, int args) {
        if (args == 0) {
            return RequestError.of(
                    RequestError.ERROR, command.word() + " without an exptime (expected: <exptime> <key>*)");
        }
        if (!tokens.argIsInt32(0)) {
            return RequestError.of(
                    "CLIENT_ERROR invalid exptime argument",
                    "exptime \"" + Tokens.truncate(tokens.arg(0)) + "\" (expected: an integer)");
        }
        RequestError e = tokens.keyError(1, args, limits.maxKeyBytes());
        return e != null ? e : request(command, false);
    }

    /** {@code set <key> <flags> <exptime> <bytes> [noreply]}, and for cas one more number before noreply. */
    private DecodedRequest storage(Command command, int args, int required) {
        if (args != required && args != required + 1) {
            return RequestError.of(
                    RequestError.ERROR,
                    command.word() + " with " + args + " arguments (expected: " + required + " or " + (required + 1)
                            + ")");
        }
        boolean noreply = args == required + 1 && tokens.argIs(required, NOREPLY);
        RequestError e = tokens.keyError(0, limits.maxKeyBytes(), noreply);
        if (e != null) {
            return e;
        }
        if (!tokens.argIsUint64(1) || !tokens.argIsInt32(2) || (command == Command.CAS && !tokens.argIsUint64(4))) {
            return new RequestError(
                    RequestError.BAD_FORMAT,
                    noreply,
                    false,
                    "non-numeric flags, exptime or cas in \"" + Tokens.truncate(tokens.argsFrom(0)) + "\"");
        }
        return expectData(command, 3, noreply);
    }

    private DecodedRequest keyed(Command command, int args, int min, int max) {
        DecodedRequest counted = counted(command, args, min, max);
        if (counted instanceof RequestError) {
            return counted;
        }
        boolean noreply = ((MemcachedRequest) counted).quiet();
        RequestError e = tokens.keyError(0, limits.maxKeyBytes(), noreply);
        if (e != null) {
            ((MemcachedRequest) counted).release();
            return e;
        }
        return counted;
    }

    private DecodedRequest counted(Command command, int args, int min, int max) {
        if (args < min || args > max) {
            return RequestError.of(
                    RequestError.ERROR,
                    command.word() + " with " + args + " arguments (expected: " + min + ".." + max + ")");
        }
        boolean noreply = args > 0 && tokens.argIs(args - 1, NOREPLY);
        return request(command, noreply);
    }

    private DecodedRequest meta(Command command, int args) {
        if (args == 0) {
            return RequestError.of(RequestError.ERROR, command.word() + " without a key (expected: <key> <flag>*)");
        }
        RequestError e = tokens.keyError(0, limits.maxKeyBytes(), false);
        if (e != null) {
            return e;
        }
        return request(command, tokens.hasQuietFlag(1));
    }

    /** {@code ms <key> <datalen> <flag>*}. */
    private DecodedRequest metaSet(int args) {
        if (args == 0) {
            return RequestError.of(RequestError.ERROR, "ms without a key (expected: <key> <datalen> <flag>*)");
        }
        if (args < 2) {
            return RequestError.of(RequestError.BAD_FORMAT, "ms without a datalen (expected: <key> <datalen> <flag>*)");
        }
        RequestError e = tokens.keyError(0, limits.maxKeyBytes(), false);
        if (e != null) {
            return e;
        }
        return expectData(Command.MS, 1, tokens.hasQuietFlag(2));
    }

    /** Argument {@code lengthArg} is the data block's length. */
    private DecodedRequest expectData(Command command, int lengthArg, boolean quiet) {
        long length = tokens.argAsLength(lengthArg);
        boolean suppress = quiet && !command.isMeta();
        if (length < 0) {
            return new RequestError(
                    RequestError.BAD_FORMAT,
                    suppress,
                    false,
                    "data length \"" + Tokens.truncate(tokens.arg(lengthArg)) + "\" (expected: an integer 0.."
                            + Integer.MAX_VALUE + ")");
        }
        if (length > limits.maxItemSizeBytes()) {
            state = State.SKIP_DATA;
            skipRemaining = length + 2;
            return new RequestError(
                    RequestError.TOO_LARGE,
                    suppress,
                    false,
                    "data length " + length + " bytes (expected: <= " + limits.maxItemSizeBytes() + ")");
        }
        state = State.READ_DATA;
        pending = new PendingBlock(
                command, lineSource.retainedSlice(lineStart, lineBytes), tokens.argBounds(), quiet, lineVerbatim, (int)
                        length);
        return null;
    }

    private void logBad(ChannelHandlerContext ctx, ByteBuf in, int start, String detail) {
        if (LOG.isDebugEnabled()) {
            LOG.debug(
                    "request {} on {} in state {}: {}\n{}",
                    requestCount + 1,
                    ctx.channel(),
                    state,
                    detail,
                    ByteBufUtil.prettyHexDump(in, start, Math.min(256, in.writerIndex() - start)));
        }
    }

    @Override
    protected void handlerRemoved0(ChannelHandlerContext ctx) {
        if (pending != null) {
            pending.line().release();
            pending = null;
        }
    }
}
