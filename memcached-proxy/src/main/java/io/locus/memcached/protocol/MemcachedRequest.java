package io.locus.memcached.protocol;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.ByteBufAllocator;
import io.netty.buffer.CompositeByteBuf;
import io.netty.util.AbstractReferenceCounted;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

/**
 * One well-formed client request: a {@link Command}, its tokens, and for storage commands the data block.
 *
 * <p>A decoded request keeps the client's bytes: a retained slice of its command line and of its data block, with
 * the position of each token in the line. Keys are read from there as bytes ({@link #keyBytes(int)},
 * {@link #keySlice(int)}), the request can be forwarded as the client sent it ({@link #original()}), and tokens become
 * ISO-8859-1 strings ({@link #args()}, every byte of a key survives unchanged) only when asked for. The request owns
 * these buffers: whoever handles the request last must {@link #release()} it (Netty's rule for reference-counted
 * objects). The data block excludes the trailing {@code \r\n}.
 */
public final class MemcachedRequest extends AbstractReferenceCounted implements DecodedRequest {
    private final Command command;
    /** The command line with its terminator: the client's, or one the proxy wrote ({@link #withKey}). */
    private final ByteBuf line;
    /** Start and end offsets in {@link #line} of each token after the command word. */
    private final int[] tokens;
    /** The data block and the {@code \r\n} after it as the client sent them, or null. */
    private final ByteBuf block;

    private final ByteBuf data;
    private final boolean quiet;
    /** Whether {@link #line} says exactly what was parsed (memcached ends a line at a NUL byte; the decoder too). */
    private final boolean verbatim;

    private List<String> args;
    private byte[] firstKey;
    private MetaFlags metaFlags;

    /**
     * A request as the decoder read it; ownership of {@code line} and {@code block} passes to this request.
     *
     * @param tokens start and end offsets in {@code line} of each token after the command word
     * @param block the data block followed by its {@code \r\n}, or null
     */
    MemcachedRequest(Command command, ByteBuf line, int[] tokens, ByteBuf block, boolean quiet, boolean verbatim) {
        this.command = command;
        this.line = line;
        this.tokens = tokens;
        this.block = block;
        this.data = block == null ? null : block.slice(block.readerIndex(), block.readableBytes() - 2);
        this.quiet = quiet;
        this.verbatim = verbatim;
    }

    /**
     * A request the proxy builds, {@code <command> <key> <tail...>\r\n}, held as a line like a client's: its key stays
     * the given bytes end to end and it is forwarded as written.
     *
     * @param key the key's bytes, copied
     * @param tail the tokens after the key
     */
    public static MemcachedRequest withKey(ByteBufAllocator alloc, Command command, byte[] key, List<String> tail) {
        String word = command.word();
        int length = word.length() + 1 + key.length + 2;
        for (String t : tail) {
            length += t.length() + 1;
        }
        ByteBuf line = alloc.buffer(length);
        int[] tokens = new int[2 * (1 + tail.size())];
        line.writeCharSequence(word, StandardCharsets.ISO_8859_1);
        line.writeByte(' ');
        tokens[0] = line.writerIndex();
        line.writeBytes(key);
        tokens[1] = line.writerIndex();
        for (int i = 0; i < tail.size(); i++) {
            line.writeByte(' ');
            tokens[2 * i + 2] = line.writerIndex();
            line.writeCharSequence(tail.get(i), StandardCharsets.ISO_8859_1);
            tokens[2 * i + 3] = line.writerIndex();
        }
        line.writeByte('\r').writeByte('\n');
        return new MemcachedRequest(command, line, tokens, null, false, true);
    }

    public Command command() {
        return command;
    }

    /** How many tokens follow the command word; {@link #args()} without making them strings. */
    public int argCount() {
        return tokenCount();
    }

    /** The tokens from the {@code from}-th on as ISO-8859-1 strings, the ones before left as bytes. */
    public List<String> argsFrom(int from) {
        int n = tokenCount();
        if (from >= n) {
            return List.of();
        }
        if (args != null) {
            return args.subList(from, n);
        }
        List<String> a = new ArrayList<>(n - from);
        for (int t = from; t < n; t++) {
            a.add(token(t));
        }
        return a;
    }

    /** Token {@code i} after the command word as a slice of the client's line: not retained, valid while this is. */
    public ByteBuf argSlice(int i) {
        return line.slice(line.readerIndex() + tokens[2 * i], tokens[2 * i + 1] - tokens[2 * i]);
    }

