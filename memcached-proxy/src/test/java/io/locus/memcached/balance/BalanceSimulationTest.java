package io.locus.memcached.balance;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.locus.memcached.balance.LoadMonitor.BackendLoad;
import io.locus.memcached.balance.ReplicaDirectory.WriteTicket;
import io.locus.memcached.balance.ReplicationPlanner.Action;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;

/**
 * Deterministic simulation of Phase 1 on the MBal evaluation workload shape (MBal §4.2,
 * MBal's Phase 1 experiment): 4 backends of equal capacity on a nutcracker-compatible ketama ring, Zipf 0.99 over
 * 10,000 keys (seeded) named as YCSB names them ("user" + FNV-64 of the record number, [MBal §4.2.1] used YCSB), 95 %
 * reads / 5 % writes, offered load 80 % of the pool's capacity, 1 s epochs on a virtual clock, 40 epochs of which the
 * last 20 are measured. Each configuration runs the same request sequence: {@code lb.phases = none}, {@code p1}, {@code
 * p1,p3}.
 *
 * <p>Capacity model: each backend serves up to T = 10,000 ops/s; its load is the requests the balancer routes to it
 * (reads to one copy, writes to the home and every shadow). Reported: max/mean load, max utilization, and the
 * fraction of offered requests that fit under the capacities (sum of min(L, T) / sum of L), averaged over the
 * measured epochs. Copies and shadow updates are acknowledged at once (the proxy's latency is not modelled).
 */
class BalanceSimulationTest {
    static final long SEED = 20261122L;
    static final int BACKENDS = 4;
    static final double CAPACITY = 10_000;
    static final int OPS_PER_SECOND = 32_000;
    static final int KEYS = 10_000;
    static final double THETA = 0.99;
    static final double READ_FRACTION = 0.95;
    static final int EPOCHS = 40;
    static final int WARMUP_EPOCHS = 20;

    /** Result of one run, averaged over the epochs after warm-up. */
    record Result(
            double maxOverMean,
            double maxUtilization,
            double servedFraction,
            int replicatedKeys,
            int movedBuckets,
            double[] meanLoads) {
        @Override
        public String toString() {
            return String.format(
                    "max/mean=%.3f maxUtil=%.3f served=%.3f replicatedKeys=%d movedBuckets=%d loads=%s",
                    maxOverMean,
                    maxUtilization,
                    servedFraction,
                    replicatedKeys,
                    movedBuckets,
                    Arrays.toString(
                            Arrays.stream(meanLoads).map(l -> Math.round(l)).toArray()));
        }
    }

    @Test
    void phase1_zipf099_bringsMaxOverMeanToAtMost1point2() {
        Result off = run(BalanceConfig.defaults().withOverrides(Map.of("lb.phases", "none")));
        Result on = run(BalanceConfig.defaults().withOverrides(Map.of("lb.phases", "p1")));
        Result all = run(BalanceConfig.defaults());
        System.out.println("LOCUS-SIM seed=" + SEED + " backends=" + BACKENDS + " keys=" + KEYS + " theta=" + THETA
                + " reads=" + READ_FRACTION + " offered=" + OPS_PER_SECOND + " ops/s capacity=" + CAPACITY
                + " ops/s/backend epochs=" + EPOCHS + " (measured " + (EPOCHS - WARMUP_EPOCHS) + ")");
        System.out.println("LOCUS-SIM no balancing: " + off);
        System.out.println("LOCUS-SIM phase 1:      " + on);
        System.out.println("LOCUS-SIM phases 1+3:   " + all);
        assertTrue(off.maxOverMean() > 1.3, "without balancing, Zipf 0.99 should overload one backend: " + off);
        assertTrue(on.maxOverMean() <= 1.2, "with Phase 1: " + on + " (baseline " + off + ")");
        assertTrue(on.replicatedKeys() > 0 && on.replicatedKeys() <= 64 * BACKENDS, "replicated keys: " + on);
        assertEquals(0, off.replicatedKeys());
        assertEquals(0, off.movedBuckets());
        assertEquals(0, on.movedBuckets());
        assertTrue(all.maxOverMean() <= 1.2, "with Phases 1 and 3: " + all);
    }

