package io.locus.memcached.balance;

import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;

/**
 * Configuration of the load balancer (MBal adapted to a proxy); keys and defaults follow
 * MBal §3.1 and the threshold table of BALANCE.md; the defaults are in the README's configuration table. Every
 * component reads its values from here, so one record describes one balancer.
 *
 * @param epoch statistics period ({@code lb.epoch}, 1 s); all rates are per second of real epoch length
 * @param persistenceEpochs consecutive epochs a trigger must hold before a phase acts ({@code lb.persistence}, 4)
 * @param sampleRate probability that a request updates the hot-key table ({@code lb.sample_rate} ps, 0.05)
 * @param hotKeyTableSize entries of the Space-Saving hot-key table ({@code lb.hot_keys}, 1024)
 * @param writeWeight hotness removed by one sampled write ({@code lb.write_weight} w_w, 4)
 * @param decay factor applied to every hotness counter at each epoch end ({@code lb.decay}, 0.5)
 * @param hotRateFraction a key is hot if its rate is at least this fraction of its home's capacity
 *     ({@code lb.hot_rate_fraction}, 0.02)
 * @param hotHomeLoadFraction ... and its home's load is at least this fraction of the home's capacity
 *     ({@code lb.hot_home_load}, 0.5)
 * @param replicaRateFraction one more copy per this fraction of capacity in key rate
 *     ({@code lb.replica_rate_fraction}, 0.1): copies = min(replicasMax, 1 + ceil(r / (f * T)))
 * @param replicasMax copies of a hot key including the home ({@code lb.replicas_max}, 2; 1 disables Phase 1)
 * @param replHigh replicated hot keys per home backend ({@code lb.repl_high} REPL_high, 64)
 * @param leaseP1Epochs lease of a hot-key replica, renewed while the key stays hot ({@code lb.lease_p1}, 4)
 * @param syncShadowUpdates true: a write is acknowledged after home and shadows are written ({@code
 *     lb.shadow_updates = sync}, default); false: after the home only ({@code async})
 * @param imbalanceRdev relative deviation above which the backends are imbalanced ({@code lb.p2_rdev}, 0.20;
 *     Phase 2's trigger, which this proxy hands to Phase 3, see {@link Phase})
 * @param serverLoadThresh fraction of overloaded backends at which balancing gives up and advises scale-out
 *     ({@code lb.server_load_thresh}, 0.75)
 * @param imbThresh Phase 3 stops when the relative deviation of source and destination is at most this
 *     ({@code lb.imb_thresh} IMB_thresh, 0.10)
 * @param maxIter Phase 3 planner iterations ({@code lb.max_iter} MAX_ITER, 8)
 * @param p3CooldownEpochs epochs before a migrated virtual bucket may move again ({@code lb.p3_cooldown}, 30)
 * @param p3MinGain Phase 3 is skipped if it would move less than this fraction of the source's load
 *     ({@code lb.p3_min_gain}, 0.10)
 * @param p1BenefitFraction Phase 1 is chosen if replication removes at least this fraction of the excess load
 *     ({@code lb.p1_benefit_fraction}, 0.5)
 * @param cacheletsPerBackend virtual buckets per backend, each a set of ketama arcs ({@code
 *     lb.cachelets_per_backend}, 16)
 * @param fallbackEpochs epochs a finished migration keeps reading the old owner on a miss ({@code
 *     lb.fallback_epochs}, 2)
 * @param copyRateBytesPerSecond migration copy throttle ({@code lb.copy_rate}, 4 MiB/s)
 * @param replicationFactor copies of every key for availability ({@code replication_factor}, 1)
 * @param phase1Enabled Phase 1 may run ({@code lb.phases} contains {@code p1}; default {@code p1,p3})
 * @param phase3Enabled Phase 3 may run ({@code lb.phases} contains {@code p3}); {@code lb.phases = none} turns the
 *     balancer into a pure observer, as MBal's single-phase and "w/o load balancer" runs need [MBal §4.2.1]
 */
