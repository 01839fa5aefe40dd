package io.locus.memcached.balance.netty;

import io.locus.memcached.backend.BackendCall;
import io.locus.memcached.backend.BackendPool;
import io.locus.memcached.cache.ByteKey;
import io.locus.memcached.protocol.BackendReply;
import io.locus.memcached.protocol.ReplyFormat;
import io.netty.buffer.ByteBuf;
import java.util.function.Consumer;

/**
 * The replication thread's own connections, one per backend (affinity 0): everything sent here reaches a backend in
 * the order it was sent, which the read-your-writes rule of {@link io.locus.memcached.balance.ReplicaDirectory} and
 * the migration copier rely on. Replication thread only.
 */
final class ReplicationLink {
    private final BackendPool pool;

    ReplicationLink(BackendPool pool) {
        this.pool = pool;
    }

    /** {@code mg <key> b v f t} at {@code home}: the item's value, flags and TTL, or its absence or failure. */
    void readHome(int home, ByteKey key, Consumer<MetaValue> then) {
        send(home, ReplyFormat.META, "mg " + MetaValue.base64(key) + " b v f t\r\n", null, r -> {
            if (r == null) {
                then.accept(MetaValue.FAILED);
                return;
            }
            try {
                then.accept(MetaValue.parse(r.bytes()));
            } finally {
                r.release();
            }
        });
    }

    /** True if the reply starts with {@code prefix} (a meta status such as {@code HD}). */
    static boolean startsWith(ByteBuf b, String prefix) {
        if (b.readableBytes() < prefix.length()) {
            return false;
        }
        for (int i = 0; i < prefix.length(); i++) {
            if (b.getByte(b.readerIndex() + i) != prefix.charAt(i)) {
                return false;
            }
        }
        return true;
    }

    /** One request on the replication thread's connection to {@code backend}; {@code then} gets null on failure. */
    void send(int backend, ReplyFormat format, String line, ByteBuf data, Consumer<BackendReply> then) {
        pool.backend(backend).send(BackendCall.internal(format, line, data, then), 0);
    }
}
