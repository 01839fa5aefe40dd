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
    private Command pendingCommand;

    private List<String> pendingArgs;
    private boolean pendingQuiet;
    private int pendingLength;
    /** Valid in SKIP_DATA: bytes still to skip. */
    private long skipRemaining;

    private long requestCount;

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
        int eol = in.indexOf(start, searchEnd, (byte) '\n');
        if (eol < 0) {
            if (in.readableBytes() > limits.maxLineBytes() + 1) {
                String detail = "line length > " + limits.maxLineBytes() + " bytes (expected: <= "
                        + limits.maxLineBytes() + ")";
                logBad(ctx, in, start, detail);
                in.skipBytes(searchEnd - start);
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
        // memcached reads the line as a C string: a NUL byte ends it.
        int nul = in.indexOf(start, end, (byte) 0);
        String line = in.toString(start, (nul < 0 ? end : nul) - start, StandardCharsets.ISO_8859_1);
        in.readerIndex(eol + 1);
        requestCount++;
        DecodedRequest parsed = parseLine(line);
        if (parsed != null) {
            if (parsed instanceof RequestError e && LOG.isDebugEnabled()) {
                LOG.debug(
                        "request {} on {}: {} ({}); line: {}",
                        requestCount,
                        ctx.channel(),
                        e.replyLine(),
                        e.detail(),
                        Tokens.truncate(line));
            }
            out.add(parsed);
        }
        return true;
    }

    /** Reads the data block of the pending storage command: {@code cmd args\r\n<here>data\r\n}. */
    private boolean readData(ByteBuf in, List<Object> out) {
        if (in.readableBytes() < pendingLength + 2) {
            return false;
        }
        int crlf = in.readerIndex() + pendingLength;
        boolean terminated = in.getByte(crlf) == '\r' && in.getByte(crlf + 1) == '\n';
        state = State.READ_LINE;
        if (!terminated) {
            // memcached reads the declared length plus two bytes, then rejects the block; parsing resumes after them.
            in.skipBytes(pendingLength + 2);
            boolean suppressed = pendingQuiet && !pendingCommand.isMeta();
            out.add(new RequestError(
                    RequestError.BAD_DATA_CHUNK,
                    suppressed,
                    false,
                    "data block of " + pendingCommand.word() + " not terminated by \\r\\n after " + pendingLength
                            + " bytes (expected: exactly the declared length)"));
            return true;
        }
        ByteBuf data = in.readRetainedSlice(pendingLength);
        in.skipBytes(2);
        out.add(new MemcachedRequest(pendingCommand, pendingArgs, data, pendingQuiet));
        pendingArgs = null;
        return true;
    }

    /** Parses a command line; a request without data, an error, or null when a data block must be read first. */
    private DecodedRequest parseLine(String line) {
        List<String> tokens = Tokens.tokenize(line);
        if (tokens.isEmpty()) {
            return RequestError.of(RequestError.ERROR, "empty line (expected: a command)");
        }
        Command command = Command.lookup(tokens.get(0));
        if (command == null) {
            return RequestError.of(RequestError.ERROR, "unknown command \"" + Tokens.truncate(tokens.get(0)) + "\"");
        }
        List<String> args = tokens.subList(1, tokens.size());
        if (command.family() != Command.Family.RETRIEVAL && line.length() > MAX_OTHER_LINE_BYTES) {
            return RequestError.of(
                    "CLIENT_ERROR line too long",
                    command.word() + " line of " + line.length() + " bytes (expected: <= " + MAX_OTHER_LINE_BYTES
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
            case VERSION, STATS, QUIT, MN, DLCTX -> new MemcachedRequest(command, args, null, false);
            case MG, MD, MA, ME -> meta(command, args);
            case MS -> metaSet(args);
        };
    }

    private DecodedRequest retrieval(Command command, List<String> args, int firstKey) {
        if (args.size() <= firstKey) {
            return RequestError.of(RequestError.ERROR, command.word() + " without a key (expected: at least one key)");
        }
        for (int i = firstKey; i < args.size(); i++) {
            RequestError e = checkKey(args.get(i), false);
            if (e != null) {
                return e;
            }
        }
        return new MemcachedRequest(command, args, null, false);
    }

    private DecodedRequest gat(Command command, List<String> args) {
        if (args.isEmpty()) {
            return RequestError.of(
                    RequestError.ERROR, command.word() + " without an exptime (expected: <exptime> <key>*)");
        }
        if (!Tokens.isInt32(args.get(0))) {
            return RequestError.of(
                    "CLIENT_ERROR invalid exptime argument",
                    "exptime \"" + Tokens.truncate(args.get(0)) + "\" (expected: an integer)");
        }
        for (int i = 1; i < args.size(); i++) {
            RequestError e = checkKey(args.get(i), false);
            if (e != null) {
                return e;
            }
        }
        return new MemcachedRequest(command, args, null, false);
    }

    /** {@code set <key> <flags> <exptime> <bytes> [noreply]}, and for cas one more number before noreply. */
    private DecodedRequest storage(Command command, List<String> args, int required) {
        if (args.size() != required && args.size() != required + 1) {
            return RequestError.of(
                    RequestError.ERROR,
                    command.word() + " with " + args.size() + " arguments (expected: " + required + " or "
                            + (required + 1) + ")");
        }
        boolean noreply = args.size() == required + 1 && "noreply".equals(args.get(required));
        RequestError e = checkKey(args.get(0), noreply);
        if (e != null) {
            return e;
        }
        if (!Tokens.isUint64(args.get(1))
                || !Tokens.isInt32(args.get(2))
                || (command == Command.CAS && !Tokens.isUint64(args.get(4)))) {
            return new RequestError(
                    RequestError.BAD_FORMAT,
                    noreply,
                    false,
                    "non-numeric flags, exptime or cas in \"" + Tokens.truncate(String.join(" ", args)) + "\"");
        }
        return expectData(command, args, args.get(3), noreply);
    }

    private DecodedRequest keyed(Command command, List<String> args, int min, int max) {
        DecodedRequest counted = counted(command, args, min, max);
        if (counted instanceof RequestError) {
            return counted;
        }
        boolean noreply = ((MemcachedRequest) counted).quiet();
        RequestError e = checkKey(args.get(0), noreply);
        return e != null ? e : counted;
    }

    private static DecodedRequest counted(Command command, List<String> args, int min, int max) {
        if (args.size() < min || args.size() > max) {
            return RequestError.of(
                    RequestError.ERROR,
                    command.word() + " with " + args.size() + " arguments (expected: " + min + ".." + max + ")");
        }
        boolean noreply = !args.isEmpty() && "noreply".equals(args.get(args.size() - 1));
        return new MemcachedRequest(command, args, null, noreply);
    }

    private DecodedRequest meta(Command command, List<String> args) {
        if (args.isEmpty()) {
            return RequestError.of(RequestError.ERROR, command.word() + " without a key (expected: <key> <flag>*)");
        }
        RequestError e = checkKey(args.get(0), false);
        if (e != null) {
            return e;
        }
        return new MemcachedRequest(command, args, null, hasQuietFlag(args, 1));
    }

    /** {@code ms <key> <datalen> <flag>*}. */
    private DecodedRequest metaSet(List<String> args) {
        if (args.isEmpty()) {
            return RequestError.of(RequestError.ERROR, "ms without a key (expected: <key> <datalen> <flag>*)");
        }
        if (args.size() < 2) {
            return RequestError.of(RequestError.BAD_FORMAT, "ms without a datalen (expected: <key> <datalen> <flag>*)");
        }
        RequestError e = checkKey(args.get(0), false);
        if (e != null) {
            return e;
        }
        return expectData(Command.MS, args, args.get(1), hasQuietFlag(args, 2));
    }

    private DecodedRequest expectData(Command command, List<String> args, String lengthToken, boolean quiet) {
        long length = Tokens.parseLength(lengthToken);
        boolean suppress = quiet && !command.isMeta();
        if (length < 0) {
            return new RequestError(
                    RequestError.BAD_FORMAT,
                    suppress,
                    false,
                    "data length \"" + Tokens.truncate(lengthToken) + "\" (expected: an integer 0.." + Integer.MAX_VALUE
                            + ")");
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
        pendingCommand = command;
        pendingArgs = List.copyOf(args);
        pendingQuiet = quiet;
        pendingLength = (int) length;
        return null;
    }

    private RequestError checkKey(String key, boolean suppressed) {
        if (key.length() > limits.maxKeyBytes()) {
            return new RequestError(
                    RequestError.BAD_FORMAT,
                    suppressed,
                    false,
                    "key length " + key.length() + " bytes (expected: <= " + limits.maxKeyBytes() + "): \""
                            + Tokens.truncate(key) + "\"");
        }
        return null;
    }

    private static boolean hasQuietFlag(List<String> args, int firstFlag) {
        for (int i = firstFlag; i < args.size(); i++) {
            if (args.get(i).charAt(0) == 'q') { // memcached reads a flag by its first char
                return true;
            }
        }
        return false;
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
        pendingArgs = null;
    }
}
