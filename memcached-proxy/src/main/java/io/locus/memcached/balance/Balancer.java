package io.locus.memcached.balance;

import io.locus.memcached.balance.HotKeyTracker.HotKey;
import io.locus.memcached.balance.HotspotDetector.Hotspot;
import io.locus.memcached.balance.LoadMonitor.BackendLoad;
import io.locus.memcached.balance.ReplicaDirectory.ReadTarget;
import io.locus.memcached.balance.ReplicaDirectory.WriteTicket;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collections;
import java.util.HashMap;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.function.Function;
import java.util.function.IntPredicate;
import java.util.function.LongSupplier;
import java.util.function.Predicate;
import java.util.random.RandomGenerator;

/**
 * The load balancer's entry point: the proxy reports every request and asks where reads and writes go; once per
 * epoch {@link #tick} runs statistics, the {@link PhaseStateMachine}, the Phase 1 {@link ReplicationPlanner} and the
 * Phase 3 {@link MigrationPlanner}, and returns the work for the proxy (MBal §3, BALANCE.md, "In the proxy").
 *
 * <p>Request path ({@link #onRead}, {@link #onWrite}): O(1) plus O(copies), thread-safe (each component
 * synchronises briefly). The epoch path ({@link #tick}) must be called from one thread; it is cheap to call often,
 * since it returns null until an epoch has elapsed on the injected clock. Keys of virtual buckets being migrated are
 * routed by {@link #migrationOf} (the proxy drives those, see {@link BucketMigration}). {@code lb.phases} switches
 * phases off; with {@code none} the balancer only observes.
 *
 * @param <K> key type with value equality (the proxy's key wrapper; {@code String} in tests)
 */
public final class Balancer<K> {
    private final BalanceConfig config;
    private final VirtualBucketTable table;
    private final Function<K, byte[]> bytesOf;
    private final LongSupplier clock;
    private final LoadMonitor monitor;
    private final HotKeyTracker<K> tracker;
    private final HotspotDetector<K> detector;
    private final ReplicaDirectory<K> directory;
    private final ReplicationPlanner<K> replication;
    private final CostBenefitAnalyzer analyzer;
    private final PhaseStateMachine phases;
    private final MigrationPlanner migrationPlanner;
    /** The sampling rate in force in NORMAL: {@code lb.sample_rate}, raised to {@link #baseSampleRate}'s floor. */
    private final double baseSampleRate;
    /** Read by the proxy's I/O threads on every request, changed by the epoch thread. */
    private final Map<Integer, BucketMigration<K>> migrations = new java.util.concurrent.ConcurrentHashMap<>();

    private final Map<Integer, Long> movedAtEpoch = new HashMap<>();
    private final long[] usedBytes;
    private final long[] maxBytes;
    private volatile IntPredicate up = b -> true;
    private long epochStartNanos;
    private long epoch;
    private boolean migrationGaveUp;

    /**
     * @param capacityOpsPerSecond T_b per backend, indexed like the table's servers
     * @param bytesOf the key's bytes as hashed on the ring
     * @param clock nanoseconds, monotonic
     * @param random seeds the key sampling
     * @throws IllegalArgumentException if the capacities do not match the ring's servers
     */
    public Balancer(
            BalanceConfig config,
            VirtualBucketTable table,
            double[] capacityOpsPerSecond,
            Function<K, byte[]> bytesOf,
            LongSupplier clock,
            RandomGenerator random) {
        if (capacityOpsPerSecond.length != table.servers()) {
            throw new IllegalArgumentException("capacities for " + capacityOpsPerSecond.length + " backends (expected: "
                    + table.servers() + ", the servers on the ring)");
        }
        this.config = config;
        this.table = table;
        this.bytesOf = bytesOf;
        this.clock = clock;
        this.monitor = new LoadMonitor(capacityOpsPerSecond, table.bucketCount());
        this.tracker = new HotKeyTracker<>(config, random);
        this.baseSampleRate = baseSampleRate(config, capacityOpsPerSecond);
        tracker.setSampleRate(baseSampleRate);
        this.detector = new HotspotDetector<>(config);
        this.directory = new ReplicaDirectory<>(config, table.servers(), clock);
        Predicate<K> replicable = k -> bytesOf.apply(k).length <= ReplicaDirectory.MAX_REPLICABLE_KEY_BYTES;
        this.replication = new ReplicationPlanner<>(config, directory, replicable);
        this.analyzer = new CostBenefitAnalyzer(config);
        this.phases = new PhaseStateMachine(config);
        this.migrationPlanner = new MigrationPlanner(config);
        this.usedBytes = new long[table.servers()];
        this.maxBytes = new long[table.servers()];
        Arrays.fill(maxBytes, Long.MAX_VALUE);
        this.epochStartNanos = clock.getAsLong();
    }

