package io.locus.memcached.balance.netty;

import io.locus.memcached.backend.BackendPool;
import io.locus.memcached.backend.ProxyRequest;
import io.locus.memcached.backend.ReplySink;
import io.locus.memcached.backend.RequestHandler;
import io.locus.memcached.balance.BucketMigration;
import io.locus.memcached.balance.ReplicaDirectory;
import io.locus.memcached.balance.ReplicaDirectory.ReadTarget;
import io.locus.memcached.balance.ReplicaDirectory.WriteTicket;
import io.locus.memcached.balance.VirtualBucketTable;
import io.locus.memcached.cache.ByteKey;
import io.locus.memcached.protocol.Command;
import io.locus.memcached.protocol.MemcachedRequest;
import io.locus.memcached.protocol.MetaFlags;
import io.netty.channel.EventLoop;
import java.util.ArrayList;
import java.util.Base64;
import java.util.List;

/**
 * One I/O thread's balancing step in front of its pass-through path: counts every keyed request in the
 * {@link io.locus.memcached.balance.Balancer}, sends single-key {@code get}s of replicated keys to the replica
 * predicted cheapest, and hands writes to replicated keys to the replication thread ({@link BalancingServices}).
 *
 * <p>Guarantees (with the rule of {@link ReplicaDirectory}): a read goes to a shadow only if the shadow acknowledged
 * the newest write begun through this proxy, so no client reads a value older than its own last write through the
 * proxy; a shadow miss or failure is retried at the home, so replication never turns a hit into a miss. Client keys
 * starting with {@code __dlp:} are refused ({@code CLIENT_ERROR reserved key prefix}). Requests whose reply carries
 * home-specific data ({@code gets}, {@code gat}, {@code mg}) and multi-key gets go to the home.
 */
public final class BalancingHandler implements RequestHandler {
    /** The prefix of the proxy's own keys at the backends (shadow copies). */
    static final byte[] RESERVED = {'_', '_', 'd', 'l', 'p', ':'};

    private final BalancingServices services;
    private final RequestHandler passThrough;
    private final BackendPool pool;
    private final EventLoop loop;
    private final MovedBucketRouter moved;
    private final ShadowReads shadows;

    public BalancingHandler(BalancingServices services, RequestHandler passThrough, BackendPool pool, EventLoop loop) {
        this.services = services;
        this.passThrough = passThrough;
        this.pool = pool;
        this.loop = loop;
        this.moved = new MovedBucketRouter(services, pool, loop);
        this.shadows = new ShadowReads(services, passThrough, pool);
    }

    @Override
    public void handle(ProxyRequest pr, ReplySink reply) {
        afterWrites(pr, reply, -1);
    }

    @Override
    public void handleAt(ProxyRequest pr, ReplySink reply, int backend) {
        afterWrites(pr, reply, backend);
    }

    /**
     * Routes a read of keys with writes handed to the replication thread once those writes are answered, anything else
     * at once. Why: those writes travel over the replication thread's connections, so a read pipelined behind one
     * (memcached's per-connection order promises it the write's effect) could otherwise reach the backend first.
     */
    private void afterWrites(ProxyRequest pr, ReplySink reply, int chosen) {
        Command c = pr.request().command();
        if (c.family() == Command.Family.BROADCAST) {
            passThrough.handle(pr, reply);
            return;
        }
        List<ByteKey> keys = keysOf(pr.request(), pr); // read once from the client's bytes
        boolean read = c.family() == Command.Family.RETRIEVAL || c == Command.MG || c == Command.ME;
        java.util.concurrent.CompletableFuture<Void> landed = read ? services.writesLanded(keys) : null;
        if (landed == null) {
            route(pr, keys, reply, chosen);
        } else {
            landed.thenRun(() -> loop.execute(() -> route(pr, keys, reply, chosen)));
        }
    }

    @Override
    public boolean placesKeys() {
        return true;
    }

