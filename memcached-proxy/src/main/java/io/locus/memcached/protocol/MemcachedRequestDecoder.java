package io.locus.memcached.protocol;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.ByteBufUtil;
import io.netty.channel.ChannelHandlerContext;
import io.netty.handler.codec.ByteToMessageDecoder;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Arrays;
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
    private Command pendingCommand;

    /** Valid in READ_DATA: the header's line (retained) and token offsets. */
    private ByteBuf pendingLine;

    private int[] pendingTokens;
    private boolean pendingVerbatim;
    private boolean pendingQuiet;
    private int pendingLength;
    /** Valid in SKIP_DATA: bytes still to skip. */
    private long skipRemaining;

    private long requestCount;

    /** The line being parsed, copied out of the cumulation once (the parser then reads an array, not a buffer). */
    private byte[] text = new byte[256];
    /** Start and end offsets in {@link #text} of each token, the command word first. */
    private int[] bounds = new int[32];

    private int tokenCount;
    /** While a line is parsed: the cumulation, and where the line with its terminator lies in it. */
    private ByteBuf lineSource;

    private int lineStart;
    private int lineBytes;
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
        int length = end - start;
        if (text.length < length) {
            text = new byte[Math.max(length, 2 * text.length)];
        }
        in.getBytes(start, text, 0, length);
        // memcached reads the line as a C string: a NUL byte ends it.
        int nul = indexOf(text, length, (byte) 0);
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
                        truncate(new String(text, 0, nul < 0 ? length : nul, StandardCharsets.ISO_8859_1)));
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
        ByteBuf line = pendingLine;
        pendingLine = null;
        if (!terminated) {
            line.release();
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
        ByteBuf block = in.readRetainedSlice(pendingLength + 2);
        out.add(new MemcachedRequest(pendingCommand, line, pendingTokens, block, pendingQuiet, pendingVerbatim));
        pendingTokens = null;
        return true;
    }

    /**
     * Parses the command line in {@link #text}{@code [0, length)}; a request without data, an error, or null when a
     * data block must be read first.
     */
    private DecodedRequest parseLine(int length) {
        tokenize(length);
        if (tokenCount == 0) {
            return RequestError.of(RequestError.ERROR, "empty line (expected: a command)");
        }
        Command command = Command.lookup(text, bounds[0], bounds[1]);
        if (command == null) {
            return RequestError.of(RequestError.ERROR, "unknown command \"" + truncate(token(0)) + "\"");
        }
        int args = tokenCount - 1;
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

    /** Argument {@code i} (0 = the first token after the command word) as an ISO-8859-1 string, for messages. */
    private String arg(int i) {
        return token(i + 1);
    }

    private String token(int t) {
        return new String(text, bounds[2 * t], bounds[2 * t + 1] - bounds[2 * t], StandardCharsets.ISO_8859_1);
    }

    private int argLength(int i) {
        return bounds[2 * i + 3] - bounds[2 * i + 2];
    }

    private boolean argIs(int i, byte[] word) {
        return Arrays.equals(text, bounds[2 * i + 2], bounds[2 * i + 3], word, 0, word.length);
    }

    /** The request for the line being parsed: its bytes retained from the cumulation, its token offsets. */
    private MemcachedRequest request(Command command, boolean quiet) {
        ByteBuf line = lineSource.retainedSlice(lineStart, lineBytes);
        return new MemcachedRequest(command, line, argBounds(), null, quiet, lineVerbatim);
    }

    private int[] argBounds() {
        return Arrays.copyOfRange(bounds, 2, 2 * tokenCount);
    }

    private DecodedRequest retrieval(Command command, int args, int firstKey) {
        if (args <= firstKey) {
            return RequestError.of(RequestError.ERROR, command.word() + " without a key (expected: at least one key)");
        }
        for (int i = firstKey; i < args; i++) {
            RequestError e = checkKey(i, false);
            if (e != null) {
                return e;
            }
        }
        return request(command, false);
    }

    private DecodedRequest gat(Command command, int args) {
        if (args == 0) {
            return RequestError.of(
                    RequestError.ERROR, command.word() + " without an exptime (expected: <exptime> <key>*)");
        }
        if (!isInt32(text, bounds[2], bounds[3])) {
            return RequestError.of(
                    "CLIENT_ERROR invalid exptime argument",
                    "exptime \"" + truncate(arg(0)) + "\" (expected: an integer)");
        }
        for (int i = 1; i < args; i++) {
            RequestError e = checkKey(i, false);
            if (e != null) {
                return e;
            }
        }
        return request(command, false);
    }

    /** {@code set <key> <flags> <exptime> <bytes> [noreply]}, and for cas one more number before noreply. */
    private DecodedRequest storage(Command command, int args, int required) {
        if (args != required && args != required + 1) {
            return RequestError.of(
                    RequestError.ERROR,
                    command.word() + " with " + args + " arguments (expected: " + required + " or " + (required + 1)
                            + ")");
        }
        boolean noreply = args == required + 1 && argIs(required, NOREPLY);
        RequestError e = checkKey(0, noreply);
        if (e != null) {
            return e;
        }
        if (!isUint64(text, bounds[4], bounds[5])
                || !isInt32(text, bounds[6], bounds[7])
                || (command == Command.CAS && !isUint64(text, bounds[10], bounds[11]))) {
            return new RequestError(
                    RequestError.BAD_FORMAT,
                    noreply,
                    false,
                    "non-numeric flags, exptime or cas in \""
                            + truncate(new String(
                                    text,
                                    bounds[2],
                                    bounds[2 * tokenCount - 1] - bounds[2],
                                    StandardCharsets.ISO_8859_1))
                            + "\"");
        }
        return expectData(command, 3, noreply);
    }

    private DecodedRequest keyed(Command command, int args, int min, int max) {
        DecodedRequest counted = counted(command, args, min, max);
        if (counted instanceof RequestError) {
            return counted;
        }
        boolean noreply = ((MemcachedRequest) counted).quiet();
        RequestError e = checkKey(0, noreply);
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
        boolean noreply = args > 0 && argIs(args - 1, NOREPLY);
        return request(command, noreply);
    }

    private DecodedRequest meta(Command command, int args) {
        if (args == 0) {
            return RequestError.of(RequestError.ERROR, command.word() + " without a key (expected: <key> <flag>*)");
        }
        RequestError e = checkKey(0, false);
        if (e != null) {
            return e;
        }
        return request(command, hasQuietFlag(args, 1));
    }

    /** {@code ms <key> <datalen> <flag>*}. */
    private DecodedRequest metaSet(int args) {
        if (args == 0) {
            return RequestError.of(RequestError.ERROR, "ms without a key (expected: <key> <datalen> <flag>*)");
        }
        if (args < 2) {
            return RequestError.of(RequestError.BAD_FORMAT, "ms without a datalen (expected: <key> <datalen> <flag>*)");
        }
        RequestError e = checkKey(0, false);
        if (e != null) {
            return e;
        }
        return expectData(Command.MS, 1, hasQuietFlag(args, 2));
    }

    /** Argument {@code lengthArg} is the data block's length. */
    private DecodedRequest expectData(Command command, int lengthArg, boolean quiet) {
        long length = parseLength(text, bounds[2 * lengthArg + 2], bounds[2 * lengthArg + 3]);
        boolean suppress = quiet && !command.isMeta();
        if (length < 0) {
            return new RequestError(
                    RequestError.BAD_FORMAT,
                    suppress,
                    false,
                    "data length \"" + truncate(arg(lengthArg)) + "\" (expected: an integer 0.." + Integer.MAX_VALUE
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
        pendingLine = lineSource.retainedSlice(lineStart, lineBytes);
        pendingTokens = argBounds();
        pendingVerbatim = lineVerbatim;
        pendingQuiet = quiet;
        pendingLength = (int) length;
        return null;
    }

    private RequestError checkKey(int arg, boolean suppressed) {
        int length = argLength(arg);
        if (length > limits.maxKeyBytes()) {
            return new RequestError(
                    RequestError.BAD_FORMAT,
                    suppressed,
                    false,
                    "key length " + length + " bytes (expected: <= " + limits.maxKeyBytes() + "): \""
                            + truncate(arg(arg)) + "\"");
        }
        return null;
    }

    private boolean hasQuietFlag(int args, int firstFlag) {
        for (int i = firstFlag; i < args; i++) {
            if (text[bounds[2 * i + 2]] == 'q') { // memcached reads a flag by its first char
                return true;
            }
        }
        return false;
    }

    /** Splits {@link #text}{@code [0, length)} on runs of spaces, as memcached does (a tab is part of a token). */
    private void tokenize(int length) {
        tokenCount = 0;
        int i = 0;
        while (i < length) {
            while (i < length && text[i] == ' ') {
                i++;
            }
            int s = i;
            while (i < length && text[i] != ' ') {
                i++;
            }
            if (i > s) {
                if (bounds.length < 2 * tokenCount + 2) {
                    bounds = Arrays.copyOf(bounds, 2 * bounds.length);
                }
                bounds[2 * tokenCount] = s;
                bounds[2 * tokenCount + 1] = i;
                tokenCount++;
            }
        }
    }

    /** The tokens of {@code line} as {@link #tokenize(int)} splits them. */
    static List<String> tokenize(String line) {
        MemcachedRequestDecoder d = new MemcachedRequestDecoder(ProtocolLimits.DEFAULTS);
        d.text = line.getBytes(StandardCharsets.ISO_8859_1);
        d.tokenize(d.text.length);
        List<String> tokens = new ArrayList<>(d.tokenCount);
        for (int t = 0; t < d.tokenCount; t++) {
            tokens.add(d.token(t));
        }
        return tokens;
    }

    private static int indexOf(byte[] b, int length, byte value) {
        for (int i = 0; i < length; i++) {
            if (b[i] == value) {
                return i;
            }
        }
        return -1;
    }

    /** A non-negative decimal length up to {@link Integer#MAX_VALUE}, or -1. */
    static long parseLength(byte[] b, int from, int to) {
        if (from < to && b[from] == '+') {
            from++;
        }
        if (from == to || to - from > 10) {
            return -1;
        }
        long v = 0;
        for (int i = from; i < to; i++) {
            byte c = b[i];
            if (c < '0' || c > '9') {
                return -1;
            }
            v = v * 10 + (c - '0');
        }
        return v > Integer.MAX_VALUE ? -1 : v;
    }

    /** As memcached's safe_strtoul/strtoull: optional '+', decimal digits, value below 2^64, no '-'. */
    static boolean isUint64(byte[] b, int from, int to) {
        int d = from < to && b[from] == '+' ? from + 1 : from;
        if (!allDigits(b, d, to)) {
            return false;
        }
        if (to - d < 20) {
            return true; // below 10^19 < 2^64
        }
        return new java.math.BigInteger(new String(b, d, to - d, StandardCharsets.US_ASCII)).bitLength() <= 64;
    }

    static boolean isUint64(String s) {
        byte[] b = s.getBytes(StandardCharsets.ISO_8859_1);
        return isUint64(b, 0, b.length);
    }

    /** As memcached's safe_strtol: optional sign, decimal digits, value within a 32-bit int. */
    static boolean isInt32(byte[] b, int from, int to) {
        boolean negative = from < to && b[from] == '-';
        int d = from < to && (b[from] == '+' || negative) ? from + 1 : from;
        if (!allDigits(b, d, to) || to - d > 12) {
            return false;
        }
        long v = 0;
        for (int i = d; i < to; i++) {
            v = v * 10 + (b[i] - '0');
        }
        return negative ? v <= 1L + Integer.MAX_VALUE : v <= Integer.MAX_VALUE;
    }

    static boolean isInt32(String s) {
        byte[] b = s.getBytes(StandardCharsets.ISO_8859_1);
        return isInt32(b, 0, b.length);
    }

    private static boolean allDigits(byte[] b, int from, int to) {
        if (from == to || to - from > 40) {
            return false;
        }
        for (int i = from; i < to; i++) {
            if (b[i] < '0' || b[i] > '9') {
                return false;
            }
        }
        return true;
    }

    private static String truncate(String s) {
        return s.length() <= 64 ? s : s.substring(0, 64) + "...(" + s.length() + " chars)";
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
        if (pendingLine != null) {
            pendingLine.release();
            pendingLine = null;
        }
    }
}