    @Test
    void sequentialKeyNames_ringClustering_needsPhase3() {
        // Not a claim of the papers: with "user0".."user9999", nutcracker's 32-bit fnv1a_64 places many cold keys on
        // a few arcs, so one backend is overloaded by keys no single one of which is hot. Phase 1 cannot help there;
        // Phase 3 moves a bucket. Reported for BALANCE.md; asserted only in direction.
        Result off = run(
                BalanceConfig.defaults().withOverrides(Map.of("lb.phases", "none")),
                BalanceSimulationTest::sequentialKey);
        Result on = run(
                BalanceConfig.defaults().withOverrides(Map.of("lb.phases", "p1")),
                BalanceSimulationTest::sequentialKey);
        Result all = run(BalanceConfig.defaults(), BalanceSimulationTest::sequentialKey);
        System.out.println("LOCUS-SIM sequential names, no balancing: " + off);
        System.out.println("LOCUS-SIM sequential names, phase 1:      " + on);
        System.out.println("LOCUS-SIM sequential names, phases 1+3:   " + all);
        assertTrue(on.maxOverMean() < off.maxOverMean(), on + " vs " + off);
        assertTrue(all.maxOverMean() < on.maxOverMean(), all + " vs " + on);
        assertTrue(all.movedBuckets() > 0, all.toString());
    }

    @Test
    void unbalancedSimulation_matchesTheAnalyticExpectation() {
        // Cross-check of the simulator itself: without balancing, each backend's load must be the offered rate times
        // the Zipf mass of the keys the ring gives it (within 2 %: sampling noise over 20 measured epochs).
        List<VirtualBucketTable.RingServer> ring = new ArrayList<>();
        for (int i = 0; i < BACKENDS; i++) {
            ring.add(new VirtualBucketTable.RingServer("10.0.0." + (i + 1), 1));
        }
        VirtualBucketTable table = new VirtualBucketTable(ring, 16);
        double[] expected = new double[BACKENDS];
        double norm = 0;
        for (int i = 0; i < KEYS; i++) {
            norm += 1 / Math.pow(i + 1, THETA);
        }
        for (int i = 0; i < KEYS; i++) {
            int owner = table.ownerOf(ycsbKey(i).getBytes(StandardCharsets.ISO_8859_1));
            expected[owner] += OPS_PER_SECOND / Math.pow(i + 1, THETA) / norm;
        }
        Result off = run(BalanceConfig.defaults().withOverrides(Map.of("lb.phases", "none")));
        for (int b = 0; b < BACKENDS; b++) {
            assertEquals(
                    expected[b],
                    off.meanLoads()[b],
                    expected[b] * 0.02,
                    "backend " + b + ": expected " + Arrays.toString(expected) + " simulated " + off);
        }
    }

    @Test
    void simulation_isDeterministic() {
        Result a = run(BalanceConfig.defaults());
        Result b = run(BalanceConfig.defaults());
        assertEquals(a.toString(), b.toString());
    }

    /** YCSB's key name for record {@code n}: "user" + FNV-1a 64 of its 8 bytes, low byte first (CoreWorkload). */
    static String ycsbKey(long n) {
        long hash = 0xCBF29CE484222325L;
        long v = n;
        for (int i = 0; i < 8; i++) {
            hash ^= v & 0xff;
            v >>= 8;
            hash *= 1099511628211L;
        }
        return "user" + Math.abs(hash);
    }

    /** Sequential key names, "user0" ... : they cluster on nutcracker's fnv1a_64 ring (see BALANCE.md). */
    static String sequentialKey(long n) {
        return "user" + n;
    }

    static Result run(BalanceConfig config) {
        return run(config, BalanceSimulationTest::ycsbKey);
    }

