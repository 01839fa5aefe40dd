package io.locus.memcached.backend;

import io.netty.buffer.ByteBuf;

/**
 * The place in a client connection's reply order reserved for one request. Complete it exactly once, on the
 * connection's event loop; replies are written to the client in request order whatever order slots complete in.
 */
public interface ReplySink {
    /** Completes with these bytes (ownership passes to the sink). */
    void complete(ByteBuf reply);

    /** Completes with one line; {@code \r\n} is appended. */
    void completeLine(String line);

    /** Completes with no reply (the client asked for none). */
    void completeSilently();

    /**
     * Whether nobody will read the reply any more (its client connection is closed), so the work still to do for it
     * may be dropped. A sink must still be completed.
     */
    default boolean abandoned() {
        return false;
    }

    /** A sink that drops the reply (a background re-issue nobody waits for). */
    ReplySink DISCARD = new ReplySink() {
        @Override
        public void complete(ByteBuf reply) {
            if (reply != null) {
                reply.release();
            }
        }

        @Override
        public void completeLine(String line) {}

        @Override
        public void completeSilently() {}
    };

    /**
     * A sink that runs {@code action} once the reply is there, before passing it on: the one place the proxy's
     * bookkeeping (in-flight counts, scheduler release, latency) hooks into a reply, whatever its form.
     */
    static ReplySink after(ReplySink sink, Runnable action) {
        return new ReplySink() {
            @Override
            public void complete(ByteBuf reply) {
                action.run();
                sink.complete(reply);
            }

            @Override
            public void completeLine(String line) {
                action.run();
                sink.completeLine(line);
            }

            @Override
            public void completeSilently() {
                action.run();
                sink.completeSilently();
            }

            @Override
            public boolean abandoned() {
                return sink.abandoned();
            }
        };
    }
}