    /** The tokens after the command word, in order, unchanged, as ISO-8859-1 strings (made on the first call). */
    public List<String> args() {
        if (args == null) {
            List<String> a = new ArrayList<>(tokens.length / 2);
            for (int t = 0; t < tokens.length; t += 2) {
                a.add(token(t / 2));
            }
            args = List.copyOf(a);
        }
        return args;
    }

    /** The data block without {@code \r\n}, or {@code null}; still owned by this request. */
    public ByteBuf data() {
        return data;
    }

    /** Whether the client asked not to hear about success ({@code noreply}, meta {@code q}). */
    public boolean quiet() {
        return quiet;
    }

    /** The keys of a retrieval command, in request order (duplicates kept); the single key otherwise. */
    public List<String> keys() {
        List<String> a = args();
        return switch (command) {
            case GET, GETS -> a;
            case GAT, GATS -> a.subList(1, a.size());
            default -> a.isEmpty() ? List.of() : List.of(a.get(0));
        };
    }

    /** The first key, or {@code null} for commands without a key. */
    public String key() {
        return keyCount() == 0 ? null : token(firstKeyToken());
    }

    /** How many keys {@link #keys()} has. */
    public int keyCount() {
        int n = tokenCount();
        return switch (command) {
            case GET, GETS -> n;
            case GAT, GATS -> Math.max(0, n - 1);
            default -> Math.min(n, 1);
        };
    }

    /**
     * Takes the first key's bytes from the decoder's copy of the line ({@code lineText}, indexed like {@link #line}),
     * where they cost an array copy instead of another read of the line's (direct) buffer.
     */
    void firstKeyFrom(byte[] lineText) {
        if (keyCount() > 0) {
            int t = firstKeyToken();
            firstKey = Arrays.copyOfRange(lineText, tokens[2 * t], tokens[2 * t + 1]);
        }
    }

    /** Key {@code i}'s bytes, a new array (the first key's is made once); the proxy's cache and ring key on these. */
    public byte[] keyBytes(int i) {
        if (i == 0 && firstKey != null) {
            return firstKey;
        }
        byte[] k;
        int t = firstKeyToken() + i;
        k = new byte[tokens[2 * t + 1] - tokens[2 * t]];
        line.getBytes(line.readerIndex() + tokens[2 * t], k);
        if (i == 0) {
            firstKey = k;
        }
        return k;
    }

    /**
     * The flags after a meta command's key (after {@code ms}'s datalen) in this request's line, made on the first call;
     * valid while this request is. The hint tokens are hidden once the tenant resolver has found them.
     *
     * @throws IllegalStateException for a command that is not a meta command
     */
    public MetaFlags metaFlags() {
        if (!command.isMeta()) {
            throw new IllegalStateException(command.word() + " is not a meta command: it has no meta flags");
        }
        if (metaFlags == null) {
            metaFlags = new MetaFlags(line, tokens, command == Command.MS ? 2 : 1);
        }
        return metaFlags;
    }

    /** The first key's bytes, or {@code null} for commands without a key. */
    public byte[] keyBytes() {
        return keyCount() == 0 ? null : keyBytes(0);
    }

    /** Key {@code i} as a slice of the client's line: not retained, valid while this request is. */
    public ByteBuf keySlice(int i) {
        return argSlice(firstKeyToken() + i);
    }

    /**
     * The request exactly as the client sent it (command line, data block and its {@code \r\n}), retained for the
     * caller; or null when the proxy built the request or the line holds a byte memcached would not read (NUL).
     */
    public ByteBuf original() {
        if (!verbatim) {
            return null;
        }
        if (block == null) {
            return line.retainedDuplicate();
        }
        CompositeByteBuf all = line.alloc().compositeBuffer(2);
        return all.addComponents(true, line.retainedDuplicate(), block.retainedDuplicate());
    }

    private int tokenCount() {
        return tokens.length / 2;
    }

    private int firstKeyToken() {
        return command == Command.GAT || command == Command.GATS ? 1 : 0;
    }

    private String token(int t) {
        int from = tokens[2 * t];
        return line.toString(line.readerIndex() + from, tokens[2 * t + 1] - from, StandardCharsets.ISO_8859_1);
    }

    @Override
    protected void deallocate() {
        line.release();
        if (block != null) {
            block.release();
        }
    }

    @Override
    public MemcachedRequest touch(Object hint) {
        line.touch(hint);
        if (data != null) {
            data.touch(hint);
        }
        return this;
    }

    @Override
    public String toString() {
        return command.word() + " " + String.join(" ", args())
                + (data == null ? "" : " <" + data.readableBytes() + " bytes>");
    }
}