    /**
     * The owner of the key's virtual bucket and, when the bucket is where the ring put it, the key's readable
     * shadows. During a migration, the backend a read asks first; null with replication for availability (its own
     * copies and failover) or for a reserved key.
     */
    @Override
    public int[] readCopies(byte[] keyBytes) {
        ByteKey key = new ByteKey(keyBytes);
        if (services.availability() != null || key.startsWith(RESERVED)) {
            return null;
        }
        int bucket = services.balancer().bucketOf(key);
        BucketMigration<ByteKey> m = services.balancer().migrationOf(bucket);
        if (m != null) {
            return new int[] {m.readRoute().first()};
        }
        VirtualBucketTable table = services.balancer().table();
        int owner = table.owner(bucket);
        return owner != table.home(bucket)
                ? new int[] {owner}
                : services.balancer().directory().readableCopies(key, owner);
    }

    /**
     * Counts a refused read as a read of its keys at their owners. Why: a hot key homed on a slow backend gets its hard
     * reads refused by admission, and if only admitted reads counted, the balancer would see no load there and never
     * replicate the key to the copies that could meet those deadlines. Offered load, not carried load, is what
     * placement must balance.
     */
    @Override
    public void refusedRead(ProxyRequest pr) {
        MemcachedRequest req = pr.request();
        if (services.availability() != null || req.command().family() == Command.Family.BROADCAST) {
            return;
        }
        for (ByteKey k : keysOf(req, pr)) {
            if (!k.startsWith(RESERVED)) {
                services.balancer().onRead(k, false);
            }
        }
    }

    /** {@code chosen}: the backend the deadline scheduler chose among {@link #readCopies}, or -1. */
    private void route(ProxyRequest pr, List<ByteKey> keys, ReplySink reply, int chosen) {
        MemcachedRequest req = pr.request();
        for (ByteKey k : keys) {
            if (k.startsWith(RESERVED)) {
                req.release();
                reply.completeLine("CLIENT_ERROR reserved key prefix");
                return;
            }
        }
        if (keys.isEmpty()) {
            passThrough.handle(pr, reply);
        } else if (services.availability() != null) {
            withCopies(pr, keys, reply);
        } else {
            byOwner(pr, keys, reply, chosen);
        }
    }

    /**
     * Routes by each key's virtual bucket owner. While every bucket is owned by its ring home and none is migrating,
     * that is the pass-through path (with Phase 1) unchanged; otherwise the moved path below. A request routed without
     * a migration is counted in flight for its bucket from before the owner is read until it completes, so that the
     * copier of a migration that begins meanwhile waits for it: it may have chosen the old owner.
     */
    private void byOwner(ProxyRequest pr, List<ByteKey> keys, ReplySink reply, int chosen) {
        Command c = pr.request().command();
        boolean read = c.family() == Command.Family.RETRIEVAL || c == Command.MG || c == Command.ME;
        VirtualBucketTable table = services.balancer().table();
        int[] buckets = new int[keys.size()];
        boolean[] held = new boolean[keys.size()];
        boolean plain = true;
        for (int i = 0; i < buckets.length; i++) {
            int b = services.balancer().bucketOf(keys.get(i));
            buckets[i] = b;
            services.bucketInFlight().incrementAndGet(b);
            // Owner first, then the migration: the migration is registered before the owner changes.
            boolean owned = table.owner(b) == table.home(b);
            held[i] = services.balancer().migrationOf(b) == null;
            plain &= owned && held[i];
            if (!held[i]) {
                // Routed by the migration: a copier must not wait for it (its count would never drain under load).
                services.bucketInFlight().decrementAndGet(b);
            }
        }
        ReplySink counted = ReplySink.after(reply, () -> {
            for (int i = 0; i < buckets.length; i++) {
                if (held[i]) {
                    services.bucketInFlight().decrementAndGet(buckets[i]);
                }
            }
        });
        if (plain) {
            if (read) {
                read(pr, keys, counted, chosen);
            } else {
                write(pr, keys.get(0), counted);
            }
        } else if (read) {
            moved.read(pr, keys, buckets, counted);
        } else {
            moved.write(pr, keys.get(0), buckets[0], counted);
        }
    }

    /**
     * Whether an {@code mg} with these flags may be answered by a shadow: value, client flags, size and remaining TTL
     * only (a shadow's TTL is the rest of its lease, never longer than the item's, see
     * {@link RequestHandler#handleAt}); not cas, access times, opaque, key echo, quiet or base64 keys.
     */
    private static boolean copyable(MetaFlags flags) {
        return flags.allOf("vfts");
    }

