package io.locus.memcached.backend;

/**
 * What the proxy does with a keyed request: the hook where the deadline cache ({@code io.locus.memcached.cache}) and
 * the scheduler ({@code io.locus.memcached.schedule}) plug in, as wrappers around {@link PassThroughHandler}.
 *
 * <p>One instance per I/O thread; {@link #handle} is called on that thread only, so implementations need no locks as
 * long as they keep to it. Commands answered by the proxy itself ({@code version}, {@code stats}, {@code mn},
 * {@code quit}, {@code verbosity}, {@code dlctx}) never reach the handler.
 */
public interface RequestHandler {
    /**
     * Handles one request. Must complete {@code reply} exactly once (possibly later, on the same thread) and release
     * {@code request.request()} once it no longer needs it.
     */
    void handle(ProxyRequest request, ReplySink reply);

    /**
     * The backends a single-key read of {@code key} may be sent to now, the key's owner first, then copies of it that
     * are readable (hot-key replicas); or null if the handler does not place keys itself (the ring's owner then).
     * Lets the deadline scheduler, which wraps this handler, choose the copy predicted to finish first.
     */
    default int[] readCopies(byte[] key) {
        return null;
    }

    /** Whether {@link #readCopies} may answer anything but null; if not, callers need not ask. */
    default boolean placesKeys() {
        return false;
    }

    /**
     * Handles a single-key read that the caller scheduled on {@code backend}, one of {@link #readCopies}. The default
     * ignores the choice. A handler that replicates must send the read there if that copy is still readable, else to
     * the owner. Only reads whose reply may come from a copy are passed here: a classic {@code get}, or an {@code mg}
     * whose flags are among {@code v f t s} and whose caller accepts a copy's remaining TTL (never longer than the
     * owner's item).
     */
    default void handleAt(ProxyRequest request, ReplySink reply, int backend) {
        handle(request, reply);
    }

    /**
     * The sender of requests the proxy writes for many keys at once, straight to the ring's owner of the keys; or null
     * when this handler must see each read itself (it places keys, or wraps the pass-through for a test), and such
     * reads then go one key at a time through {@link #handle}.
     */
    default BatchSender batches() {
        return null;
    }

    /**
     * A read the wrapping handler refused or dropped before it reached this one (admission control), reported so that
     * a handler that balances load counts it as demand. Must not release or keep {@code request}. Default: nothing.
     */
    default void refusedRead(ProxyRequest request) {}

    /**
     * Builds the handler of one I/O thread around that thread's pass-through path to the backends; the place where a
     * deadline cache or scheduler wraps the pass-through. Called once per I/O thread, on that thread.
     */
    @FunctionalInterface
    interface Factory {
        /** The identity: requests go straight to the backends. */
        Factory PASS_THROUGH = backends -> backends;

        RequestHandler create(RequestHandler backends);
    }
}
