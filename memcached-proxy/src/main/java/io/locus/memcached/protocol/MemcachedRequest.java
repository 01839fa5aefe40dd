package io.locus.memcached.protocol;

import io.netty.buffer.ByteBuf;
import io.netty.util.AbstractReferenceCounted;
import java.util.List;

/**
 * One well-formed client request: a {@link Command}, its tokens, and for storage commands the data block.
 *
 * <p>Tokens are kept as ISO-8859-1 strings, so every byte of a key survives a round trip unchanged. The request owns
 * its data block: whoever handles the request last must {@link #release()} it (Netty's rule for reference-counted
 * objects). The data block excludes the trailing {@code \r\n}.
 */
public final class MemcachedRequest extends AbstractReferenceCounted implements DecodedRequest {
    private final Command command;
    private final List<String> args;
    private final ByteBuf data;
    private final boolean quiet;

    /**
     * @param args the tokens after the command word
     * @param data the data block ({@code null} when the command has none); ownership passes to this request
     * @param quiet {@code noreply} (classic) or the {@code q} flag (meta)
     */
    public MemcachedRequest(Command command, List<String> args, ByteBuf data, boolean quiet) {
        this.command = command;
        this.args = List.copyOf(args);
        this.data = data;
        this.quiet = quiet;
    }

    public Command command() {
        return command;
    }

    /** The tokens after the command word, in order, unchanged. */
    public List<String> args() {
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
        return switch (command) {
            case GET, GETS -> args;
            case GAT, GATS -> args.subList(1, args.size());
            default -> args.isEmpty() ? List.of() : List.of(args.get(0));
        };
    }

    /** The first key, or {@code null} for commands without a key. */
    public String key() {
        List<String> keys = keys();
        return keys.isEmpty() ? null : keys.get(0);
    }

    @Override
    protected void deallocate() {
        if (data != null) {
            data.release();
        }
    }

    @Override
    public MemcachedRequest touch(Object hint) {
        if (data != null) {
            data.touch(hint);
        }
        return this;
    }

    @Override
    public String toString() {
        return command.word() + " " + String.join(" ", args)
                + (data == null ? "" : " <" + data.readableBytes() + " bytes>");
    }
}
