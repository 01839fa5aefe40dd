package io.locus.memcached.balance.netty;

import io.locus.memcached.backend.BackendPool;
import io.locus.memcached.backend.KetamaRing;
import io.locus.memcached.backend.PassThroughHandler;
import io.locus.memcached.backend.PoolRing;
import io.locus.memcached.backend.ReplySink;
import io.locus.memcached.backend.Transport;
import io.locus.memcached.balance.BalanceConfig;
import io.locus.memcached.balance.Balancer;
import io.locus.memcached.balance.EpochReport;
import io.locus.memcached.balance.LoadMonitor.BackendLoad;
import io.locus.memcached.balance.Phase;
import io.locus.memcached.balance.ReplicaDirectory;
import io.locus.memcached.balance.ReplicationPlanner;
import io.locus.memcached.balance.VirtualBucketTable;
import io.locus.memcached.cache.ByteKey;
import io.locus.memcached.config.ConfigException;
import io.locus.memcached.config.ProxyConfig;
import io.locus.memcached.stats.ProxyStats;
import io.netty.buffer.PooledByteBufAllocator;
import io.netty.channel.EventLoop;
import io.netty.channel.EventLoopGroup;
import io.netty.util.concurrent.DefaultThreadFactory;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.SplittableRandom;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicIntegerArray;
import java.util.concurrent.atomic.LongAdder;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The load balancer's host side, shared by all I/O threads (MBal §3, BALANCE.md, "Phase 1"): one
 * {@link Balancer} fed by every request, and one <em>replication thread</em> with its own backend connections that
 * runs the epoch tick, the Phase 1 copies and lease touches, and every write to a replicated key.
 *
 * <p>Why one thread: the read-your-writes rule of {@link ReplicaDirectory} needs the updates of one shadow key to
 * reach the shadow in the order their versions were handed out, and a copy's {@code copyMayProceed} check to be
 * atomic with sending its {@code ms}. Versions are handed out under {@link #order} together with the hand-over to
 * this thread, and this thread sends everything over one connection per backend, which memcached applies in order.
 * Writes to keys that are not replicated stay on the client's own I/O thread; a striped in-flight counter keeps a copy
 * from reading the home while such a write (begun before the key was replicated) has not landed yet.
 */
public final class BalancingServices implements AutoCloseable {
    private static final Logger LOG = LoggerFactory.getLogger(BalancingServices.class);
    private static final long TICK_MILLIS = 20;

    private final BalanceConfig config;
    private final Balancer<ByteKey> balancer;
    private final ProxyStats stats;
    /** Held while a write takes its version and, for a replicated key, is handed to the replication thread. */
    private final Object order = new Object();
    /** Writes in flight, by key stripe: a copy waits while one may not have reached the home. */
    private final AtomicIntegerArray inFlightWrites = new AtomicIntegerArray(ShadowReplicator.STRIPES);
    /**
     * Writes handed to this thread (to replicated keys, keys of migrating buckets, keys with availability copies) whose
     * client is not answered yet, by key. Why: such a write reaches its backends over this thread's connections, in
     * several steps, and a read sent over an I/O thread's connection could overtake it, so a client pipelining {@code
     * set} and {@code get} would read the value it just replaced. A read of a key listed here waits until those writes
     * are answered ({@link #writesLanded}).
     */
    private final java.util.concurrent.ConcurrentHashMap<ByteKey, List<java.util.concurrent.CompletableFuture<Void>>>
            writesInFlight = new java.util.concurrent.ConcurrentHashMap<>();

    private final EventLoopGroup group;
    private final EventLoop loop;
    private final BackendPool pool;
    private final PassThroughHandler homeWriter;
    private final ReplicationLink link;
    private final BucketMover mover;
    private final ShadowReplicator shadows;
    private final ScheduledFuture<?> ticker;
    private volatile EpochReport<ByteKey> last;
    /** Replication for availability, or null when {@code replication_factor} is 1. */
    private final AvailabilityReplication availability;

    private final LongAdder shadowReads = new LongAdder();
    private final LongAdder shadowFallbacks = new LongAdder();
    private final LongAdder readsBehindWrites = new LongAdder();
    /** Requests routed by a bucket's owner that are in flight, by bucket: a migration's copier waits for zero. */
    private final AtomicIntegerArray bucketInFlight;

    private final List<java.net.InetSocketAddress> addresses = new ArrayList<>();
    private final LongAdder migrationFallbackReads = new LongAdder();
    /** Each backend's last {@code stats} memory reading, or null before the first (read by {@code stats lb}). */
    private final java.util.concurrent.atomic.AtomicReferenceArray<BackendMemory> memory;

    private final java.util.concurrent.ScheduledExecutorService memoryPoller;

    /** The balancer of {@code config}, or null when {@code lb.enabled} is false and {@code replication_factor} 1. */
    public static BalancingServices create(ProxyConfig config, PoolRing ring, ProxyStats stats) {
        if (!config.balance().active()) {
            return null;
        }
        return new BalancingServices(config, ring, stats);
    }

    private BalancingServices(ProxyConfig config, PoolRing ring, ProxyStats stats) {
        this.config = config.balance().tuning();
        this.stats = stats;
        List<VirtualBucketTable.RingServer> servers = new ArrayList<>();
        for (KetamaRing.Server s : ring.servers()) {
            servers.add(new VirtualBucketTable.RingServer(s.ringName(), s.weight()));
        }
        VirtualBucketTable table = new VirtualBucketTable(servers, this.config.cacheletsPerBackend());
        this.bucketInFlight = new AtomicIntegerArray(table.bucketCount());
        double[] capacity = new double[servers.size()];
        java.util.Arrays.fill(capacity, config.balance().capacity());
        this.balancer =
                new Balancer<>(this.config, table, capacity, ByteKey::bytes, System::nanoTime, new SplittableRandom());
        this.group = Transport.group(1, new DefaultThreadFactory("locus-balance", true));
        this.loop = group.next();
        this.pool = new BackendPool(config, ring, loop, stats);
        this.homeWriter = new PassThroughHandler(pool, stats, PooledByteBufAllocator.DEFAULT);
        this.link = new ReplicationLink(pool);
        int copies = config.balance().replicationFactor();
        if (copies > servers.size()) {
            throw new ConfigException("replication_factor: " + copies + " (expected: 1.." + servers.size()
                    + ", the number of backends in pool.servers)");
        }
        for (KetamaRing.Server s : ring.servers()) {
            addresses.add(new java.net.InetSocketAddress(s.host(), s.port()));
        }
        this.shadows = new ShadowReplicator(this.config, balancer, link, homeWriter, inFlightWrites);
        this.mover = new BucketMover(this.config, balancer, loop, pool, link, addresses, bucketInFlight);
        this.availability = copies == 1 ? null : new AvailabilityReplication(table, copies, loop, pool, addresses);
        if (availability == null) {
            balancer.setUp(b -> pool.backend(b).state().equals("up"));
        } else {
            balancer.setUp(b -> availability.health(b) == AvailabilityReplication.UP);
        }
        this.ticker = loop.scheduleAtFixedRate(this::tick, TICK_MILLIS, TICK_MILLIS, TimeUnit.MILLISECONDS);
        this.memory = new java.util.concurrent.atomic.AtomicReferenceArray<>(servers.size());
        long pollMicros = config.balance().memoryPollMicros();
        if (pollMicros > 0) {
            // A thread of its own: the reads block, and neither the event loops nor the replication thread may wait.
            this.memoryPoller = java.util.concurrent.Executors.newSingleThreadScheduledExecutor(
                    new DefaultThreadFactory("locus-memory-poll", true));
            memoryPoller.scheduleWithFixedDelay(this::pollMemory, 0, pollMicros, TimeUnit.MICROSECONDS);
        } else {
            this.memoryPoller = null;
        }
        LOG.info(
                "load balancer on: epoch {}, capacity {} ops/s per backend, replicas_max {}, phase 1 {}, "
                        + "replication_factor {}",
                this.config.epoch(),
                config.balance().capacity(),
                this.config.replicasMax(),
                this.config.phase1Enabled() ? "on" : "off",
                copies);
    }

    public Balancer<ByteKey> balancer() {
        return balancer;
    }

    ProxyStats stats() {
        return stats;
    }

    /** Held while a write's version is taken and its order against copies fixed. */
    Object order() {
        return order;
    }

    AtomicIntegerArray inFlightWrites() {
        return inFlightWrites;
    }

    /** The balancer's own thread: copies, shadow updates and migration writes run there. */
    EventLoop loop() {
        return loop;
    }

    /** The availability copies, or null with {@code replication_factor} 1. */
    AvailabilityReplication availability() {
        return availability;
    }

    AtomicIntegerArray bucketInFlight() {
        return bucketInFlight;
    }

    void countShadowRead() {
        shadowReads.increment();
    }

    void countShadowFallback() {
        shadowFallbacks.increment();
    }

    /** Phase 3's copier and migration writes. */
    BucketMover mover() {
        return mover;
    }

    /**
     * Moves virtual {@code bucket} to {@code target} now ({@link BucketMover#migrate}).
     *
     * @return the copy's completion, or a future failed with {@link IllegalArgumentException} naming a bad argument
     */
    java.util.concurrent.CompletableFuture<Void> migrate(int bucket, int target) {
        return mover.migrate(bucket, target);
    }

    /** Phase 1's copies, lease touches and writes to replicated keys. */
    ShadowReplicator shadows() {
        return shadows;
    }

    void countMigrationFallbackRead() {
        migrationFallbackReads.increment();
    }

    /**
     * Lists a write to {@code key} as in flight until its client is answered, which happens once it landed where reads
     * look for the key; call before handing the write to {@link #loop()}. Returns the client's sink, which ends it.
     */
    ReplySink writeHandedOver(ByteKey key, ReplySink reply) {
        java.util.concurrent.CompletableFuture<Void> landed = new java.util.concurrent.CompletableFuture<>();
        writesInFlight.compute(key, (k, l) -> {
            List<java.util.concurrent.CompletableFuture<Void>> all = l == null ? new ArrayList<>(2) : l;
            all.add(landed);
            return all;
        });
        return ReplySink.after(reply, () -> {
            writesInFlight.computeIfPresent(key, (k, l) -> {
                l.remove(landed);
                return l.isEmpty() ? null : l;
            });
            landed.complete(null);
        });
    }

    /**
     * Completes once the writes to {@code keys} handed to this thread before now have landed; null if there are none
     * (the read may go at once). Later writes are not waited for, so a read cannot starve behind a stream of writes.
     */
    java.util.concurrent.CompletableFuture<Void> writesLanded(List<ByteKey> keys) {
        if (writesInFlight.isEmpty()) {
            return null; // no write handed over: nothing to wait for, nothing allocated
        }
        List<java.util.concurrent.CompletableFuture<Void>> all = new ArrayList<>();
        for (ByteKey k : keys) {
            writesInFlight.computeIfPresent(k, (key, l) -> {
                all.addAll(l);
                return l;
            });
        }
        if (all.isEmpty()) {
            return null;
        }
        readsBehindWrites.increment();
        return java.util.concurrent.CompletableFuture.allOf(all.toArray(new java.util.concurrent.CompletableFuture[0]));
    }

    /** Poller thread: every backend's {@code bytes} and {@code limit_maxbytes}, handed to the balancer's thread. */
    private void pollMemory() {
        for (int b = 0; b < addresses.size(); b++) {
            try {
                BackendMemory m = BackendMemory.poll(addresses.get(b));
                memory.set(b, m);
                int backend = b;
                loop.execute(() -> balancer.updateMemory(backend, m.bytes(), m.limitMaxBytes()));
            } catch (java.io.IOException | RuntimeException e) {
                // A backend that is down keeps its last reading; its state is the health check's business, not this
                // one's.
                LOG.debug("memory poll of backend {}: {}", b, e.toString());
            }
        }
    }

    // ---- the replication thread ----

    private void tick() {
        try {
            if (availability != null) {
                availability.tick();
            }
            EpochReport<ByteKey> report = balancer.tick();
            if (report == null) {
                return;
            }
            last = report;
            if (report.migration() != null) {
                for (io.locus.memcached.balance.MigrationPlanner.Move m :
                        report.migration().moves()) {
                    LOG.info(
                            "phase 3: moving virtual bucket {} from backend {} to {} ({} ops/s)",
                            m.bucket(),
                            m.from(),
                            m.to(),
                            String.format(Locale.ROOT, "%.1f", m.loadOpsPerSecond()));
                    mover.start(balancer.migrationOf(m.bucket()), new java.util.concurrent.CompletableFuture<>());
                }
            }
            for (ReplicationPlanner.Action<ByteKey> a : report.replication().actions()) {
                if (a.kind() == ReplicationPlanner.Kind.COPY) {
                    shadows.copy(a);
                } else {
                    shadows.touch(a);
                }
            }
        } catch (RuntimeException e) {
            LOG.warn("balancer epoch failed: {}", e.toString(), e);
        }
    }

    /** {@code stats lb} lines (also part of plain {@code stats} and the Prometheus page). */
    public Map<String, String> statsLines() {
        Map<String, String> m = new LinkedHashMap<>();
        EpochReport<ByteKey> r = last;
        m.put("lb:epoch", String.valueOf(r == null ? 0 : r.epoch()));
        m.put(
                "lb:phases",
                String.join(
                        ",",
                        balancer.phases().stream().map(Phase::name).sorted().toList()));
        m.put("lb:p1_triggers", String.valueOf(balancer.triggerCount(Phase.KEY_REPLICATION)));
        m.put("lb:replicated_keys", String.valueOf(balancer.directory().size()));
        m.put("lb:sample_rate", String.format(Locale.ROOT, "%.5f", r == null ? config.sampleRate() : r.sampleRate()));
        m.put("lb:max_over_mean", String.format(Locale.ROOT, "%.3f", r == null ? 0.0 : r.maxOverMean()));
        m.put("lb:hot_keys", String.valueOf(r == null ? 0 : r.hotspots().size()));
        m.put("lb:shadow_reads", String.valueOf(shadowReads.sum()));
        m.put("lb:shadow_fallbacks", String.valueOf(shadowFallbacks.sum()));
        m.put("lb:reads_behind_writes", String.valueOf(readsBehindWrites.sum()));
        shadows.statsLines(m);
        m.put("lb:p3_triggers", String.valueOf(balancer.triggerCount(Phase.COORDINATED_MIGRATION)));
        int moved = 0;
        int running = 0;
        VirtualBucketTable table = balancer.table();
        for (int k = 0; k < table.bucketCount(); k++) {
            moved += table.owner(k) != table.home(k) ? 1 : 0;
            running += balancer.migrationOf(k) != null ? 1 : 0;
        }
        m.put("lb:buckets_moved", String.valueOf(moved));
        m.put("lb:migrations_running", String.valueOf(running));
        mover.statsLines(m);
        m.put("lb:migration_fallback_reads", String.valueOf(migrationFallbackReads.sum()));
        for (int b = 0; b < memory.length(); b++) {
            BackendMemory mem = memory.get(b);
            if (mem != null) {
                m.put("lb:backend:" + b + ":bytes", String.valueOf(mem.bytes()));
                m.put("lb:backend:" + b + ":limit_maxbytes", String.valueOf(mem.limitMaxBytes()));
            }
        }
        if (availability != null) {
            m.putAll(availability.statsLines());
        }
        if (r != null) {
            for (BackendLoad l : r.loads()) {
                String p = "lb:backend:" + l.backend() + ":";
                m.put(p + "ops", String.format(Locale.ROOT, "%.1f", l.opsPerSecond()));
                m.put(p + "write_ops", String.format(Locale.ROOT, "%.1f", l.writeOpsPerSecond()));
                m.put(p + "utilization", String.format(Locale.ROOT, "%.3f", l.utilization()));
                m.put(
                        p + "latency_us",
                        String.format(
                                Locale.ROOT, "%.1f", l.meanLatencyNanos() < 0 ? -1.0 : l.meanLatencyNanos() / 1000));
            }
        }
        return m;
    }

    @Override
    public void close() {
        mover.close();
        ticker.cancel(false);
        if (memoryPoller != null) {
            memoryPoller.shutdownNow();
        }
        loop.submit(pool::close).awaitUninterruptibly(5, TimeUnit.SECONDS);
        group.shutdownGracefully(0, 2, TimeUnit.SECONDS).awaitUninterruptibly();
    }
}
