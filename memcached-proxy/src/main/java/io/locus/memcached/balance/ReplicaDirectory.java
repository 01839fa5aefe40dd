package io.locus.memcached.balance;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import java.util.function.IntToDoubleFunction;
import java.util.function.LongSupplier;
import java.util.stream.IntStream;

/**
 * Where the replicas of hot keys live (Phase 1, MBal §3.2, BALANCE.md, "Phase 1"), consulted by the proxy
 * on every request: a read goes to the home or to a shadow backend, a write goes to the home and then to every
 * shadow. Shadows hold the item under the renamed key {@link #SHADOW_PREFIX}{@code + key}.
 *
 * <p>Guarantees:
 * <ul>
 *   <li>A read is sent to a shadow only while the replica's lease runs, the shadow has not failed, and the shadow
 *       has acknowledged the latest write that was <em>begun</em> through this proxy for the key (see the
 *       read-your-writes rule below). Otherwise it goes to the home.</li>
 *   <li>{@link #beginWrite} lists the home first, then every shadow, also a stale or failed one (a write that
 *       skipped it would leave it further behind).</li>
 *   <li>A key has at most {@code lb.replicas_max - 1} shadows, all distinct and different from its home.</li>
 * </ul>
 * Thread-safe: every method synchronises on the directory; lookups are O(1) plus O(copies).
 *
 * @param <K> key type, with value equality
 */
/*
 * Design note: read-your-writes.
 * MBal leaves consistency to the user: synchronous updates, or asynchronous ones "that may result in stale reads"
 * [MBal §3.2]. A proxy that sends reads to several copies would break even a single client's read-your-writes in the
 * asynchronous mode, and in the synchronous one after a failed shadow update. The rule here is per key, not per
 * client, and so holds for every client of this proxy at once:
 *   - each replicated key has a version, incremented when a write (set, delete, arithmetic, touch) is begun;
 *   - each shadow records the highest version it acknowledged (its copy or a write);
 *   - a read may go to a shadow only if shadow.applied >= key.version.
 * A client's write has begun before the client's next request is parsed, so its later reads either go home (which
 * the write reached first) or to a shadow that acknowledged that write or a newer one. Synchronous mode acknowledges
 * the client after all shadows answered, so shadows stay readable; asynchronous mode acknowledges after the home and
 * sends the next reads home until the shadows catch up. Both keep the rule; they differ in latency only.
 * Two things the proxy must do for "acknowledged version" to mean "holds that value":
 *   (1) send all updates of one shadow key over one connection in the order begun (memcached applies a connection's
 *       commands in order), so a later acknowledgement cannot hide an earlier value landing last;
 *   (2) for the initial copy (read at home, then set at the shadow), call copyMayProceed just before sending the set
 *       on that ordered connection: if a write was begun meanwhile, the copy may carry an older value and is dropped;
 *       that write's own shadow update brings the shadow up to date instead.
 * Writes that bypass the proxy are not covered (DESIGN.md, "Limits": one proxy, all writes through it).
 */
public final class ReplicaDirectory<K> {
    /** Prefix of a replica's key on a shadow backend; client keys with this prefix must be refused. */
    public static final String SHADOW_PREFIX = "__dlp:r:";
    /** Longest client key that can be shadow-replicated: memcached's 250-byte limit minus the prefix. */
    public static final int MAX_REPLICABLE_KEY_BYTES = 250 - SHADOW_PREFIX.length();

    private final LongSupplier clock;
    private final int maxShadows;
    private final Map<K, Entry> entries = new HashMap<>();
    private final int[] perHome;

    private static final class Entry {
        private final int home;
        private int[] shadows;
        private long[] applied;
        private boolean[] failed;
        private long version;
        private long leaseExpiresNanos;

        Entry(int home, int[] shadows, long leaseExpiresNanos) {
            this.home = home;
            this.shadows = shadows.clone();
            this.applied = new long[shadows.length];
            Arrays.fill(applied, -1);
            this.failed = new boolean[shadows.length];
            this.leaseExpiresNanos = leaseExpiresNanos;
        }

        int indexOf(int shadow) {
            for (int i = 0; i < shadows.length; i++) {
                if (shadows[i] == shadow) {
                    return i;
                }
            }
            return -1;
        }

        boolean readable(int i) {
            return !failed[i] && applied[i] >= version;
        }
    }

    /**
     * Where to send a read.
     *
     * @param backend the backend to ask
     * @param shadow true if the key must be renamed with {@link #SHADOW_PREFIX}; a miss there falls back to home
     */
    public record ReadTarget(int backend, boolean shadow) {}

