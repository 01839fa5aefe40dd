package io.locus.memcached.bench.sim;

import io.locus.memcached.cache.DeadlineCache;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.TreeMap;

/**
 * Replays a key trace through the deadline cache (DLC, Q = 12), the DLC with one queue (= LRU, a self-check),
 * a plain LRU and Caffeine, all bounded by the same accounted bytes, and reports hit ratios overall, per
 * tenant and per deadline range of Table 6.2.
 *
 * <p>Workload: every access is a read; a miss fills the item (cache-aside). Deadlines and value sizes come
 * from {@link Workload} (per key, fixed seeds). Capacity = {@code capacityFraction} times the accounted bytes
 * of all distinct keys of the replayed slice. The DLC's clock advances 1 µs per access.
 *
 * <p>Run: {@code java -cp <module classpath> io.locus.memcached.bench.sim.TraceReplay
 * data/kv/cache2k-orm-busy.trace.xz [limit] [capacityFraction]}.
 */
public final class TraceReplay {
    /** Nanoseconds the virtual clock advances per access. */
    static final long TICK_NANOS = 1_000;

    /**
     * Hits and reads of one policy.
     *
     * @param policy policy name
     * @param hits hits overall
     * @param reads reads overall
     * @param byTenant per tenant {hits, reads}
     * @param byRange per Table 6.2 range (index 1..3) {hits, reads}; index 0 unused
     */
    public record PolicyResult(String policy, long hits, long reads, Map<String, long[]> byTenant, long[][] byRange) {
        /** Overall hit ratio. */
        public double hitRatio() {
            return reads == 0 ? 0 : (double) hits / reads;
        }

        /** Hit ratio of one tenant (0 if it had no reads). */
        public double tenantHitRatio(String tenant) {
            long[] v = byTenant.get(tenant);
            return v == null || v[1] == 0 ? 0 : (double) v[0] / v[1];
        }

        /** Hit ratio of one deadline range (1..3). */
        public double rangeHitRatio(int range) {
            return byRange[range][1] == 0 ? 0 : (double) byRange[range][0] / byRange[range][1];
        }
    }

    /**
     * A replay's results.
     *
     * @param accesses accesses replayed
     * @param distinctKeys distinct keys in the slice
     * @param footprintBytes accounted bytes of all distinct keys
     * @param capacityBytes capacity given to every policy
     * @param results one per policy, in the order DLC, DLC-Q1, LRU, Caffeine
     */
    public record Report(
            int accesses, int distinctKeys, long footprintBytes, long capacityBytes, List<PolicyResult> results) {

        /** The result of a policy by name. */
        public PolicyResult result(String policy) {
            return results.stream()
                    .filter(r -> r.policy().equals(policy))
                    .findFirst()
                    .orElseThrow(() -> new IllegalArgumentException(
                            "policy \"" + policy + "\" (expected: one of DLC, DLC-Q1, LRU, Caffeine)"));
        }

        /** A plain-text table: overall, per range, per tenant (tenants with >= 1 % of reads). */
        @Override
        public String toString() {
            StringBuilder sb = new StringBuilder();
            sb.append(String.format(
                    Locale.ROOT,
                    "accesses=%d distinct=%d footprint=%d B capacity=%d B (%.1f %%)%n",
                    accesses,
                    distinctKeys,
                    footprintBytes,
                    capacityBytes,
                    100.0 * capacityBytes / footprintBytes));
            sb.append(String.format(Locale.ROOT, "%-14s", "hit ratio"));
            results.forEach(r -> sb.append(String.format(Locale.ROOT, "%10s", r.policy())));
            sb.append('\n');
            row(
                    sb,
                    "overall",
                    results.stream().mapToDouble(PolicyResult::hitRatio).toArray());
            for (int range = 1; range <= 3; range++) {
                int rg = range;
                row(
                        sb,
                        "range-" + range,
                        results.stream().mapToDouble(r -> r.rangeHitRatio(rg)).toArray());
            }
            TreeMap<String, long[]> tenants = new TreeMap<>(results.get(0).byTenant());
            for (Map.Entry<String, long[]> t : tenants.entrySet()) {
                if (t.getValue()[1] * 100 < accesses) {
                    continue;
                }
                String label = t.getKey() + " (" + (100 * t.getValue()[1] / accesses) + "%)";
                row(
                        sb,
                        label,
                        results.stream()
                                .mapToDouble(r -> r.tenantHitRatio(t.getKey()))
                                .toArray());
            }
            return sb.toString();
        }

        private static void row(StringBuilder sb, String label, double[] ratios) {
            sb.append(String.format(Locale.ROOT, "%-14s", label));
            for (double r : ratios) {
                sb.append(String.format(Locale.ROOT, "%10.4f", r));
            }
            sb.append('\n');
        }
    }