    /**
     * Expected samples per epoch of a key right at the hot threshold, below which {@code lb.sample_rate} is raised.
     * Why: a key is hot at {@code r >= lb.hot_rate_fraction * T} and must stay hot {@code lb.persistence} epochs in
     * a row; if such a key is sampled less than about once per epoch, its decayed count falls under the threshold
     * between samples, the streak breaks, and the lease of a replicated key lapses. With MBal's ps = 0.05, T = 4000
     * ops/s and 1 s epochs a threshold key gets 4 samples per epoch; with T = 500 and 500 ms epochs it would get 0.25,
     * and Phase 1 would replicate the hottest key only now and then ({@code ./locus bench proxy-balance}).
     */
    public static final double MIN_THRESHOLD_SAMPLES = 4;

    /**
     * {@code lb.sample_rate}, raised (up to 1) so that a key at the hot threshold of the smallest backend is expected
     * to be sampled {@link #MIN_THRESHOLD_SAMPLES} times per epoch. The sample rate bounds the tracker's cost per
     * request; where that floor lifts it, the request rate is low enough for the cost not to matter (ps·T·E is a
     * few hundred samples per epoch at most). Unchanged for the defaults (T = 50,000, 1 s epochs: floor 0.004).
     */
    static double baseSampleRate(BalanceConfig config, double[] capacityOpsPerSecond) {
        double smallest = Double.POSITIVE_INFINITY;
        for (double t : capacityOpsPerSecond) {
            smallest = Math.min(smallest, t);
        }
        double thresholdSamplesAtPs1 = config.hotRateFraction() * smallest * config.epochSeconds();
        double floor = thresholdSamplesAtPs1 > 0 ? MIN_THRESHOLD_SAMPLES / thresholdSamplesAtPs1 : 1;
        return Math.min(1, Math.max(config.sampleRate(), floor));
    }

    /** The sampling rate in force while no phase lowers it: {@code lb.sample_rate} or its floor. */
    public double baseSampleRate() {
        return baseSampleRate;
    }

    /** Counts a read of {@code key} and chooses its backend (home or a readable shadow, least loaded this epoch). */
    public ReadTarget onRead(K key) {
        return onRead(key, true);
    }

    /**
     * As {@link #onRead(Object)}; with {@code mayUseShadow} false the read is counted at the home and sent there
     * (reads whose reply carries home-specific data, such as a {@code gets} cas unique, or multi-key gets).
     */
    public ReadTarget onRead(K key, boolean mayUseShadow) {
        byte[] bytes = bytesOf.apply(key);
        int bucket = table.bucketOf(bytes);
        int home = table.owner(bucket);
        ReadTarget target = mayUseShadow && directory.contains(key)
                ? directory.readTarget(key, home, b -> monitor.epochCount(b) / monitor.capacity(b))
                : new ReadTarget(home, false);
        monitor.recordRequest(target.backend(), false);
        monitor.recordBucket(bucket);
        tracker.recordRead(key);
        return target;
    }

    /**
     * The backends that could serve a read of {@code key} now, its owner first, then its readable shadows; counts
     * nothing. A caller that predicts each backend's finish (the deadline scheduler) picks one of them and passes it
     * to {@link #onRead(Object, int)}.
     */
    public int[] readCopies(K key) {
        return directory.readableCopies(key, table.owner(table.bucketOf(bytesOf.apply(key))));
    }

    /**
     * Counts a read of {@code key} that the caller chose to send to {@code chosen} (one of {@link #readCopies}), and
     * returns where it must go: {@code chosen} if it is the owner or a shadow still readable, else the owner. Why the
     * check again: a write may have begun since the choice, and a read must never reach a shadow behind it.
     */
    public ReadTarget onRead(K key, int chosen) {
        byte[] bytes = bytesOf.apply(key);
        int bucket = table.bucketOf(bytes);
        int home = table.owner(bucket);
        ReadTarget target = chosen != home && directory.contains(key)
                ? directory.readTarget(key, home, b -> b == chosen ? 0 : 1)
                : new ReadTarget(home, false);
        monitor.recordRequest(target.backend(), false);
        monitor.recordBucket(bucket);
        tracker.recordRead(key);
        return target;
    }