    /**
     * What a write must do.
     *
     * @param version the key's version this write carries (0 if the key is not replicated)
     * @param home the home backend, written first
     * @param shadows the shadow backends, written after the home (renamed key), possibly empty
     */
    public record WriteTicket(long version, int home, int[] shadows) {}

    /**
     * @param config supplies {@code lb.replicas_max}
     * @param backends pool size
     * @param clock nanoseconds since an arbitrary origin, the same clock as the leases
     */
    public ReplicaDirectory(BalanceConfig config, int backends, LongSupplier clock) {
        this.clock = clock;
        this.maxShadows = config.replicasMax() - 1;
        this.perHome = new int[backends];
    }

    /**
     * Registers a new replica set; the shadows are write targets at once and readable after their copy.
     *
     * @throws IllegalArgumentException if the key is already replicated, a shadow equals the home, shadows repeat,
     *     there are none or more than {@code lb.replicas_max - 1}, or an index is outside the pool
     */
    public synchronized void add(K key, int home, int[] shadows, long leaseExpiresNanos) {
        if (entries.containsKey(key)) {
            throw new IllegalArgumentException("key " + key + " is already replicated on " + describe(key)
                    + " (expected: a key without replicas)");
        }
        checkBackend(home);
        checkShadows(key, home, shadows);
        entries.put(key, new Entry(home, shadows, leaseExpiresNanos));
        perHome[home]++;
    }

    /**
     * Adds shadows to an existing replica set (the key got hotter); they are write targets at once and start stale.
     *
     * @throws IllegalArgumentException as {@link #add} for the combined shadow list
     */
    public synchronized void addShadows(K key, int[] more) {
        Entry e = require(key);
        int[] all = Arrays.copyOf(e.shadows, e.shadows.length + more.length);
        System.arraycopy(more, 0, all, e.shadows.length, more.length);
        checkShadows(key, e.home, all);
        e.shadows = all;
        e.applied = Arrays.copyOf(e.applied, all.length);
        e.failed = Arrays.copyOf(e.failed, all.length);
        Arrays.fill(e.applied, all.length - more.length, all.length, -1);
    }

    /** Extends the lease of {@code key}; never shortens it. */
    public synchronized void renew(K key, long leaseExpiresNanos) {
        Entry e = require(key);
        e.leaseExpiresNanos = Math.max(e.leaseExpiresNanos, leaseExpiresNanos);
    }

    /**
     * Chooses the backend for a read of {@code key}, whose ring owner is {@code home}: the cheapest of the home and
     * the readable shadows by {@code cost} (predicted finish or load; lower is better; ties go to the home).
     */
    public synchronized ReadTarget readTarget(K key, int home, IntToDoubleFunction cost) {
        Entry e = entries.get(key);
        if (e == null || e.home != home || clock.getAsLong() - e.leaseExpiresNanos >= 0) {
            return new ReadTarget(home, false);
        }
        int best = home;
        double bestCost = cost.applyAsDouble(home);
        for (int i = 0; i < e.shadows.length; i++) {
            if (e.readable(i)) {
                double c = cost.applyAsDouble(e.shadows[i]);
                if (c < bestCost) {
                    best = e.shadows[i];
                    bestCost = c;
                }
            }
        }
        return new ReadTarget(best, best != home);
    }

    /**
     * The backends a read of {@code key} could be sent to now: {@code home} first, then the readable shadows (lease
     * running, not failed, acknowledged the newest write begun). Just the home if the key has no readable shadow.
     */
    public synchronized int[] readableCopies(K key, int home) {
        Entry e = entries.get(key);
        if (e == null || e.home != home || clock.getAsLong() - e.leaseExpiresNanos >= 0) {
            return new int[] {home};
        }
        int[] out = new int[1 + e.shadows.length];
        out[0] = home;
        int n = 1;
        for (int i = 0; i < e.shadows.length; i++) {
            if (e.readable(i)) {
                out[n++] = e.shadows[i];
            }
        }
        return n == out.length ? out : Arrays.copyOf(out, n);
    }

    /**
     * Begins a write: bumps the key's version (hiding every shadow from reads until it acknowledges this version)
     * and lists the targets. For a key without replicas: version 0, no shadows.
     */
    public synchronized WriteTicket beginWrite(K key, int home) {
        Entry e = entries.get(key);
        if (e == null || e.home != home) {
            return new WriteTicket(0, home, new int[0]);
        }
        e.version++;
        return new WriteTicket(e.version, home, e.shadows.clone());
    }

