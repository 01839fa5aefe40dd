package io.locus.memcached.deadline;

import io.locus.memcached.backend.ReplySink;
import io.locus.memcached.schedule.DeadlineScheduler;
import io.locus.memcached.schedule.RejectReason;
import io.locus.memcached.schedule.Ticket;
import io.netty.buffer.ByteBuf;

/**
 * Up to {@link BatchedGet#BATCH_KEYS} missing keys of one multi-get that live on one backend, fetched as one backend
 * request ({@code mg <key> v f t} per key, then {@code mn}) under one ticket of that backend's scheduler. Owner thread
 * only.
 */
final class GetBatch implements ScheduledWork, ConnectionShares.Member {
    private final BatchedGet get;
    private final int backend;
    /** Indexes of the keys in the client's get, in the order they are asked for. */
    private final int[] indexes = new int[BatchedGet.BATCH_KEYS];

    private int count;
    /** Each key's cache version when the batch was written: a value is stored only if no write came since. */
    private long[] versions;

    private DeadlineScheduler<ScheduledWork> scheduler;
    /** The ticket while it waits in the scheduler's queue, so a request answered early can withdraw it. */
    private Ticket<ScheduledWork> queued;

    GetBatch(BatchedGet get, int backend) {
        this.get = get;
        this.backend = backend;
    }

    @Override
    public int backend() {
        return backend;
    }

    @Override
    public long connectionId() {
        return get.connectionId();
    }

    boolean full() {
        return count == indexes.length;
    }

    void add(int index) {
        indexes[count++] = index;
    }

    int count() {
        return count;
    }

    int index(int i) {
        return indexes[i];
    }

    long version(int i) {
        return versions[i];
    }

    /** Whether the request still wants this batch: not answered yet, and its client still there. */
    @Override
    public boolean wanted() {
        return get.wanted();
    }

    /** Takes a ticket at the backend's scheduler (its connection's share of the queue allowing, {@link ConnectionShares}). */
    @Override
    public void offer() {
        get.router().submitBatch(this, get.origin(), get.counters());
    }

    /** The scheduler the batch is offered to, set before the offer (which may dispatch it at once). */
    void offeredTo(DeadlineScheduler<ScheduledWork> scheduler) {
        this.scheduler = scheduler;
    }

    /** The scheduler admitted the batch; {@code ticket} may wait in its queue. */
    void admitted(Ticket<ScheduledWork> ticket) {
        if (ticket.state() == Ticket.State.QUEUED) {
            queued = ticket;
            get.counters().queued().incrementAndGet();
            get.order().queued(connectionId());
        }
    }

    private void dequeued() {
        if (queued != null) {
            queued = null;
            get.counters().queued().decrementAndGet();
            get.order().dequeued(connectionId());
        }
    }

    @Override
    public void dispatch(Ticket<ScheduledWork> ticket) {
        if (!wanted()) {
            dequeued();
            scheduler.abandon(ticket);
            get.shares().released(this);
            return;
        }
        send(ticket);
        dequeued(); // after the write: what waited for this connection's queue must follow it
    }

    /** Writes the batch to the backend; {@code ticket} is completed by the reply (null: not scheduled). */
    void send(Ticket<ScheduledWork> ticket) {
        ByteBuf wire = get.writeBatch(this);
        versions = get.versionsOf(this);
        // The request learns of the reply before the scheduler dispatches what waits: a request that failed or is
        // complete wants no more.
        boolean[] released = {false};
        Runnable release = () -> {
            if (!released[0]) {
                released[0] = true;
                if (ticket != null) {
                    scheduler.complete(ticket);
                }
            }
        };
        get.sender()
                .send(
                        backend,
                        wire,
                        new ReplySink() {
                            @Override
                            public void complete(ByteBuf reply) {
                                get.arrived(GetBatch.this, reply);
                                release.run();
                            }

                            @Override
                            public void completeLine(String line) {
                                get.failed(line);
                                release.run();
                            }

                            @Override
                            public void completeSilently() {
                                get.failed("SERVER_ERROR backend sent no reply to a batch");
                                release.run();
                            }
                        },
                        connectionId());
        get.shares().released(this); // out of the queue: the connection's next batch may take its place there
    }

    @Override
    public void expired() {
        dequeued();
        get.counters().rejected().increment();
        get.shares().released(this);
        get.refused(RejectReason.DEADLINE_EXCEEDED, 0);
    }

    /** Admission refused the batch's ticket. */
    void refused(RejectReason reason, long estimateMicros) {
        get.shares().released(this);
        get.refused(reason, estimateMicros);
    }

    /** Withdraws the batch's ticket if it still waits in the queue: its request was answered without it. */
    void cancel() {
        Ticket<ScheduledWork> t = queued;
        if (t != null && scheduler.cancel(t)) {
            dequeued();
            get.shares().released(this);
        }
    }
}
