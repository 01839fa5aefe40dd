package io.locus.memcached.protocol;

import io.netty.buffer.ByteBuf;

/**
 * A storage command whose line is parsed and whose data block is still to come: the line (retained from the
 * cumulation), where its arguments lie, and the block's declared length.
 */
record PendingBlock(Command command, ByteBuf line, int[] argBounds, boolean quiet, boolean verbatim, int length) {
    /** The request, once the block and its {@code \r\n} arrived; it takes over the line. */
    MemcachedRequest complete(ByteBuf block) {
        return new MemcachedRequest(command, line, argBounds, block, quiet, verbatim);
    }

    /** memcached's answer to a block not followed by {@code \r\n}; the line is released. */
    RequestError unterminated() {
        line.release();
        return new RequestError(
                RequestError.BAD_DATA_CHUNK,
                quiet && !command.isMeta(),
                false,
                "data block of " + command.word() + " not terminated by \\r\\n after " + length
                        + " bytes (expected: exactly the declared length)");
    }
}