    static Result run(BalanceConfig config, java.util.function.LongFunction<String> keyName) {
        ManualClock clock = new ManualClock();
        List<VirtualBucketTable.RingServer> ring = new ArrayList<>();
        for (int i = 0; i < BACKENDS; i++) {
            ring.add(new VirtualBucketTable.RingServer("10.0.0." + (i + 1), 1));
        }
        VirtualBucketTable table = new VirtualBucketTable(ring, config.cacheletsPerBackend());
        double[] caps = new double[BACKENDS];
        Arrays.fill(caps, CAPACITY);
        Balancer<String> balancer = new Balancer<>(
                config, table, caps, k -> k.getBytes(StandardCharsets.ISO_8859_1), clock, new SplittableRandom(SEED));
        ReplicaDirectory<String> dir = balancer.directory();
        Zipf zipf = new Zipf(KEYS, THETA, new SplittableRandom(SEED + 1));
        String[] keyNames = new String[KEYS];
        for (int i = 0; i < KEYS; i++) {
            keyNames[i] = keyName.apply(i);
        }
        SplittableRandom mix = new SplittableRandom(SEED + 2);
        long stepNanos = 1_000_000_000L / OPS_PER_SECOND;
        double sumMaxOverMean = 0;
        double sumMaxUtil = 0;
        double sumServed = 0;
        double[] sumLoads = new double[BACKENDS];
        int measured = 0;
        for (int e = 0; e < EPOCHS; e++) {
            EpochReport<String> report = null;
            while (report == null) {
                String key = keyNames[zipf.next()];
                if (mix.nextDouble() < READ_FRACTION) {
                    balancer.onRead(key);
                } else {
                    WriteTicket t = balancer.onWrite(key);
                    for (int s : t.shadows()) {
                        dir.shadowWritten(key, s, t.version());
                    }
                }
                clock.nowNanos += stepNanos;
                report = balancer.tick();
            }
            for (Action<String> a : report.replication().actions()) {
                if (a.kind() == ReplicationPlanner.Kind.COPY) {
                    long v = dir.beginCopy(a.key());
                    if (dir.copyMayProceed(a.key(), v)) {
                        dir.shadowWritten(a.key(), a.shadow(), v);
                    }
                }
            }
            if (e >= WARMUP_EPOCHS) {
                measured++;
                sumMaxOverMean += report.maxOverMean();
                double maxUtil = 0;
                double offered = 0;
                double served = 0;
                for (BackendLoad l : report.loads()) {
                    maxUtil = Math.max(maxUtil, l.utilization());
                    offered += l.opsPerSecond();
                    served += Math.min(l.opsPerSecond(), l.capacityOpsPerSecond());
                    sumLoads[l.backend()] += l.opsPerSecond();
                }
                sumMaxUtil += maxUtil;
                sumServed += served / offered;
            }
        }
        int n = measured;
        int moved = 0;
        for (int k = 0; k < table.bucketCount(); k++) {
            moved += table.owner(k) != table.home(k) ? 1 : 0;
        }
        return new Result(
                sumMaxOverMean / n,
                sumMaxUtil / n,
                sumServed / n,
                dir.size(),
                moved,
                Arrays.stream(sumLoads).map(l -> l / n).toArray());
    }

    /** Zipf(theta) over ranks 0..n-1 by inverse CDF; rank 0 is the most popular. */
    static final class Zipf {
        private final double[] cdf;
        private final SplittableRandom random;

        Zipf(int n, double theta, SplittableRandom random) {
            this.random = random;
            cdf = new double[n];
            double sum = 0;
            for (int i = 0; i < n; i++) {
                sum += 1 / Math.pow(i + 1, theta);
                cdf[i] = sum;
            }
            for (int i = 0; i < n; i++) {
                cdf[i] /= sum;
            }
        }

        int next() {
            int i = Arrays.binarySearch(cdf, random.nextDouble());
            return i >= 0 ? i : Math.min(-i - 1, cdf.length - 1);
        }
    }
}
