package io.locus.memcached.protocol;

import io.netty.buffer.ByteBuf;
import io.netty.util.AbstractReferenceCounted;
import java.util.List;

/**
 * One complete reply from a backend, byte for byte, plus the items of a {@link ReplyFormat#VALUES} reply so that a
 * multi-get spread over several backends can be reassembled in request order.
 *
 * <p>The reply owns {@link #bytes()}; release the reply when done.
 */
public final class BackendReply extends AbstractReferenceCounted {
    /**
     * One {@code VALUE} item inside {@link #bytes()}; its key is read from there ({@link #itemKey}).
     *
     * @param offset where its {@code VALUE} line starts, relative to the reader index of {@code bytes()}
     * @param length bytes up to and including the data block's {@code \r\n}
     * @param keyLength bytes of its key, which starts after {@code VALUE }
     */
    public record Item(int offset, int length, int keyLength) {}

    private static final int KEY_OFFSET = "VALUE ".length();

    private final ByteBuf bytes;
    private final List<Item> items;
    private final boolean error;

    public BackendReply(ByteBuf bytes, List<Item> items, boolean error) {
        this.bytes = bytes;
        this.items = List.copyOf(items);
        this.error = error;
    }

    /** The whole reply as the backend sent it, including the final {@code END\r\n} or status line. */
    public ByteBuf bytes() {
        return bytes;
    }

    /** The {@code VALUE} items of a retrieval reply, in the backend's order; empty for other replies. */
    public List<Item> items() {
        return items;
    }

    /** Whether the reply is {@code ERROR}, {@code CLIENT_ERROR ...} or {@code SERVER_ERROR ...}. */
    public boolean isError() {
        return error;
    }

    /** The item bytes ({@code VALUE} line and data block) as a slice sharing this reply's memory. */
    public ByteBuf itemSlice(Item item) {
        return bytes.slice(bytes.readerIndex() + item.offset(), item.length());
    }

    /** The item's key as the backend sent it, a slice sharing this reply's memory. */
    public ByteBuf itemKey(Item item) {
        return bytes.slice(bytes.readerIndex() + item.offset() + KEY_OFFSET, item.keyLength());
    }

    /** Whether the item's key is {@code key}, byte for byte. */
    public boolean itemKeyIs(Item item, byte[] key) {
        if (item.keyLength() != key.length) {
            return false;
        }
        int from = bytes.readerIndex() + item.offset() + KEY_OFFSET;
        for (int i = 0; i < key.length; i++) {
            if (bytes.getByte(from + i) != key[i]) {
                return false;
            }
        }
        return true;
    }

    @Override
    protected void deallocate() {
        bytes.release();
    }

    @Override
    public BackendReply touch(Object hint) {
        bytes.touch(hint);
        return this;
    }
}
