package io.locus.memcached.balance;

import io.locus.memcached.balance.HotspotDetector.Hotspot;
import io.locus.memcached.balance.LoadMonitor.BackendLoad;
import java.util.ArrayList;
import java.util.List;
import java.util.function.IntPredicate;
import java.util.function.Predicate;

/**
 * Phase 1 planner (MBal §3.2, BALANCE.md, "Phase 1"): once per epoch, turns this epoch's hotspots into
 * replica sets in the {@link ReplicaDirectory} and into the copy and TTL work the proxy must do.
 *
 * <p>Rules, in order, for each hotspot (hottest first):
 * <ol>
 *   <li>Already replicated: the lease is renewed to now + {@code lb.lease_p1} epochs ({@link Kind#TOUCH} each
 *       shadow so its TTL follows), stale or failed shadows are copied again ({@link Kind#COPY}), and missing
 *       copies are added if the key got hotter.</li>
 *   <li>Not replicated: only if persistent ({@code lb.persistence} epochs), replicable (the shadow key fits in 250
 *       bytes), wanting at least 2 copies, and its home holds fewer than {@code lb.repl_high} replicated keys.</li>
 *   <li>Shadows are the up backends other than the home with the lowest projected utilization (load / capacity),
 *       ties to the lower index. Projection moves {@code r_read (1 - 1/R)} off the home, spreads it over the
 *       shadows, and adds {@code r_write} to each shadow for the write fan-out, so later keys of the same epoch see
 *       the earlier keys' effect (we take the least loaded, where MBal chose at random [MBal §3.2]).</li>
 * </ol>
 * Not thread-safe: call from the epoch task. The directory it mutates is thread-safe for the request path.
 *
 * @param <K> key type
 */
public final class ReplicationPlanner<K> {
    private final BalanceConfig config;
    private final ReplicaDirectory<K> directory;
    private final Predicate<K> replicable;

    /** What the proxy must do for a replica. */
    public enum Kind {
        /** Read the item at the home ({@code mg k v f t}), then set it at the shadow under the renamed key with
         *  TTL min(lease, item TTL), guarded by {@link ReplicaDirectory#copyMayProceed}. */
        COPY,
        /** Extend the shadow item's TTL to the renewed lease ({@code mg <renamed> T<seconds>} or touch). */
        TOUCH
    }

    /**
     * One unit of replica work.
     *
     * @param kind copy or touch
     * @param key the client key (the shadow holds {@link ReplicaDirectory#SHADOW_PREFIX} + key)
     * @param home where the item lives
     * @param shadow the shadow backend
     * @param ttlSeconds TTL to set on the shadow item: the lease, rounded up to whole seconds
     */
    public record Action<K>(Kind kind, K key, int home, int shadow, long ttlSeconds) {}

    /**
     * An epoch's Phase 1 outcome.
     *
     * @param actions copy and touch work for the proxy
     * @param created keys replicated for the first time this epoch
     * @param renewed keys whose lease was renewed
     * @param expired keys whose lease ended this epoch (their shadow items expire by TTL; nothing to delete)
     * @param replHighReached a persistent hotspot was refused because its home is at {@code lb.repl_high}
     * @param projectedLoads backend loads (ops/s) after this plan, by the planner's projection
     */
    public record Plan<K>(
            List<Action<K>> actions,
            List<K> created,
            List<K> renewed,
            List<K> expired,
            boolean replHighReached,
            double[] projectedLoads) {}

    /**
     * @param replicable false for keys that must not get shadows, e.g. longer than
     *     {@link ReplicaDirectory#MAX_REPLICABLE_KEY_BYTES}
     */
    public ReplicationPlanner(BalanceConfig config, ReplicaDirectory<K> directory, Predicate<K> replicable) {
        this.config = config;
        this.directory = directory;
        this.replicable = replicable;
    }