    /**
     * Replication for availability: single-key reads from the first up copy (the next one on a failure), writes to
     * every copy on the replication thread. Multi-key gets go to the primaries as in the pass-through path.
     */
    private void withCopies(ProxyRequest pr, List<ByteKey> keys, ReplySink reply) {
        Command c = pr.request().command();
        boolean read = c.family() == Command.Family.RETRIEVAL || c == Command.MG || c == Command.ME;
        if (read) {
            for (ByteKey k : keys) {
                services.balancer().onRead(k, false);
            }
            if (keys.size() == 1) {
                services.availability().read(pr, services.availability().copiesOf(keys.get(0)), 0, pool, reply);
            } else {
                passThrough.handle(pr, reply);
            }
            return;
        }
        ByteKey key = keys.get(0);
        services.balancer().onWrite(key);
        ReplySink landed = services.writeHandedOver(key, reply);
        services.loop().execute(() -> services.availability().write(pr, key, loop, landed));
    }

    /** The keys as hashed on the ring, the client's bytes: a meta key with the {@code b} flag is decoded first. */
    private static List<ByteKey> keysOf(MemcachedRequest req, ProxyRequest pr) {
        int n = req.keyCount();
        if (n == 1) {
            byte[] key = req.keyBytes();
            if (req.command().isMeta() && pr.flags().has('b')) {
                try {
                    key = Base64.getDecoder().decode(key);
                } catch (IllegalArgumentException e) {
                    return List.of(); // memcached rejects it; the pass-through relays its error
                }
            }
            return List.of(new ByteKey(key));
        }
        List<ByteKey> keys = new ArrayList<>(n);
        for (int i = 0; i < n; i++) {
            keys.add(new ByteKey(req.keyBytes(i)));
        }
        return keys;
    }

    private void read(ProxyRequest pr, List<ByteKey> keys, ReplySink reply, int chosen) {
        MemcachedRequest req = pr.request();
        if (chosen >= 0 && keys.size() == 1 && req.command() == Command.MG && copyable(pr.flags())) {
            ReadTarget target = services.balancer().onRead(keys.get(0), chosen);
            if (target.shadow()) {
                shadows.metaRead(pr, keys.get(0), target.backend(), reply);
            } else {
                passThrough.handle(pr, timed(target.backend(), reply));
            }
            return;
        }
        if (req.command() != Command.GET || keys.size() != 1) {
            int home = -1;
            for (ByteKey k : keys) {
                home = services.balancer().onRead(k, false).backend();
            }
            passThrough.handle(pr, keys.size() == 1 ? timed(home, reply) : reply);
            return;
        }
        ByteKey key = keys.get(0);
        ReadTarget target = chosen >= 0
                ? services.balancer().onRead(key, chosen)
                : services.balancer().onRead(key, true);
        if (!target.shadow()) {
            passThrough.handle(pr, timed(target.backend(), reply));
            return;
        }
        shadows.read(pr, key, target.backend(), reply);
    }

    private void write(ProxyRequest pr, ByteKey key, ReplySink reply) {
        int stripe = ShadowReplicator.stripeOf(key);
        services.inFlightWrites().incrementAndGet(stripe);
        WriteTicket ticket;
        synchronized (services.order()) {
            ticket = services.balancer().onWrite(key);
            if (ticket.shadows().length > 0) {
                // Versioned; the stripe stays counted until the write is done, so that a copy for a replica set created
                // after this one's lease ended cannot read the home before this write lands.
                WriteTicket t = ticket;
                ReplySink landed = services.writeHandedOver(key, reply);
                services.loop()
                        .execute(() -> services.shadows()
                                .versionedWrite(
                                        pr,
                                        key,
                                        t.version(),
                                        t.home(),
                                        t.shadows(),
                                        loop,
                                        landed,
                                        () -> services.inFlightWrites().decrementAndGet(stripe)));
                return;
            }
        }
        int home = ticket.home();
        long start = System.nanoTime();
        passThrough.handle(pr, ReplySink.after(reply, () -> {
            services.inFlightWrites().decrementAndGet(stripe);
            services.balancer().onCompletion(home, System.nanoTime() - start);
        }));
    }

    /** Records the request's latency at {@code backend} when it completes. */
    private ReplySink timed(int backend, ReplySink reply) {
        if (backend < 0) {
            return reply;
        }
        long start = System.nanoTime();
        return ReplySink.after(reply, () -> services.balancer().onCompletion(backend, System.nanoTime() - start));
    }
}
