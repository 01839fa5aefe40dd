package io.locus.memcached.balance;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeSet;
import java.util.random.RandomGenerator;

/**
 * Sampled hot-key statistics: a bounded Space-Saving table of per-key hotness with weighted read increments,
 * weighted write decrements and per-epoch decay (MBal §3.1).
 *
 * <p>Guarantees: at most {@code lb.hot_keys} keys are held; hotness is never negative; a key that is not held
 * has hotness 0. Recording is O(log K) for a sampled request and O(1) for an unsampled one. Thread-safe: every
 * method synchronises on the tracker (the unsampled path only draws a random number first).
 *
 * @param <K> key type; must have value equality (the proxy passes its byte-array key wrapper)
 */
/*
 * Design note.
 * - Space-Saving (Metwally et al.) keeps the K heaviest keys with a bounded overestimate: a new key replaces the
 *   minimum counter and inherits its count as "error". It is picked over count-min because the balancer
 *   needs the identity of the hot keys, not only their counts.
 * - Writes subtract w_w ([MBal §4.2.2]: "weighted increments on read and weighted decrements on writes") so a
 *   write-heavy key never looks hot; a write to a key that is not held is ignored (it has no hotness to lose).
 * - Decay h *= d at each epoch end gives recency; in steady state, read just before the decay, h = s / (1 - d) for
 *   s sampled net increments per epoch, hence rate = h (1 - d) / (ps E): with d = 0.5 this is
 *   h / (2 ps E). Separate decayed read and write counters give the read and write rates the cost/benefit analyser
 *   needs (MBal §3.1), from the same samples.
 * - The conservative hotness (count - error) is what decisions use, so a key that merely inherited a heavy counter is
 *   not replicated on that evidence alone.
 */
public final class HotKeyTracker<K> {
    private final int capacity;
    private final double writeWeight;
    private final double decay;
    private final RandomGenerator random;
    private double sampleRate;
    private long nextSeq;
    private final Map<K, Counter<K>> counters = new HashMap<>();
    private final TreeSet<Counter<K>> byCount =
            new TreeSet<>(Comparator.<Counter<K>>comparingDouble(c -> c.count).thenComparingLong(c -> c.seq));

    private static final class Counter<K> {
        private final K key;
        private final long seq;
        private double count;
        private double error;
        private double reads;
        private double writes;

        Counter(K key, long seq) {
            this.key = key;
            this.seq = seq;
        }
    }

    /**
     * One key's statistics at the end of an epoch, read before the decay step.
     *
     * @param key the key
     * @param hotness conservative net hotness (count minus Space-Saving error), >= 0
     * @param rateOpsPerSecond estimated net (read minus weighted write) rate from {@code hotness}
     * @param readOpsPerSecond estimated read rate
     * @param writeOpsPerSecond estimated write rate
     */
    public record HotKey<K>(
            K key, double hotness, double rateOpsPerSecond, double readOpsPerSecond, double writeOpsPerSecond) {}

    /**
     * @param config supplies {@code lb.hot_keys}, {@code lb.sample_rate}, {@code lb.write_weight}, {@code lb.decay}
     * @param random source of the sampling decisions; seed it in tests
     */
    public HotKeyTracker(BalanceConfig config, RandomGenerator random) {
        this.capacity = config.hotKeyTableSize();
        this.sampleRate = config.sampleRate();
        this.writeWeight = config.writeWeight();
        this.decay = config.decay();
        this.random = random;
    }

    /** Records a read of {@code key}; it updates the table with probability {@link #sampleRate()}. */
    public void recordRead(K key) {
        if (sampled()) {
            offerRead(key);
        }
    }

    /** Records a write (set, delete, arithmetic) of {@code key}; sampled like reads. */
    public void recordWrite(K key) {
        if (sampled()) {
            offerWrite(key);
        }
    }

    private synchronized boolean sampled() {
        return sampleRate >= 1 || random.nextDouble() < sampleRate;
    }

    /** Applies one sampled read unconditionally (the sampling decision already made). */
    synchronized void offerRead(K key) {
        Counter<K> c = counters.get(key);
        if (c == null) {
            c = new Counter<>(key, nextSeq++);
            if (counters.size() >= capacity) {
                Counter<K> min = byCount.pollFirst();
                counters.remove(min.key);
                c.count = min.count;
                c.error = min.count;
            }
            counters.put(key, c);
        } else {
            byCount.remove(c);
        }
        c.count += 1;
        c.reads += 1;
        byCount.add(c);
    }

    /** Applies one sampled write unconditionally. */
    synchronized void offerWrite(K key) {
        Counter<K> c = counters.get(key);
        if (c == null) {
            return;
        }
        byCount.remove(c);
        c.count = Math.max(0, c.count - writeWeight);
        c.error = Math.min(c.error, c.count);
        c.writes += 1;
        byCount.add(c);
    }

    /** Conservative hotness of {@code key}: 0 if not held. */
    public synchronized double hotness(K key) {
        Counter<K> c = counters.get(key);
        return c == null ? 0 : c.count - c.error;
    }

    /** Keys held, at most {@code lb.hot_keys}. */
    public synchronized int size() {
        return counters.size();
    }

    /** The current sampling probability ps. */
    public synchronized double sampleRate() {
        return sampleRate;
    }

    /**
     * Changes ps, e.g. halves it when REPL_high is reached ([MBal §3.1]: "lower its priority on key replication by
     * reducing the key sampling rate"). Counters already held are not rescaled, so rates read in the next
     * {@code 1 / (1 - decay)} epochs mix both rates; this errs towards over-estimating, once.
     *
     * @throws IllegalArgumentException if not in (0, 1]
     */
    public synchronized void setSampleRate(double newRate) {
        if (!(newRate > 0 && newRate <= 1)) {
            throw new IllegalArgumentException("lb.sample_rate: " + newRate + " (expected: 0 < value <= 1)");
        }
        sampleRate = newRate;
    }

    /**
     * Ends an epoch: returns every held key with hotness > 0, hottest first, then decays all counters and drops
     * those that reached 0.
     *
     * @param epochSeconds the real length of the epoch that ended, > 0
     */
    public synchronized List<HotKey<K>> endEpoch(double epochSeconds) {
        if (!(epochSeconds > 0)) {
            throw new IllegalArgumentException("epoch length " + epochSeconds + " s (expected: > 0)");
        }
        double perSample = (1 - decay) / (sampleRate * epochSeconds);
        List<HotKey<K>> out = new ArrayList<>();
        for (Counter<K> c : byCount.descendingSet()) {
            double h = c.count - c.error;
            if (h > 0) {
                out.add(new HotKey<>(c.key, h, h * perSample, c.reads * perSample, c.writes * perSample));
            }
        }
        out.sort(Comparator.comparingDouble((HotKey<K> k) -> k.hotness()).reversed());
        List<Counter<K>> all = new ArrayList<>(byCount);
        byCount.clear();
        for (Counter<K> c : all) {
            c.count *= decay;
            c.error *= decay;
            c.reads *= decay;
            c.writes *= decay;
            // Below a hundredth of a sample the key carries no evidence; dropping it frees the slot.
            if (c.count < 0.01) {
                counters.remove(c.key);
            } else {
                byCount.add(c);
            }
        }
        return out;
    }
}