    /**
     * Plans one epoch.
     *
     * @param hot this epoch's hotspots (from {@link HotspotDetector})
     * @param loads this epoch's backend loads, indexed by backend
     * @param up which backends may take shadows (not down, not draining)
     * @param nowNanos the directory's clock now
     */
    public Plan<K> plan(List<Hotspot<K>> hot, List<BackendLoad> loads, IntPredicate up, long nowNanos) {
        List<K> expired = directory.expire();
        double[] projected = new double[loads.size()];
        double[] capacity = new double[loads.size()];
        for (BackendLoad l : loads) {
            projected[l.backend()] = l.opsPerSecond();
            capacity[l.backend()] = l.capacityOpsPerSecond();
        }
        long leaseNanos = config.leaseP1Epochs() * config.epochNanos();
        long ttlSeconds = Math.max(1, (leaseNanos + 999_999_999L) / 1_000_000_000L);
        List<Action<K>> actions = new ArrayList<>();
        List<K> created = new ArrayList<>();
        List<K> renewed = new ArrayList<>();
        boolean replHighReached = false;
        for (Hotspot<K> h : hot) {
            K key = h.stats().key();
            if (directory.contains(key)) {
                directory.renew(key, nowNanos + leaseNanos);
                renewed.add(key);
                int[] shadows = directory.shadowsOf(key);
                int missing = h.wantedCopies() - 1 - shadows.length;
                if (missing > 0) {
                    int[] more = leastLoaded(h.home(), shadows, missing, projected, capacity, up);
                    if (more.length > 0) {
                        directory.addShadows(key, more);
                        project(h, shadows.length + 1, shadows.length + 1 + more.length, projected);
                    }
                }
                for (int s : directory.shadowsOf(key)) {
                    actions.add(new Action<>(Kind.TOUCH, key, h.home(), s, ttlSeconds));
                }
                for (int s : directory.staleShadows(key)) {
                    actions.add(new Action<>(Kind.COPY, key, h.home(), s, ttlSeconds));
                }
                continue;
            }
            if (!h.persistent() || h.wantedCopies() < 2 || !replicable.test(key)) {
                continue;
            }
            if (directory.replicatedKeysOf(h.home()) >= config.replHigh()) {
                replHighReached = true;
                continue;
            }
            int[] shadows = leastLoaded(h.home(), new int[0], h.wantedCopies() - 1, projected, capacity, up);
            if (shadows.length == 0) {
                continue;
            }
            directory.add(key, h.home(), shadows, nowNanos + leaseNanos);
            created.add(key);
            project(h, 1, 1 + shadows.length, projected);
            for (int s : shadows) {
                actions.add(new Action<>(Kind.COPY, key, h.home(), s, ttlSeconds));
            }
        }
        return new Plan<>(actions, created, renewed, expired, replHighReached, projected);
    }

    private void project(Hotspot<K> h, int copiesBefore, int copiesAfter, double[] projected) {
        double reads = h.stats().readOpsPerSecond();
        // Reads spread evenly over the copies; the home keeps 1/R of them. Each new shadow also takes every write.
        projected[h.home()] -= reads / copiesBefore - reads / copiesAfter;
        int[] shadows = directory.shadowsOf(h.stats().key());
        for (int i = 0; i < shadows.length; i++) {
            boolean isNew = i >= copiesBefore - 1;
            double before = isNew ? 0 : reads / copiesBefore;
            projected[shadows[i]] +=
                    reads / copiesAfter - before + (isNew ? h.stats().writeOpsPerSecond() : 0);
        }
    }

    private static int[] leastLoaded(
            int home, int[] taken, int count, double[] projected, double[] capacity, IntPredicate up) {
        List<Integer> candidates = new ArrayList<>();
        for (int b = 0; b < projected.length; b++) {
            if (b != home && up.test(b) && !contains(taken, b)) {
                candidates.add(b);
            }
        }
        candidates.sort((a, b) -> {
            int c = Double.compare(projected[a] / capacity[a], projected[b] / capacity[b]);
            return c != 0 ? c : Integer.compare(a, b);
        });
        return candidates.stream().limit(count).mapToInt(Integer::intValue).toArray();
    }

    private static boolean contains(int[] values, int v) {
        for (int x : values) {
            if (x == v) {
                return true;
            }
        }
        return false;
    }
}