    /** Counts a write of {@code key} and returns its targets: the home, then the shadows (each counted as load). */
    public WriteTicket onWrite(K key) {
        byte[] bytes = bytesOf.apply(key);
        int bucket = table.bucketOf(bytes);
        int home = table.owner(bucket);
        WriteTicket ticket = directory.beginWrite(key, home);
        monitor.recordRequest(home, true);
        for (int s : ticket.shadows()) {
            monitor.recordRequest(s, true);
        }
        monitor.recordBucket(bucket);
        tracker.recordWrite(key);
        return ticket;
    }

    /** Records a completed request's latency at {@code backend}. */
    public void onCompletion(int backend, long latencyNanos) {
        monitor.recordLatency(backend, latencyNanos);
    }

    /** Which backends are up; shadows and migration targets are chosen among them. */
    public void setUp(IntPredicate upBackends) {
        this.up = upBackends;
    }

    /** Memory of a backend from its {@code stats} ({@code bytes}, {@code limit_maxbytes}), for Phase 3. */
    public void updateMemory(int backend, long bytes, long limitMaxBytes) {
        usedBytes[backend] = bytes;
        maxBytes[backend] = limitMaxBytes;
    }

    /** The replica directory (for shadow acknowledgements and copies). */
    public ReplicaDirectory<K> directory() {
        return directory;
    }

    /** The bucket table. */
    public VirtualBucketTable table() {
        return table;
    }

    /** The migration of {@code bucket} in progress, or null. */
    public BucketMigration<K> migrationOf(int bucket) {
        return migrations.get(bucket);
    }

    /** Active phases after the last epoch. */
    public Set<Phase> phases() {
        return phases.active();
    }

    /** How often {@code phase} was entered. */
    public long triggerCount(Phase phase) {
        return phases.triggerCount(phase);
    }

    /**
     * Ends the epoch if {@code lb.epoch} has elapsed on the clock, runs the phases and returns their work; null
     * otherwise. Rates use the real elapsed time.
     */
    public EpochReport<K> tick() {
        long now = clock.getAsLong();
        long elapsed = now - epochStartNanos;
        if (elapsed < config.epochNanos()) {
            return null;
        }
        epochStartNanos = now;
        epoch++;
        double seconds = elapsed / 1e9;
        double[] bucketRates = new double[table.bucketCount()];
        List<BackendLoad> loads = monitor.endEpoch(seconds, bucketRates);
        List<HotKey<K>> tracked = tracker.endEpoch(seconds);
        List<Hotspot<K>> hot = detector.detect(tracked, k -> table.ownerOf(bytesOf.apply(k)), loads);

        double[] l = new double[loads.size()];
        double[] t = new double[loads.size()];
        int hottest = 0;
        for (BackendLoad b : loads) {
            l[b.backend()] = b.opsPerSecond();
            t[b.backend()] = b.capacityOpsPerSecond();
            if (b.utilization() > loads.get(hottest).utilization()) {
                hottest = b.backend();
            }
        }
        List<Hotspot<K>> onHottest = new ArrayList<>();
        boolean persistent = false;
        for (Hotspot<K> h : hot) {
            persistent |= h.persistent() || directory.contains(h.stats().key());
            if (h.home() == hottest) {
                onHottest.add(h);
            }
        }
        CostBenefitAnalyzer.Assessment assessment =
                analyzer.assess(loads.get(hottest), onHottest, directory.replicatedKeysOf(hottest));
        boolean migrationsRunning = advanceMigrations();
        PhaseStateMachine.Step step = phases.onEpoch(new PhaseStateMachine.Observation(
                l,
                t,
                persistent,
                directory.size() > 0,
                assessment.remedy() == CostBenefitAnalyzer.Remedy.MIGRATE,
                migrationsRunning,
                migrationGaveUp));

        ReplicationPlanner.Plan<K> plan;
        if (step.replicate() && config.replicasMax() > 1) { // replicate() is false when lb.phases lacks p1
            plan = replication.plan(hot, loads, up, now);
            if (plan.replHighReached()) {
                tracker.setSampleRate(Math.max(tracker.sampleRate() / 2, baseSampleRate / 64));
            }
        } else {
            plan = new ReplicationPlanner.Plan<>(List.of(), List.of(), List.of(), directory.expire(), false, l);
        }
        if (step.active().contains(Phase.NORMAL) && tracker.sampleRate() != baseSampleRate) {
            tracker.setSampleRate(baseSampleRate);
        }
        MigrationPlanner.Plan migration = null;
        if (step.planMigration()) {
            migration = planMigration(loads, bucketRates);
            migrationGaveUp = migration.scaleOutAdvised();
        }
        return new EpochReport<>(
                epoch,
                loads,
                Imbalance.maxOverMean(l),
                step,
                Collections.unmodifiableList(hot),
                plan,
                migration,
                tracker.sampleRate());
    }