    /** Version a copy must carry; read it before reading the item at the home. */
    public synchronized long beginCopy(K key) {
        return require(key).version;
    }

    /** True if no write began since {@link #beginCopy} returned {@code version}: the copy's set may be sent. */
    public synchronized boolean copyMayProceed(K key, long version) {
        Entry e = entries.get(key);
        return e != null && e.version == version;
    }

    /** A shadow acknowledged a write or copy carrying {@code version}. Unknown keys or shadows are ignored. */
    public synchronized void shadowWritten(K key, int shadow, long version) {
        Entry e = entries.get(key);
        int i = e == null ? -1 : e.indexOf(shadow);
        if (i >= 0) {
            e.applied[i] = Math.max(e.applied[i], version);
            e.failed[i] = false;
        }
    }

    /**
     * A shadow update failed (and its {@code md} too, BALANCE.md, "Phase 1"): no reads go there until a later copy or
     * write is acknowledged.
     */
    public synchronized void shadowFailed(K key, int shadow) {
        Entry e = entries.get(key);
        int i = e == null ? -1 : e.indexOf(shadow);
        if (i >= 0) {
            e.failed[i] = true;
        }
    }

    /** Shadows of {@code key} that are not readable now (stale or failed); the planner re-copies them. */
    public synchronized int[] staleShadows(K key) {
        Entry e = entries.get(key);
        if (e == null) {
            return new int[0];
        }
        return IntStream.range(0, e.shadows.length)
                .filter(i -> !e.readable(i))
                .map(i -> e.shadows[i])
                .toArray();
    }

    /** Removes the entries whose lease ended at or before now and returns their keys. */
    public synchronized List<K> expire() {
        long now = clock.getAsLong();
        List<K> gone = new ArrayList<>();
        for (Iterator<Map.Entry<K, Entry>> it = entries.entrySet().iterator(); it.hasNext(); ) {
            Map.Entry<K, Entry> me = it.next();
            if (now - me.getValue().leaseExpiresNanos >= 0) {
                perHome[me.getValue().home]--;
                gone.add(me.getKey());
                it.remove();
            }
        }
        return gone;
    }

    /** True if {@code key} has a replica set (leased, maybe not yet readable). */
    public synchronized boolean contains(K key) {
        return entries.containsKey(key);
    }

    /** The shadows of {@code key}, empty if not replicated. */
    public synchronized int[] shadowsOf(K key) {
        Entry e = entries.get(key);
        return e == null ? new int[0] : e.shadows.clone();
    }

    /** Lease end of {@code key} in clock nanoseconds. */
    public synchronized long leaseExpiresNanos(K key) {
        return require(key).leaseExpiresNanos;
    }

    /** Replicated keys in total. */
    public synchronized int size() {
        return entries.size();
    }

    /** Replicated keys whose home is {@code backend} (bounded by {@code lb.repl_high} by the planner). */
    public synchronized int replicatedKeysOf(int backend) {
        return perHome[backend];
    }

    private Entry require(K key) {
        Entry e = entries.get(key);
        if (e == null) {
            throw new IllegalArgumentException("key " + key + " has no replicas (expected: a replicated key)");
        }
        return e;
    }

    private String describe(K key) {
        Entry e = entries.get(key);
        return "home " + e.home + ", shadows " + Arrays.toString(e.shadows);
    }

    private void checkShadows(K key, int home, int[] shadows) {
        if (shadows.length == 0 || shadows.length > maxShadows) {
            throw new IllegalArgumentException("shadows " + Arrays.toString(shadows) + " for key " + key
                    + " (expected: 1.." + maxShadows + " backends, lb.replicas_max - 1)");
        }
        for (int i = 0; i < shadows.length; i++) {
            checkBackend(shadows[i]);
            if (shadows[i] == home) {
                throw new IllegalArgumentException("shadow " + shadows[i] + " of key " + key
                        + " is its home (expected: a backend other than " + home + ")");
            }
            for (int j = 0; j < i; j++) {
                if (shadows[j] == shadows[i]) {
                    throw new IllegalArgumentException("shadows " + Arrays.toString(shadows) + " of key " + key
                            + " repeat backend " + shadows[i] + " (expected: distinct backends)");
                }
            }
        }
    }

    private void checkBackend(int b) {
        if (b < 0 || b >= perHome.length) {
            throw new IllegalArgumentException("backend " + b + " (expected: 0.." + (perHome.length - 1) + ")");
        }
    }
}
