package io.locus.memcached.balance.netty;

import io.locus.memcached.backend.PassThroughHandler;
import io.locus.memcached.backend.ProxyRequest;
import io.locus.memcached.backend.ReplySink;
import io.locus.memcached.balance.BalanceConfig;
import io.locus.memcached.balance.Balancer;
import io.locus.memcached.balance.ReplicaDirectory;
import io.locus.memcached.balance.ReplicationPlanner;
import io.locus.memcached.cache.ByteKey;
import io.locus.memcached.protocol.ReplyFormat;
import io.netty.buffer.ByteBuf;
import io.netty.channel.EventLoop;
import java.util.Map;
import java.util.concurrent.atomic.AtomicIntegerArray;
import java.util.concurrent.atomic.LongAdder;

/**
 * Phase 1 on the replication thread (MBal §3.2, BALANCE.md, "Phase 1"): copies a hot key from its home to a new
 * shadow, touches shadows whose lease was renewed, and carries out writes to replicated keys (home first, then every
 * shadow), recording in the {@link ReplicaDirectory} which version each shadow acknowledged. The versions and the
 * rule of who may read a shadow are the directory's; this class only talks to the backends, over the replication
 * thread's ordered connections ({@link ReplicationLink}). Replication thread only.
 */
final class ShadowReplicator {
    /** Stripes of the in-flight write counts. */
    static final int STRIPES = 1024;

    private final BalanceConfig config;
    private final Balancer<ByteKey> balancer;
    private final ReplicationLink link;
    /** The pass-through over the replication thread's connections: a client's write runs at the home with it. */
    private final PassThroughHandler homeWriter;

    private static final byte[] SHADOW_PREFIX =
            ReplicaDirectory.SHADOW_PREFIX.getBytes(java.nio.charset.StandardCharsets.US_ASCII);

    /** Writes in flight, by key stripe ({@link #stripeOf}): a copy waits while one may not have reached the home. */
    private final AtomicIntegerArray inFlightWrites;

    private final LongAdder versionedWrites = new LongAdder();
    private final LongAdder shadowUpdateFailures = new LongAdder();
    private final LongAdder copies = new LongAdder();
    private final LongAdder copiesDropped = new LongAdder();
    private final LongAdder copiesDeferred = new LongAdder();
    private final LongAdder touches = new LongAdder();
    private final LongAdder touchMisses = new LongAdder();

    ShadowReplicator(
            BalanceConfig config,
            Balancer<ByteKey> balancer,
            ReplicationLink link,
            PassThroughHandler homeWriter,
            AtomicIntegerArray inFlightWrites) {
        this.config = config;
        this.balancer = balancer;
        this.link = link;
        this.homeWriter = homeWriter;
        this.inFlightWrites = inFlightWrites;
    }

    /** Phase 1 copy: {@code mg} at the home, then {@code ms} at the shadow if no write began meanwhile. */
    void copy(ReplicationPlanner.Action<ByteKey> a) {
        ByteKey key = a.key();
        ReplicaDirectory<ByteKey> dir = balancer.directory();
        if (!dir.contains(key)) {
            return;
        }
        if (inFlightWrites.get(stripeOf(key)) != 0) {
            // A write that began before the key was replicated may not have reached the home: the copy could read the
            // value it replaces. The shadow stays stale (unreadable); the next renewal copies again.
            copiesDeferred.increment();
            return;
        }
        long version = dir.beginCopy(key);
        link.readHome(a.home(), key, value -> {
            if (!dir.copyMayProceed(key, version)) {
                copiesDropped.increment(); // a write began meanwhile; its own shadow update refreshes the shadow
                value.release();
                return;
            }
            copies.increment();
            updateShadow(key, a.shadow(), version, value);
        });
    }

    void touch(ReplicationPlanner.Action<ByteKey> a) {
        touches.increment();
        String line = "mg " + shadowKey(a.key()) + " b T" + Math.max(1, a.ttlSeconds()) + "\r\n";
        link.send(a.shadow(), ReplyFormat.META, line, null, r -> {
            boolean hit = r != null && ReplicationLink.startsWith(r.bytes(), "HD");
            if (r != null) {
                r.release();
            }
            if (!hit) {
                touchMisses.increment(); // evicted or the backend failed: stale until the next renewal re-copies it
                balancer.directory().shadowFailed(a.key(), a.shadow());
            }
        });
    }

