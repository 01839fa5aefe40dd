package io.locus.memcached.balance.netty;

import io.locus.memcached.backend.BackendPool;
import io.locus.memcached.backend.ProxyRequest;
import io.locus.memcached.backend.ReplySink;
import io.locus.memcached.balance.BalanceConfig;
import io.locus.memcached.balance.Balancer;
import io.locus.memcached.balance.VirtualBucketTable;
import io.locus.memcached.cache.ByteKey;
import io.locus.memcached.protocol.ReplyFormat;
import io.netty.buffer.ByteBuf;
import io.netty.channel.EventLoop;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicIntegerArray;
import java.util.concurrent.atomic.LongAdder;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Phase 3 in the proxy (BALANCE.md, "Phase 3"): moves a virtual bucket's keys from its old owner to its new one with
 * a copier thread per migration, and applies client writes to keys of migrating buckets, both over the replication
 * thread's connections ({@link ReplicationLink}). Decisions (which bucket moves where, which route a read or write
 * takes) are the {@link io.locus.memcached.balance.BucketMigration}'s; this class only carries them out.
 */
final class BucketMover {
    private static final Logger LOG = LoggerFactory.getLogger(BucketMover.class);

    private final BalanceConfig config;
    private final Balancer<ByteKey> balancer;
    private final EventLoop loop;
    private final BackendPool pool;
    private final ReplicationLink link;
    private final List<java.net.InetSocketAddress> addresses;
    /** Requests routed by a bucket's owner that are in flight, by bucket: a migration's copier waits for zero. */
    private final AtomicIntegerArray bucketInFlight;

    private final LongAdder migrationsStarted = new LongAdder();
    private final LongAdder migrationsCopied = new LongAdder();
    private final LongAdder migratedKeys = new LongAdder();
    private final LongAdder migrationSkipped = new LongAdder();
    private final LongAdder migrationWrites = new LongAdder();
    private volatile boolean closed;

    /** Client keys never start with it ({@code BalancingHandler} refuses them): the proxy's own items, not the bucket's. */
    private final Object[] metadumpLocks;
    /**
     * {@code lb.copy_rate} for all copiers together: the time before which no further key may be dispatched. Each
     * copied item pushes it forward by its size over the rate; the copiers wait for it, so the byte rate averaged over
     * a migration stays at the configured rate.
     */
    private final java.util.concurrent.atomic.AtomicLong copyPaceNanos =
            new java.util.concurrent.atomic.AtomicLong(System.nanoTime());

    /** {@code loop}, {@code pool}: the replication thread and its connections; {@code addresses} for metadumps. */
    BucketMover(
            BalanceConfig config,
            Balancer<ByteKey> balancer,
            EventLoop loop,
            BackendPool pool,
            ReplicationLink link,
            List<java.net.InetSocketAddress> addresses,
            AtomicIntegerArray bucketInFlight) {
        this.config = config;
        this.balancer = balancer;
        this.loop = loop;
        this.pool = pool;
        this.link = link;
        this.addresses = addresses;
        this.bucketInFlight = bucketInFlight;
        this.metadumpLocks = new Object[addresses.size()];
        for (int i = 0; i < metadumpLocks.length; i++) {
            metadumpLocks[i] = new Object();
        }
    }

    /**
     * Moves virtual {@code bucket} to {@code target} now, as a planned Phase 3 move would (for operators, tests and the
     * benchmark). The future completes when the background copy has finished and the old owner holds none of the
     * bucket's keys; reads still fall back to it for {@code lb.fallback_epochs} epochs after that, then the migration
     * is DONE ({@code balancer.migrationOf(bucket)} is null).
     *
     * @return the copy's completion, or a future failed with {@link IllegalArgumentException} naming a bad argument
     */
    java.util.concurrent.CompletableFuture<Void> migrate(int bucket, int target) {
        java.util.concurrent.CompletableFuture<Void> done = new java.util.concurrent.CompletableFuture<>();
        loop.execute(() -> {
            try {
                start(balancer.startMigration(bucket, target), done);
            } catch (IllegalArgumentException e) {
                done.completeExceptionally(e);
            }
        });
        return done;
    }

    /** Replication thread: the copier of {@code m} on its own thread (metadump blocks). */
    void start(
            io.locus.memcached.balance.BucketMigration<ByteKey> m, java.util.concurrent.CompletableFuture<Void> done) {
        migrationsStarted.increment();
        Thread t = new Thread(() -> copyBucket(m, done), "locus-migrate-" + m.bucket());
        t.setDaemon(true);
        t.start();
    }