    private TraceReplay() {}

    /**
     * Replays a trace through all policies.
     *
     * @param trace the accesses
     * @param capacityFraction capacity as a fraction of the slice's footprint, in (0, 1]
     * @throws IllegalArgumentException if the fraction is out of range or the trace is empty
     */
    public static Report replay(KeyTrace trace, double capacityFraction) {
        if (!(capacityFraction > 0 && capacityFraction <= 1)) {
            throw new IllegalArgumentException("capacity fraction " + capacityFraction + " (expected: in (0, 1])");
        }
        if (trace.size() == 0) {
            throw new IllegalArgumentException("trace with 0 accesses (expected: >= 1)");
        }
        HashSet<Long> distinct = new HashSet<>();
        long footprint = 0;
        for (int i = 0; i < trace.size(); i++) {
            long key = trace.key(i);
            if (distinct.add(key)) {
                footprint += DeadlineCache.sizeOf(keyString(key).length(), Workload.valueBytes(key));
            }
        }
        long capacity = Math.max(1, (long) (footprint * capacityFraction));
        long[] clock = {0};
        List<SimPolicy> policies = List.of(
                SimPolicy.deadlineCache("DLC", capacity, 12, clock),
                SimPolicy.deadlineCache("DLC-Q1", capacity, 1, clock),
                SimPolicy.lru(capacity),
                SimPolicy.caffeine(capacity));
        long[] hits = new long[policies.size()];
        List<Map<String, long[]>> byTenant = new ArrayList<>();
        long[][][] byRange = new long[policies.size()][4][2];
        policies.forEach(p -> byTenant.add(new HashMap<>()));
        Map<Integer, byte[]> values = new HashMap<>();
        for (int i = 0; i < trace.size(); i++) {
            clock[0] += TICK_NANOS;
            long key = trace.key(i);
            String keyString = keyString(key);
            byte[] keyBytes = keyString.getBytes(StandardCharsets.US_ASCII);
            byte[] value = values.computeIfAbsent(Workload.valueBytes(key), byte[]::new);
            long deadline = Workload.deadlineNanos(key);
            int range = Workload.rangeOf(key);
            String tenant = trace.tenantOf(key);
            for (int p = 0; p < policies.size(); p++) {
                boolean hit = policies.get(p).read(keyString, keyBytes, value, deadline, tenant);
                long[] t = byTenant.get(p).computeIfAbsent(tenant, x -> new long[2]);
                t[1]++;
                byRange[p][range][1]++;
                if (hit) {
                    hits[p]++;
                    t[0]++;
                    byRange[p][range][0]++;
                }
            }
        }
        List<PolicyResult> results = new ArrayList<>();
        for (int p = 0; p < policies.size(); p++) {
            results.add(new PolicyResult(policies.get(p).name(), hits[p], trace.size(), byTenant.get(p), byRange[p]));
        }
        return new Report(trace.size(), distinct.size(), footprint, capacity, results);
    }

    /** Key text as a client would send it: "k" and the decimal key (cache2k keys unsigned). */
    static String keyString(long key) {
        return "k" + Long.toUnsignedString(key);
    }

    /**
     * Prints the report of one trace.
     *
     * @param args trace file, then optionally the access limit (default all) and the capacity fraction
     *     (default 0.278, the MicroFuge evaluation's 6 GB of 21.6 GB)
     */
    public static void main(String[] args) throws IOException {
        if (args.length < 1) {
            System.err.println("usage: TraceReplay <trace.xz> [limit] [capacityFraction]");
            System.exit(2);
        }
        int limit = args.length > 1 ? Integer.parseInt(args[1]) : Integer.MAX_VALUE;
        double fraction = args.length > 2 ? Double.parseDouble(args[2]) : 0.278;
        KeyTrace trace = KeyTrace.read(Path.of(args[0]), limit);
        long start = System.nanoTime();
        Report report = replay(trace, fraction);
        System.out.print(report);
        System.out.printf(Locale.ROOT, "replay took %.1f s%n", (System.nanoTime() - start) / 1e9);
    }
}
