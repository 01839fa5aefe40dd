package io.locus.memcached.balance.netty;

import io.locus.memcached.backend.BackendCall;
import io.locus.memcached.backend.BackendConnection;
import io.locus.memcached.backend.BackendPool;
import io.locus.memcached.backend.ProxyRequest;
import io.locus.memcached.backend.ReplySink;
import io.locus.memcached.balance.AvailabilityPlacement;
import io.locus.memcached.balance.ReplicaDirectory;
import io.locus.memcached.balance.VirtualBucketTable;
import io.locus.memcached.cache.ByteKey;
import io.locus.memcached.protocol.BackendReply;
import io.locus.memcached.protocol.ReplyFormat;
import io.netty.buffer.ByteBuf;
import io.netty.channel.EventLoop;
import java.io.IOException;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.Semaphore;
import java.util.concurrent.atomic.AtomicIntegerArray;
import java.util.concurrent.atomic.AtomicLongArray;
import java.util.concurrent.atomic.LongAdder;
import java.util.function.Consumer;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Replication for availability ({@code replication_factor} N > 1; ClusterOn's proxy-side replication,
 * Cheng's dissertation, ch. 7): every item is written to the N backends that {@link AvailabilityPlacement}
 * gives its key, and read from the first of them that is up, so a dead backend loses no item that had a copy.
 *
 * <p>Backend health is one shared array: UP (reads and writes), DOWN (neither; set when a request to it fails) and
 * WARMING (writes only). Writes run on the replication thread over one connection per backend, so every copy applies
 * one key's writes in the same order. A DOWN backend is probed with {@code version}; when it answers, it is flushed
 * (it may be empty after a restart, or stale after a partition), takes writes at once, and is warmed: every key of
 * the other backends' {@code lru_crawler metadump} whose copies include it is read there ({@code mg}) and added to it
 * ({@code ms ... ME}, add-only, so a newer write is never overwritten); a key written or deleted since the warm began
 * is skipped, since the write itself reached the warming backend. Then it is UP again.
 */
final class AvailabilityReplication {
    private static final Logger LOG = LoggerFactory.getLogger(AvailabilityReplication.class);
    static final int UP = 0;
    static final int DOWN = 1;
    static final int WARMING = 2;
    private static final long PROBE_NANOS = 200_000_000L;

    private final AvailabilityPlacement placement;
    /** The balancer's thread, where copies and warming report back. */
    private final EventLoop loop;

    private final BackendPool replPool;
    private final List<InetSocketAddress> addresses;
    private final AtomicIntegerArray health;
    /** Keys written since a warm began; replication thread only. */
    private static final byte[] SHADOW_PREFIX = ReplicaDirectory.SHADOW_PREFIX.getBytes(StandardCharsets.US_ASCII);

    private final Set<ByteKey> touched = new HashSet<>();

    private final boolean[] probing;
    /** When each backend last became UP (System.nanoTime), for client threads' stale fail-fast state. */
    private final AtomicLongArray upSinceNanos;

    private int warming;
    private long lastProbe;

    private final LongAdder readRetries = new LongAdder();
    private final LongAdder downEvents = new LongAdder();
    private final LongAdder warmedKeys = new LongAdder();
    private final LongAdder warmSkipped = new LongAdder();
    private final LongAdder warms = new LongAdder();

    AvailabilityReplication(
            VirtualBucketTable table,
            int replicationFactor,
            EventLoop loop,
            BackendPool replPool,
            List<InetSocketAddress> addresses) {
        this.placement = new AvailabilityPlacement(table, replicationFactor);
        this.loop = loop;
        this.replPool = replPool;
        this.addresses = addresses;
        this.health = new AtomicIntegerArray(addresses.size());
        this.probing = new boolean[addresses.size()];
        this.upSinceNanos = new AtomicLongArray(addresses.size());
        long now = System.nanoTime();
        for (int b = 0; b < addresses.size(); b++) {
            upSinceNanos.set(b, now);
        }
    }

    int[] copiesOf(ByteKey key) {
        return placement.copiesOf(key.bytes());
    }

    int health(int backend) {
        return health.get(backend);
    }

    void markDown(int backend) {
        if (health.getAndSet(backend, DOWN) != DOWN) {
            downEvents.increment();
            LOG.warn(
                    "backend {} is down: reads go to its keys' other copies until it is back and warmed",
                    addresses.get(backend));
        }
    }

    // ---- client I/O threads: reads ----

    /** Reads from the first up copy; on a failure, marks it down and tries the next. Releases the request. */
    void read(ProxyRequest pr, int[] copies, int from, BackendPool pool, ReplySink reply) {
        for (int i = from; i < copies.length; i++) {
            int b = copies[i];
            if (health.get(b) != UP) {
                continue;
            }
            int next = i + 1;
            pool.backend(b).forgetFailuresBefore(upSinceNanos.get(b));
            Forwarding.forward(pool, b, pr, pr.connectionId(), new Forwarding.Outcome() {
                @Override
                public void reply(ByteBuf bytes) {
                    pr.request().release();
                    Forwarding.deliver(reply, bytes);
                }

                @Override
                public void failed(String line) {
                    markDown(b);
                    readRetries.increment();
                    read(pr, copies, next, pool, reply);
                }
            });
            return;
        }
        pr.request().release();
        reply.completeLine(BackendConnection.UNAVAILABLE);
    }

    // ---- replication thread: writes, probes, warming ----

    /** A write to every copy that takes writes; the client gets the first copy's answer. Releases the request. */
    void write(ProxyRequest pr, ByteKey key, EventLoop clientLoop, ReplySink reply) {
        int[] copies = copiesOf(key);
        List<Integer> targets = new ArrayList<>();
        for (int b : copies) {
            if (health.get(b) != DOWN) {
                targets.add(b);
            }
        }
        if (warming > 0) {
            touched.add(key);
        }
        if (targets.isEmpty()) {
            pr.request().release();
            clientLoop.execute(() -> reply.completeLine(BackendConnection.UNAVAILABLE));
            return;
        }
        Object[] results = new Object[targets.size()]; // ByteBuf, or a failure line
        int[] pending = {targets.size()};
        for (int i = 0; i < targets.size(); i++) {
            int slot = i;
            int b = targets.get(i);
            Forwarding.forward(replPool, b, pr, 0, new Forwarding.Outcome() {
                @Override
                public void reply(ByteBuf bytes) {
                    results[slot] = bytes == null ? "" : bytes;
                    done();
                }

                @Override
                public void failed(String line) {
                    markDown(b);
                    results[slot] = line;
                    done();
                }

                private void done() {
                    if (--pending[0] > 0) {
                        return;
                    }
                    boolean quiet = pr.request().quiet();
                    pr.request().release();
                    Object chosen = null;
                    for (Object r : results) {
                        if (chosen == null && !(r instanceof String s && s.startsWith("SERVER_ERROR backend"))) {
                            chosen = r;
                        } else if (r instanceof ByteBuf other) {
                            other.release();
                        }
                    }
                    Object answer = chosen == null ? results[0] : chosen;
                    clientLoop.execute(() -> {
                        if (answer instanceof ByteBuf bb) {
                            Forwarding.deliver(reply, bb);
                        } else if (quiet || "".equals(answer)) {
                            reply.completeSilently();
                        } else {
                            reply.completeLine((String) answer);
                        }
                    });
                }
            });
        }
    }

    /** Once per tick on the replication thread: probe backends that are down. */
    void tick() {
        long now = System.nanoTime();
        if (now - lastProbe < PROBE_NANOS) {
            return;
        }
        lastProbe = now;
        for (int b = 0; b < health.length(); b++) {
            if (health.get(b) != DOWN || probing[b]) {
                continue;
            }
            int backend = b;
            probing[b] = true;
            send(b, "version\r\n", r -> {
                probing[backend] = false;
                if (r != null && r.startsWith("VERSION")) {
                    startWarming(backend);
                }
            });
        }
    }

    private void startWarming(int b) {
        health.set(b, WARMING);
        warming++;
        warms.increment();
        LOG.info("backend {} answers again: flushing it, then warming it from the other copies", addresses.get(b));
        send(b, "flush_all\r\n", r -> {
            if (r == null || !r.startsWith("OK")) {
                finishWarming(b, false);
                return;
            }
            Thread t = new Thread(() -> warm(b), "locus-warm-" + b);
            t.setDaemon(true);
            t.start();
        });
    }

    private void finishWarming(int b, boolean ok) {
        warming--;
        if (warming == 0) {
            touched.clear();
        }
        if (ok && health.get(b) == WARMING) {
            upSinceNanos.set(b, System.nanoTime());
            health.set(b, UP);
            LOG.info("backend {} is warm and serves reads again", addresses.get(b));
        } else {
            markDown(b);
        }
    }

    /** Warm thread: lists the other backends' keys and hands those with a copy on {@code target} to the copier. */
    private void warm(int target) {
        Semaphore window = new Semaphore(256);
        boolean ok = true;
        for (int source = 0; source < addresses.size(); source++) {
            if (source == target || health.get(source) != UP) {
                continue;
            }
            int from = source;
            try {
                for (ByteKey key : Metadump.keys(addresses.get(source))) {
                    if (key.startsWith(SHADOW_PREFIX) || !contains(copiesOf(key), target)) {
                        continue;
                    }
                    window.acquireUninterruptibly();
                    loop.execute(() -> copy(key, from, target, window::release));
                }
            } catch (IOException | RuntimeException e) {
                ok = false; // keys may be missing: down again, so the next probe flushes and warms it anew
                LOG.warn("warming backend {} from {}: {}", addresses.get(target), addresses.get(source), e.toString());
            }
        }
        window.acquireUninterruptibly(256);
        boolean result = ok;
        loop.execute(() -> finishWarming(target, result));
    }

    /** Replication thread: {@code mg} at the source, then add-only {@code ms} at the target unless the key was written. */
    private void copy(ByteKey key, int source, int target, Runnable done) {
        if (touched.contains(key) || health.get(target) != WARMING) {
            warmSkipped.increment();
            done.run();
            return;
        }
        String b64 = MetaValue.base64(key);
        sendRaw(source, "mg " + b64 + " b v f t\r\n", null, r -> {
            MetaValue v = r == null ? null : MetaValue.parse(r.bytes());
            if (r != null) {
                r.release();
            }
            if (v == null || v.data() == null || touched.contains(key)) {
                if (v != null) {
                    v.release();
                }
                warmSkipped.increment();
                done.run();
                return;
            }
            String line = "ms " + b64 + " " + v.data().readableBytes() + " b F" + v.flags() + " T"
                    + Math.max(0, v.ttl()) + " ME\r\n";
            sendRaw(target, line, v.data(), x -> {
                if (x != null && x.bytes().getByte(x.bytes().readerIndex()) == 'H') {
                    warmedKeys.increment(); // HD; NS means a write got there first, which is newer
                } else {
                    warmSkipped.increment();
                }
                if (x != null) {
                    x.release();
                }
                done.run();
            });
        });
    }

    private static boolean contains(int[] values, int v) {
        for (int x : values) {
            if (x == v) {
                return true;
            }
        }
        return false;
    }

    private void send(int backend, String line, Consumer<String> then) {
        sendRaw(backend, line, null, ReplyFormat.LINE, r -> {
            String s = r == null ? null : r.bytes().toString(StandardCharsets.ISO_8859_1);
            if (r != null) {
                r.release();
            }
            then.accept(s);
        });
    }

    private void sendRaw(int backend, String line, ByteBuf data, Consumer<BackendReply> then) {
        sendRaw(backend, line, data, ReplyFormat.META, then);
    }

    private void sendRaw(int backend, String line, ByteBuf data, ReplyFormat format, Consumer<BackendReply> then) {
        replPool.backend(backend).send(BackendCall.internal(format, line, data, then), 0);
    }

    Map<String, String> statsLines() {
        Map<String, String> m = new LinkedHashMap<>();
        for (int b = 0; b < health.length(); b++) {
            int h = health.get(b);
            m.put("lb:avail:backend:" + b + ":state", h == UP ? "up" : h == DOWN ? "down" : "warming");
        }
        m.put("lb:avail:down_events", String.valueOf(downEvents.sum()));
        m.put("lb:avail:read_retries", String.valueOf(readRetries.sum()));
        m.put("lb:avail:warms", String.valueOf(warms.sum()));
        m.put("lb:avail:warmed_keys", String.valueOf(warmedKeys.sum()));
        m.put("lb:avail:warm_skipped", String.valueOf(warmSkipped.sum()));
        return m;
    }
}