public record BalanceConfig(
        Duration epoch,
        int persistenceEpochs,
        double sampleRate,
        int hotKeyTableSize,
        double writeWeight,
        double decay,
        double hotRateFraction,
        double hotHomeLoadFraction,
        double replicaRateFraction,
        int replicasMax,
        int replHigh,
        int leaseP1Epochs,
        boolean syncShadowUpdates,
        double imbalanceRdev,
        double serverLoadThresh,
        double imbThresh,
        int maxIter,
        int p3CooldownEpochs,
        double p3MinGain,
        double p1BenefitFraction,
        int cacheletsPerBackend,
        int fallbackEpochs,
        long copyRateBytesPerSecond,
        int replicationFactor,
        boolean phase1Enabled,
        boolean phase3Enabled) {

    /**
     * @throws IllegalArgumentException naming the key, the actual value and the expected range
     */
    public BalanceConfig {
        if (epoch == null || epoch.isNegative() || epoch.isZero()) {
            throw new IllegalArgumentException("lb.epoch: " + epoch + " (expected: a positive duration)");
        }
        requireRange("lb.persistence", persistenceEpochs, 1, 1000);
        requireOpenClosed("lb.sample_rate", sampleRate, 0, 1);
        requireRange("lb.hot_keys", hotKeyTableSize, 1, 1 << 20);
        requireClosed("lb.write_weight", writeWeight, 0, 1000);
        requireClosedOpen("lb.decay", decay, 0, 1);
        requireOpenClosed("lb.hot_rate_fraction", hotRateFraction, 0, 1);
        requireClosed("lb.hot_home_load", hotHomeLoadFraction, 0, 10);
        requireOpenClosed("lb.replica_rate_fraction", replicaRateFraction, 0, 1);
        requireRange("lb.replicas_max", replicasMax, 1, 16);
        requireRange("lb.repl_high", replHigh, 0, 1 << 20);
        requireRange("lb.lease_p1", leaseP1Epochs, 1, 1000);
        requireClosed("lb.p2_rdev", imbalanceRdev, 0, 10);
        requireOpenClosed("lb.server_load_thresh", serverLoadThresh, 0, 1);
        requireClosed("lb.imb_thresh", imbThresh, 0, 10);
        requireRange("lb.max_iter", maxIter, 1, 1000);
        requireRange("lb.p3_cooldown", p3CooldownEpochs, 0, 1 << 20);
        requireClosed("lb.p3_min_gain", p3MinGain, 0, 1);
        requireClosed("lb.p1_benefit_fraction", p1BenefitFraction, 0, 1);
        requireRange("lb.cachelets_per_backend", cacheletsPerBackend, 1, 4096);
        requireRange("lb.fallback_epochs", fallbackEpochs, 0, 1000);
        if (copyRateBytesPerSecond < 1) {
            throw new IllegalArgumentException(
                    "lb.copy_rate: " + copyRateBytesPerSecond + " (expected: >= 1 byte per second)");
        }
        requireRange("replication_factor", replicationFactor, 1, 16);
    }

    /** The defaults (BALANCE.md, "Configuration"). */
    public static BalanceConfig defaults() {
        return new BalanceConfig(
                Duration.ofSeconds(1),
                4,
                0.05,
                1024,
                4,
                0.5,
                0.02,
                0.5,
                0.1,
                2,
                64,
                4,
                true,
                0.20,
                0.75,
                0.10,
                8,
                30,
                0.10,
                0.5,
                16,
                2,
                4L << 20,
                1,
                true,
                true);
    }

    /** {@link #epoch()} in nanoseconds. */
    public long epochNanos() {
        return epoch.toNanos();
    }

    /** {@link #epoch()} in seconds, for rates. */
    public double epochSeconds() {
        return epoch.toNanos() / 1e9;
    }

    /** The keys {@link #withOverrides} accepts, in declaration order. */
    public static final List<String> KEYS = List.of(
            "lb.epoch",
            "lb.persistence",
            "lb.sample_rate",
            "lb.hot_keys",
            "lb.write_weight",
            "lb.decay",
            "lb.hot_rate_fraction",
            "lb.hot_home_load",
            "lb.replica_rate_fraction",
            "lb.replicas_max",
            "lb.repl_high",
            "lb.lease_p1",
            "lb.shadow_updates",
            "lb.p2_rdev",
            "lb.server_load_thresh",
            "lb.imb_thresh",
            "lb.max_iter",
            "lb.p3_cooldown",
            "lb.p3_min_gain",
            "lb.p1_benefit_fraction",
            "lb.cachelets_per_backend",
            "lb.fallback_epochs",
            "lb.copy_rate",
            "replication_factor",
            "lb.phases");

    /**
     * This configuration with some keys replaced. Every value is parsed and the whole result validated before
     * anything is returned, so a bad value never leaves a half-applied configuration (check first, then assign).
     * Durations take {@code ms} or {@code s} suffixes; {@code lb.shadow_updates} is {@code sync} or {@code async};
     * {@code lb.copy_rate} is bytes per second with an optional {@code k}/{@code m} suffix (binary).
     *
     * @throws IllegalArgumentException for an unknown key (listing the known ones), an unparsable value
     *     (naming the key and quoting the value), or a value out of range
     */
    public BalanceConfig withOverrides(Map<String, String> overrides) {
        Map<String, String> v = new LinkedHashMap<>();
        for (Map.Entry<String, String> e : overrides.entrySet()) {
            if (!KEYS.contains(e.getKey())) {
                throw new IllegalArgumentException(
                        "unknown balancer key \"" + e.getKey() + "\" (expected one of: " + new TreeSet<>(KEYS) + ")");
            }
            v.put(e.getKey(), e.getValue().trim());
        }
        return new BalanceConfig(
                v.containsKey("lb.epoch") ? parseDuration("lb.epoch", v.get("lb.epoch")) : epoch,
                intOr(v, "lb.persistence", persistenceEpochs),
                doubleOr(v, "lb.sample_rate", sampleRate),
                intOr(v, "lb.hot_keys", hotKeyTableSize),
                doubleOr(v, "lb.write_weight", writeWeight),
                doubleOr(v, "lb.decay", decay),
                doubleOr(v, "lb.hot_rate_fraction", hotRateFraction),
                doubleOr(v, "lb.hot_home_load", hotHomeLoadFraction),
                doubleOr(v, "lb.replica_rate_fraction", replicaRateFraction),
                intOr(v, "lb.replicas_max", replicasMax),
                intOr(v, "lb.repl_high", replHigh),
                intOr(v, "lb.lease_p1", leaseP1Epochs),
                v.containsKey("lb.shadow_updates") ? parseMode(v.get("lb.shadow_updates")) : syncShadowUpdates,
                doubleOr(v, "lb.p2_rdev", imbalanceRdev),
                doubleOr(v, "lb.server_load_thresh", serverLoadThresh),
                doubleOr(v, "lb.imb_thresh", imbThresh),
                intOr(v, "lb.max_iter", maxIter),
                intOr(v, "lb.p3_cooldown", p3CooldownEpochs),
                doubleOr(v, "lb.p3_min_gain", p3MinGain),
                doubleOr(v, "lb.p1_benefit_fraction", p1BenefitFraction),
                intOr(v, "lb.cachelets_per_backend", cacheletsPerBackend),
                intOr(v, "lb.fallback_epochs", fallbackEpochs),
                v.containsKey("lb.copy_rate")
                        ? parseBytes("lb.copy_rate", v.get("lb.copy_rate"))
                        : copyRateBytesPerSecond,
                intOr(v, "replication_factor", replicationFactor),
                v.containsKey("lb.phases") ? parsePhases(v.get("lb.phases")).contains("p1") : phase1Enabled,
                v.containsKey("lb.phases") ? parsePhases(v.get("lb.phases")).contains("p3") : phase3Enabled);
    }

    private static Set<String> parsePhases(String s) {
        Set<String> out = new TreeSet<>();
        if (s.equalsIgnoreCase("none")) {
            return out;
        }
        for (String part : s.split(",")) {
            String p = part.trim().toLowerCase(Locale.ROOT);
            if (!p.equals("p1") && !p.equals("p3")) {
                throw new IllegalArgumentException("lb.phases: \"" + s + "\" (expected: none, or a comma-separated list"
                        + " of p1 and p3; there is no p2 for unmodified memcached)");
            }
            out.add(p);
        }
        return out;
    }

    private static int intOr(Map<String, String> v, String key, int fallback) {
        String s = v.get(key);
        if (s == null) {
            return fallback;
        }
        try {
            return Integer.parseInt(s);
        } catch (NumberFormatException e) {
            throw new IllegalArgumentException(key + ": \"" + s + "\" (expected: an integer)", e);
        }
    }

    private static double doubleOr(Map<String, String> v, String key, double fallback) {
        String s = v.get(key);
        if (s == null) {
            return fallback;
        }
        try {
            return Double.parseDouble(s);
        } catch (NumberFormatException e) {
            throw new IllegalArgumentException(key + ": \"" + s + "\" (expected: a decimal number)", e);
        }
    }

    private static Duration parseDuration(String key, String s) {
        String lower = s.toLowerCase(Locale.ROOT);
        try {
            if (lower.endsWith("ms")) {
                return Duration.ofMillis(Long.parseLong(lower.substring(0, lower.length() - 2)));
            }
            if (lower.endsWith("s")) {
                return Duration.ofSeconds(Long.parseLong(lower.substring(0, lower.length() - 1)));
            }
        } catch (NumberFormatException e) {
            // fall through to the message below
        }
        throw new IllegalArgumentException(key + ": \"" + s + "\" (expected: a duration such as 1s or 500ms)");
    }

    private static boolean parseMode(String s) {
        return switch (s.toLowerCase(Locale.ROOT)) {
            case "sync" -> true;
            case "async" -> false;
            default -> throw new IllegalArgumentException("lb.shadow_updates: \"" + s + "\" (expected: sync or async)");
        };
    }

    private static long parseBytes(String key, String s) {
        String lower = s.toLowerCase(Locale.ROOT);
        long unit = 1;
        if (lower.endsWith("k")) {
            unit = 1L << 10;
        } else if (lower.endsWith("m")) {
            unit = 1L << 20;
        }
        String digits = unit == 1 ? lower : lower.substring(0, lower.length() - 1);
        try {
            return Math.multiplyExact(Long.parseLong(digits), unit);
        } catch (NumberFormatException | ArithmeticException e) {
            throw new IllegalArgumentException(key + ": \"" + s + "\" (expected: bytes per second such as 4m)", e);
        }
    }

    private static void requireRange(String key, long value, long min, long max) {
        if (value < min || value > max) {
            throw new IllegalArgumentException(key + ": " + value + " (expected: " + min + " <= value <= " + max + ")");
        }
    }

    private static void requireClosed(String key, double value, double min, double max) {
        if (!(value >= min && value <= max)) {
            throw new IllegalArgumentException(key + ": " + value + " (expected: " + min + " <= value <= " + max + ")");
        }
    }

    private static void requireOpenClosed(String key, double value, double min, double max) {
        if (!(value > min && value <= max)) {
            throw new IllegalArgumentException(key + ": " + value + " (expected: " + min + " < value <= " + max + ")");
        }
    }

    private static void requireClosedOpen(String key, double value, double min, double max) {
        if (!(value >= min && value < max)) {
            throw new IllegalArgumentException(key + ": " + value + " (expected: " + min + " <= value < " + max + ")");
        }
    }
}
