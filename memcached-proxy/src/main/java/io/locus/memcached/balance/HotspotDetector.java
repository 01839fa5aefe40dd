package io.locus.memcached.balance;

import io.locus.memcached.balance.HotKeyTracker.HotKey;
import io.locus.memcached.balance.LoadMonitor.BackendLoad;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.function.ToIntFunction;

/**
 * Decides, once per epoch, which tracked keys are hot and for how many consecutive epochs they have been
 * (MBal §3.1; BALANCE.md, "Statistics": hot threshold, replicas, persistence).
 *
 * <p>A key is hot in an epoch if its estimated net rate {@code r >= lb.hot_rate_fraction * T_home} and its home's
 * load {@code L_home >= lb.hot_home_load * T_home}. It is persistent once hot for {@code lb.persistence}
 * consecutive epochs; one cold epoch resets the streak. Not thread-safe: call from the epoch task only.
 *
 * @param <K> key type
 */
public final class HotspotDetector<K> {
    private final BalanceConfig config;
    private final Map<K, Integer> streaks = new HashMap<>();

    /**
     * A hot key of this epoch.
     *
     * @param stats the tracker's estimate
     * @param home the backend that owns the key
     * @param epochsHot consecutive hot epochs, this one included (>= 1)
     * @param persistent {@code epochsHot >= lb.persistence}
     * @param wantedCopies copies including the home: {@code min(lb.replicas_max, 1 + ceil(r / (f * T_home)))}
     */
    public record Hotspot<K>(HotKey<K> stats, int home, int epochsHot, boolean persistent, int wantedCopies) {}

    public HotspotDetector(BalanceConfig config) {
        this.config = config;
    }

    /**
     * Classifies this epoch's tracked keys; returns the hot ones, in the order given (hottest first).
     *
     * @param keys the tracker's epoch output
     * @param homeOf the key's home backend (its ring owner)
     * @param loads this epoch's backend loads, indexed by backend
     */
    public List<Hotspot<K>> detect(List<HotKey<K>> keys, ToIntFunction<K> homeOf, List<BackendLoad> loads) {
        Map<K, Integer> next = new HashMap<>();
        List<Hotspot<K>> hot = new ArrayList<>();
        for (HotKey<K> k : keys) {
            int home = homeOf.applyAsInt(k.key());
            BackendLoad h = loads.get(home);
            double t = h.capacityOpsPerSecond();
            if (k.rateOpsPerSecond() < config.hotRateFraction() * t
                    || h.opsPerSecond() < config.hotHomeLoadFraction() * t) {
                continue;
            }
            int streak = streaks.getOrDefault(k.key(), 0) + 1;
            next.put(k.key(), streak);
            int wanted = (int) Math.min(
                    config.replicasMax(), 1 + Math.ceil(k.rateOpsPerSecond() / (config.replicaRateFraction() * t)));
            hot.add(new Hotspot<>(k, home, streak, streak >= config.persistenceEpochs(), wanted));
        }
        streaks.clear();
        streaks.putAll(next);
        return hot;
    }
}