    /**
     * Copier thread: waits until no request that chose the old owner before the migration began is in flight, then
     * lists the old owner's keys ({@code lru_crawler metadump}) and moves those of the bucket, 256 at a time, pass after
     * pass until a pass finds none left.
     *
     * <p>Why passes: a metadump is no snapshot. memcached's crawler skips an item whose lock a worker holds at that
     * instant and misses items the LRU maintainer moves behind it, so under load a single pass leaves keys at the old
     * owner; once the migration is DONE nobody reads them there and they are lost. Why no give-up: finishing with keys
     * unlisted (a metadump that keeps failing, a request that chose the old owner still in flight) loses or rolls back
     * values, while a migration that stays COPYING only keeps reading the old owner as a fallback.
     */
    private void copyBucket(
            io.locus.memcached.balance.BucketMigration<ByteKey> m, java.util.concurrent.CompletableFuture<Void> done) {
        long warnAt = System.nanoTime() + 10_000_000_000L;
        while (bucketInFlight.get(m.bucket()) > 0) {
            if (closed) {
                return;
            }
            if (warnAt != 0 && System.nanoTime() > warnAt) {
                LOG.warn(
                        "moving virtual bucket {}: requests routed to backend {} before the move still in flight after 10 s;"
                                + " the copy waits for them",
                        m.bucket(),
                        m.source());
                warnAt = 0;
            }
            java.util.concurrent.locks.LockSupport.parkNanos(1_000_000L);
        }
        java.util.concurrent.Semaphore window = new java.util.concurrent.Semaphore(256);
        VirtualBucketTable table = balancer.table();
        int emptyPasses = 0;
        for (int pass = 1; emptyPasses < 2; pass++) {
            List<ByteKey> keys = metadumpUntilListed(m);
            if (keys == null) {
                return; // closed
            }
            int sent = 0;
            for (ByteKey key : keys) {
                if (key.startsWith(BalancingHandler.RESERVED) || table.bucketOf(key.bytes()) != m.bucket()) {
                    continue;
                }
                long wait;
                while ((wait = copyPaceNanos.get() - System.nanoTime()) > 0) {
                    java.util.concurrent.locks.LockSupport.parkNanos(Math.min(wait, 50_000_000L));
                }
                chargeCopy(key.bytes().length); // every listed key: the value's bytes are charged once read
                if (!m.mayCopyForward(key)) {
                    continue; // written during the migration: that write deletes it at the old owner
                }
                window.acquireUninterruptibly();
                sent++;
                loop.execute(() -> moveKey(m, key, window::release));
            }
            window.acquireUninterruptibly(256);
            window.release(256);
            if (pass > 1 && sent > 0) {
                LOG.info(
                        "moving virtual bucket {}: pass {} found {} keys still at backend {}",
                        m.bucket(),
                        pass,
                        sent,
                        m.source());
            }
            // Two empty passes in a row: a key the crawler skipped once is unlikely to be skipped twice.
            emptyPasses = sent == 0 ? emptyPasses + 1 : 0;
            if (sent > 0 && pass >= 3) {
                java.util.concurrent.locks.LockSupport.parkNanos(
                        100_000_000L); // e.g. the new owner refuses: do not spin
            }
        }
        loop.execute(() -> {
            m.copyFinished();
            migrationsCopied.increment();
            LOG.info("virtual bucket {} copied from backend {} to {}", m.bucket(), m.source(), m.target());
            done.complete(null);
        });
    }

    /** The old owner's keys; retries (memcached runs one crawler request at a time) until listed; null once closed. */
    private List<ByteKey> metadumpUntilListed(io.locus.memcached.balance.BucketMigration<ByteKey> m) {
        for (int attempt = 1; !closed; attempt++) {
            // One metadump per source at once from this proxy; the server's own crawler can still answer BUSY.
            synchronized (metadumpLocks[m.source()]) {
                try {
                    return Metadump.keys(addresses.get(m.source()));
                } catch (java.io.IOException | RuntimeException e) {
                    if (attempt % 10 == 1) {
                        LOG.warn(
                                "moving virtual bucket {}: metadump of backend {} (attempt {}): {}; the bucket stays COPYING"
                                        + " (reads fall back to it) until it works",
                                m.bucket(),
                                m.source(),
                                attempt,
                                e.toString());
                    }
                }
            }
            java.util.concurrent.locks.LockSupport.parkNanos(Math.min(1000, 100L * attempt) * 1_000_000L);
        }
        return null;
    }

    private void chargeCopy(long bytes) {
        long cost = (long) (bytes * 1e9 / config.copyRateBytesPerSecond());
        copyPaceNanos.updateAndGet(t -> Math.max(t, System.nanoTime()) + cost);
    }