    private boolean advanceMigrations() {
        for (Iterator<Map.Entry<Integer, BucketMigration<K>>> it =
                        migrations.entrySet().iterator();
                it.hasNext(); ) {
            if (it.next().getValue().onEpochEnd() == BucketMigration.State.DONE) {
                it.remove();
            }
        }
        return !migrations.isEmpty();
    }

    private MigrationPlanner.Plan planMigration(List<BackendLoad> loads, double[] bucketRates) {
        List<MigrationPlanner.BackendState> backends = new ArrayList<>();
        for (BackendLoad b : loads) {
            backends.add(new MigrationPlanner.BackendState(
                    b.backend(),
                    b.opsPerSecond(),
                    b.capacityOpsPerSecond(),
                    usedBytes[b.backend()],
                    maxBytes[b.backend()]));
        }
        int[] owners = table.owners();
        double[] ownedShare = new double[table.servers()];
        for (int k = 0; k < owners.length; k++) {
            ownedShare[owners[k]] += table.ringShare(k);
        }
        List<MigrationPlanner.BucketState> buckets = new ArrayList<>();
        for (int k = 0; k < owners.length; k++) {
            // M^k estimated from the owner's bytes by ring share: the proxy cannot list a backend's keys cheaply.
            long bytes = ownedShare[owners[k]] > 0
                    ? (long) (usedBytes[owners[k]] * table.ringShare(k) / ownedShare[owners[k]])
                    : 0;
            Long moved = movedAtEpoch.get(k);
            boolean cooling = moved != null && epoch - moved < config.p3CooldownEpochs();
            buckets.add(new MigrationPlanner.BucketState(k, owners[k], bucketRates[k], bytes, cooling));
        }
        MigrationPlanner.Plan plan = migrationPlanner.plan(backends, buckets, up);
        for (MigrationPlanner.Move m : plan.moves()) {
            begin(m.bucket(), m.from(), m.to());
        }
        return plan;
    }

    /**
     * Starts moving {@code bucket} to backend {@code to} outside the planner (an operator's or a test's decision);
     * the proxy drives it like a planned move. Not thread-safe with {@link #tick()}: call it on the thread that ticks.
     *
     * @return the migration, whose owner in the table is already {@code to}
     * @throws IllegalArgumentException naming the bucket or backend if either is out of range, {@code to} already
     *     owns the bucket, or the bucket is being moved
     */
    public BucketMigration<K> startMigration(int bucket, int to) {
        if (bucket < 0 || bucket >= table.bucketCount()) {
            throw new IllegalArgumentException(
                    "virtual bucket " + bucket + " (expected: 0.." + (table.bucketCount() - 1) + ")");
        }
        if (to < 0 || to >= table.servers()) {
            throw new IllegalArgumentException("backend " + to + " (expected: 0.." + (table.servers() - 1) + ")");
        }
        if (migrations.containsKey(bucket)) {
            throw new IllegalArgumentException("virtual bucket " + bucket + " is being moved already");
        }
        int from = table.owner(bucket);
        if (from == to) {
            throw new IllegalArgumentException("virtual bucket " + bucket + " is owned by backend " + to
                    + " already (expected: a different backend)");
        }
        return begin(bucket, from, to);
    }

    private BucketMigration<K> begin(int bucket, int from, int to) {
        // Registered before the owner changes: a request that reads the new owner then finds the migration, so it
        // never treats the new owner as the only copy while the bucket's keys are still at the old one.
        BucketMigration<K> m = new BucketMigration<>(bucket, from, to, config.fallbackEpochs());
        migrations.put(bucket, m);
        table.setOwner(bucket, to);
        movedAtEpoch.put(bucket, epoch);
        return m;
    }

    /** The virtual bucket of {@code key}. */
    public int bucketOf(K key) {
        return table.bucketOf(bytesOf.apply(key));
    }
}
