package io.locus.memcached.server;

import io.netty.buffer.ByteBuf;

/** Whether a reply is one of memcached's error lines, for the {@code outcome} label of the request counter. */
final class ErrorReply {
    private static final byte[] ERROR = bytes("ERROR");
    private static final byte[] CLIENT_ERROR = bytes("CLIENT_ERROR");
    private static final byte[] SERVER_ERROR = bytes("SERVER_ERROR");

    private ErrorReply() {}

    /**
     * True when {@code reply} starts with {@code ERROR}, {@code CLIENT_ERROR} or {@code SERVER_ERROR}; false for
     * anything else, and for no reply (a quiet request answered by silence). Reads at most twelve bytes.
     */
    static boolean is(ByteBuf reply) {
        if (reply == null || !reply.isReadable()) {
            return false;
        }
        return switch (reply.getByte(reply.readerIndex())) {
            case 'E' -> startsWith(reply, ERROR);
            case 'C' -> startsWith(reply, CLIENT_ERROR);
            case 'S' -> startsWith(reply, SERVER_ERROR);
            default -> false;
        };
    }

    private static boolean startsWith(ByteBuf reply, byte[] prefix) {
        if (reply.readableBytes() < prefix.length) {
            return false;
        }
        int at = reply.readerIndex();
        for (int i = 0; i < prefix.length; i++) {
            if (reply.getByte(at + i) != prefix[i]) {
                return false;
            }
        }
        return true;
    }

    private static byte[] bytes(String s) {
        return s.getBytes(java.nio.charset.StandardCharsets.US_ASCII);
    }
}