    /**
     * Replication thread: {@code mg} at the old owner, add-only {@code ms ... ME} at the new one (a newer write there
     * wins), and only once that landed {@code md} at the old owner, so a reader that misses at the new owner and then
     * at the old one finds the key at the new owner on its retry. A key written meanwhile is skipped: its write copied
     * it first and deleted it at the old owner. Copier and writes share this thread's one connection per backend, so
     * memcached applies them in the order they were decided.
     */
    private void moveKey(io.locus.memcached.balance.BucketMigration<ByteKey> m, ByteKey key, Runnable done) {
        if (!m.mayCopyForward(key)) {
            migrationSkipped.increment();
            done.run();
            return;
        }
        String b64 = MetaValue.base64(key);
        link.readHome(m.source(), key, v -> {
            if (v.failed() || v.data() == null || !m.mayCopyForward(key)) {
                v.release();
                migrationSkipped.increment();
                done.run();
                return;
            }
            chargeCopy(v.data().readableBytes());
            String line = "ms " + b64 + " " + v.data().readableBytes() + " b F" + v.flags() + " T"
                    + Math.max(0, v.ttl()) + " ME\r\n";
            link.send(m.target(), ReplyFormat.META, line, v.data(), r -> {
                boolean landed = r != null
                        && (ReplicationLink.startsWith(r.bytes(), "HD") || ReplicationLink.startsWith(r.bytes(), "NS"));
                if (r != null) {
                    r.release();
                }
                if (!landed) { // the new owner failed: the key stays at the old one, read there while the bucket drains
                    migrationSkipped.increment();
                    done.run();
                    return;
                }
                migratedKeys.increment();
                link.send(m.source(), ReplyFormat.META, "md " + b64 + " b\r\n", null, x -> {
                    if (x != null) {
                        x.release();
                    }
                    done.run();
                });
            });
        });
    }

    /**
     * A write to a key of a migrating bucket, on the replication thread: unless the key was written before in this
     * migration, its value is first copied from the old owner to the new one (add-only), so {@code add}, {@code
     * append}, {@code incr}, {@code delete} and the like see it; then the client's command runs at the new owner, then
     * the key is deleted at the old one; the client is answered after both, so a later read never finds an older value
     * at the old owner.
     */
    void migrationWrite(
            ProxyRequest pr,
            ByteKey key,
            io.locus.memcached.balance.BucketMigration<ByteKey> m,
            EventLoop clientLoop,
            ReplySink done) {
        migrationWrites.increment();
        io.locus.memcached.balance.BucketMigration.WriteRoute route = m.beginWrite(key, true);
        Runnable apply = () -> Forwarding.forward(pool, route.applyAt(), pr, 0, new Forwarding.Outcome() {
            @Override
            public void reply(ByteBuf bytes) {
                pr.request().release();
                if (route.invalidateAt() < 0) {
                    clientLoop.execute(() -> Forwarding.deliver(done, bytes));
                    return;
                }
                link.send(route.invalidateAt(), ReplyFormat.META, "md " + MetaValue.base64(key) + " b\r\n", null, x -> {
                    if (x != null) {
                        x.release();
                    }
                    clientLoop.execute(() -> Forwarding.deliver(done, bytes));
                });
            }

            @Override
            public void failed(String line) {
                pr.request().release();
                clientLoop.execute(() -> done.completeLine(line));
            }
        });
        if (!route.copyFirst()) {
            apply.run();
            return;
        }
        link.readHome(m.source(), key, v -> {
            if (v.failed() || v.data() == null) {
                v.release();
                apply.run();
                return;
            }
            String line = "ms " + MetaValue.base64(key) + " " + v.data().readableBytes() + " b F" + v.flags() + " T"
                    + Math.max(0, v.ttl()) + " ME\r\n";
            // Not awaited: the command that follows on the same connection sees its effect.
            link.send(route.applyAt(), ReplyFormat.META, line, v.data(), r -> {
                if (r != null) {
                    r.release();
                }
            });
            apply.run();
        });
    }

    /** {@code stats lb} lines of Phase 3's work. */
    void statsLines(Map<String, String> m) {
        m.put("lb:migrations_started", String.valueOf(migrationsStarted.sum()));
        m.put("lb:migrations_copied", String.valueOf(migrationsCopied.sum()));
        m.put("lb:migrated_keys", String.valueOf(migratedKeys.sum()));
        m.put("lb:migration_skipped", String.valueOf(migrationSkipped.sum()));
        m.put("lb:migration_writes", String.valueOf(migrationWrites.sum()));
    }

    /** Stops the copiers: a copy still waiting or listing gives up (its migration stays COPYING). */
    void close() {
        closed = true;
    }
}