    /**
     * A write to a replicated key, on the replication thread: the client's command at the home, then an {@code mg} at
     * the home on the same connection (so it sees this write or a later one), then that value or its absence at every
     * shadow. Replies go back to {@code done} on the client's thread: after the home ({@code async}) or after every
     * copy ({@code sync}).
     */
    void versionedWrite(
            ProxyRequest pr,
            ByteKey key,
            long version,
            int home,
            int[] shadows,
            EventLoop clientLoop,
            ReplySink done,
            Runnable landed) {
        versionedWrites.increment();
        ProxyRequest onOneConnection = new ProxyRequest(pr.request(), pr.resolution(), pr.arrivalNanos(), 0);
        long start = System.nanoTime();
        int[] pending = {1 + shadows.length};
        Object[] homeReply = new Object[1]; // ByteBuf, String (a line) or null (silent)
        boolean sync = config.syncShadowUpdates();
        Runnable finishOne = () -> {
            if (--pending[0] == 0) {
                landed.run();
                if (sync) {
                    deliver(homeReply[0], clientLoop, done);
                }
            }
        };
        homeWriter.handle(onOneConnection, new ReplySink() {
            @Override
            public void complete(ByteBuf reply) {
                homeDone(reply);
            }

            @Override
            public void completeLine(String line) {
                homeDone(line);
            }

            @Override
            public void completeSilently() {
                homeDone(null);
            }

            private void homeDone(Object r) {
                balancer.onCompletion(home, System.nanoTime() - start);
                homeReply[0] = r;
                if (!sync) {
                    deliver(r, clientLoop, done);
                }
                finishOne.run();
            }
        });
        link.readHome(home, key, value -> {
            for (int s : shadows) {
                updateShadow(key, s, version, value.retainedDuplicate(), finishOne);
            }
            value.release();
        });
    }

    private static void deliver(Object r, EventLoop clientLoop, ReplySink done) {
        clientLoop.execute(() -> {
            if (r instanceof ByteBuf b) {
                done.complete(b);
            } else if (r instanceof String line) {
                done.completeLine(line);
            } else {
                done.completeSilently();
            }
        });
    }

    private void updateShadow(ByteKey key, int shadow, long version, MetaValue value) {
        updateShadow(key, shadow, version, value, () -> {});
    }

    /** Makes the shadow hold {@code value} (or nothing), then records the version it acknowledged. */
    private void updateShadow(ByteKey key, int shadow, long version, MetaValue value, Runnable then) {
        String line;
        ByteBuf data = null;
        if (value.failed()) {
            line = "md " + shadowKey(key) + " b\r\n"; // the home's state is unknown: make sure the shadow holds nothing
        } else if (value.data() == null) {
            line = "md " + shadowKey(key) + " b\r\n";
        } else {
            line = "ms " + shadowKey(key) + " " + value.data().readableBytes() + " b F" + value.flags() + " T"
                    + shadowTtl(key, value.ttl()) + "\r\n";
            data = value.data();
        }
        boolean homeFailed = value.failed();
        link.send(shadow, ReplyFormat.META, line, data, r -> {
            boolean ok = r != null
                    && (ReplicationLink.startsWith(r.bytes(), "HD") || ReplicationLink.startsWith(r.bytes(), "NF"));
            if (r != null) {
                r.release();
            }
            if (ok && !homeFailed) {
                balancer.directory().shadowWritten(key, shadow, version);
            } else {
                shadowUpdateFailures.increment();
                if (!ok) {
                    link.send(shadow, ReplyFormat.META, "md " + shadowKey(key) + " b\r\n", null, x -> {
                        if (x != null) {
                            x.release();
                        }
                    });
                }
                balancer.directory().shadowFailed(key, shadow);
            }
            then.run();
        });
    }

    /** Seconds a shadow item may live: the rest of the lease, and never longer than the item itself. */
    private long shadowTtl(ByteKey key, long itemTtl) {
        long lease;
        try {
            lease = (balancer.directory().leaseExpiresNanos(key) - System.nanoTime() + 999_999_999L) / 1_000_000_000L;
        } catch (IllegalArgumentException e) { // the lease ended meanwhile: the copy lives one lease at most
            lease = (long) Math.ceil(config.leaseP1Epochs() * config.epochSeconds());
        }
        lease = Math.max(1, lease);
        return itemTtl > 0 ? Math.min(lease, itemTtl) : lease;
    }

    static int stripeOf(ByteKey key) {
        return (key.hashCode() & 0x7fffffff) % STRIPES;
    }

    /** The key a shadow backend stores a replica under, base64 for meta commands' {@code b} flag. */
    static String shadowKey(ByteKey key) {
        return java.util.Base64.getEncoder().encodeToString(shadowKeyBytes(key));
    }

    /** The bytes of the key a shadow backend stores a replica under: {@link ReplicaDirectory#SHADOW_PREFIX} + key. */
    static byte[] shadowKeyBytes(ByteKey key) {
        byte[] k = key.bytes();
        byte[] shadow = java.util.Arrays.copyOf(SHADOW_PREFIX, SHADOW_PREFIX.length + k.length);
        System.arraycopy(k, 0, shadow, SHADOW_PREFIX.length, k.length);
        return shadow;
    }

    /** {@code stats lb} lines of Phase 1's work on the replication thread. */
    void statsLines(Map<String, String> m) {
        m.put("lb:versioned_writes", String.valueOf(versionedWrites.sum()));
        m.put("lb:shadow_update_failures", String.valueOf(shadowUpdateFailures.sum()));
        m.put("lb:copies", String.valueOf(copies.sum()));
        m.put("lb:copies_dropped", String.valueOf(copiesDropped.sum()));
        m.put("lb:copies_deferred", String.valueOf(copiesDeferred.sum()));
        m.put("lb:touches", String.valueOf(touches.sum()));
        m.put("lb:touch_misses", String.valueOf(touchMisses.sum()));
    }
}
