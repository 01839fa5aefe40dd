package io.locus.memcached.backend;

import io.netty.buffer.ByteBuf;
import java.util.concurrent.Future;

/**
 * Sends requests the proxy writes itself for many keys at once (a multi-get's batches of meta gets) to the backend the
 * ring places those keys on, and keeps the timers of such work, on the I/O thread that owns the backend connections.
 * Only the pass-through at the bottom of the handler chain has one ({@link RequestHandler#batches}): a handler that
 * places keys itself (balancing) must see every read one key at a time.
 */
public interface BatchSender {
    /**
     * Writes {@code wire} (handed over) to {@code backend} on the backend connection of client connection
     * {@code connectionId}, {@code mn} included; {@code reply} gets every reply line before the {@code MN}, or the
     * {@code SERVER_ERROR} line of a failed or late backend.
     */
    void send(int backend, ByteBuf wire, ReplySink reply, long connectionId);

    /** Runs {@code task} on this I/O thread after {@code delayNanos}. */
    Future<?> schedule(Runnable task, long delayNanos);
}
