package io.locus.memcached.server;

import io.netty.channel.EventLoop;
import io.netty.util.concurrent.FastThreadLocal;
import java.util.ArrayList;
import java.util.List;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The client connections of one I/O thread with replies written, flushed together by one task once the thread has
 * handled everything that woke it (the reads of all ready connections, or a backend read that completed many
 * requests): each client gets one write system call per turn, the replies of all of them leave together
 * ({@link ReplyFlush} says why), and the batch costs one task, not one per client connection. Confined to its I/O
 * thread.
 */
final class FlushBatch implements Runnable {
    private static final Logger LOG = LoggerFactory.getLogger(FlushBatch.class);
    private static final FastThreadLocal<FlushBatch> OF_THREAD = new FastThreadLocal<>() {
        @Override
        protected FlushBatch initialValue() {
            return new FlushBatch();
        }
    };

    /** Something with writes to flush. */
    interface Flushable {
        void flushQueued();
    }

    private final List<Flushable> queued = new ArrayList<>();
    private EventLoop loop;
    private boolean scheduled;

    /**
     * The batch of {@code loop}, called on its thread: one per I/O thread (a thread that runs several loops, as tests'
     * embedded channels do, gets one per loop it last asked for).
     */
    static FlushBatch of(EventLoop loop) {
        FlushBatch b = OF_THREAD.get();
        if (b.loop != loop) {
            if (b.loop != null) {
                b = new FlushBatch();
                OF_THREAD.set(b);
            }
            b.loop = loop;
        }
        return b;
    }

    /** Flushes {@code f} once this thread is done with its current work; the caller queues it once per flush. */
    void add(Flushable f) {
        queued.add(f);
        if (!scheduled) {
            scheduled = true;
            loop.execute(this);
        }
    }

    @Override
    public void run() {
        // A flush may queue more (a drained connection admits waiting requests); they are flushed in this run too.
        // One connection's failure must not leave the others unflushed, or the batch unable to schedule again.
        for (int i = 0; i < queued.size(); i++) {
            try {
                queued.get(i).flushQueued();
            } catch (RuntimeException e) {
                LOG.warn("flushing replies: {}", e.toString());
            }
        }
        queued.clear();
        scheduled = false;
    }
}
