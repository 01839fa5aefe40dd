package io.locus.memcached.balance;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.locus.memcached.balance.LoadMonitor.BackendLoad;
import io.locus.memcached.balance.MigrationPlanner.Move;
import io.locus.memcached.balance.VirtualBucketTable.RingServer;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;

class BalancerTest {
    private static final long SEED = 77;
    private final ManualClock clock = new ManualClock();

    private Balancer<String> balancer(BalanceConfig config) {
        return balancer(config, 10_000);
    }

    private Balancer<String> balancer(BalanceConfig config, double capacity) {
        List<RingServer> ring = new ArrayList<>();
        for (int i = 0; i < 4; i++) {
            ring.add(new RingServer("10.0.0." + (i + 1), 1));
        }
        double[] caps = new double[4];
        Arrays.fill(caps, capacity);
        return new Balancer<>(
                config,
                new VirtualBucketTable(ring, config.cacheletsPerBackend()),
                caps,
                k -> k.getBytes(StandardCharsets.ISO_8859_1),
                clock,
                new SplittableRandom(SEED));
    }

    @Test
    void tick_returnsNullUntilTheEpochElapsed_andRatesUseRealElapsedTime() {
        Balancer<String> b = balancer(BalanceConfig.defaults());
        for (int i = 0; i < 3000; i++) {
            b.onRead("k" + i);
        }
        clock.nowNanos = 999_999_999L;
        assertNull(b.tick());
        clock.nowNanos = 1_500_000_000L; // the epoch task ran late
        EpochReport<String> r = b.tick();
        assertNotNull(r);
        assertEquals(1, r.epoch());
        assertEquals(
                2000, r.loads().stream().mapToDouble(BackendLoad::opsPerSecond).sum(), 1e-6);
        assertEquals(Set.of(Phase.NORMAL), r.step().active());
        assertNull(b.tick());
    }

    @Test
    void startMigration_registersBeforeTheOwnerFlips_refusesBadMoves_andEndsAfterTheFallbackEpochs() {
        Balancer<String> b = balancer(BalanceConfig.defaults());
        VirtualBucketTable t = b.table();
        int bucket = b.bucketOf("some-key");
        int from = t.owner(bucket);
        int to = (from + 1) % 4;
        BucketMigration<String> m = b.startMigration(bucket, to);
        assertEquals(to, t.owner(bucket));
        assertEquals(from, m.source());
        assertEquals(m, b.migrationOf(bucket));
        assertEquals(
                "virtual bucket " + bucket + " is being moved already",
                assertThrows(IllegalArgumentException.class, () -> b.startMigration(bucket, from))
                        .getMessage());
        int other = (bucket + 1) % t.bucketCount();
        assertEquals(
                "virtual bucket " + other + " is owned by backend " + t.owner(other)
                        + " already (expected: a different backend)",
                assertThrows(IllegalArgumentException.class, () -> b.startMigration(other, t.owner(other)))
                        .getMessage());
        assertEquals(
                "backend 4 (expected: 0..3)",
                assertThrows(IllegalArgumentException.class, () -> b.startMigration(other, 4))
                        .getMessage());
        assertEquals(
                "virtual bucket -1 (expected: 0.." + (t.bucketCount() - 1) + ")",
                assertThrows(IllegalArgumentException.class, () -> b.startMigration(-1, 0))
                        .getMessage());
        for (int e = 1; e <= 3; e++) { // copying: the migration stays however many epochs pass
            clock.nowNanos = e * 1_000_000_000L;
            b.tick();
        }
        assertEquals(m, b.migrationOf(bucket));
        m.copyFinished();
        for (int e = 4; e <= 5; e++) { // lb.fallback_epochs = 2 of draining
            clock.nowNanos = e * 1_000_000_000L;
            b.tick();
        }
        assertNull(b.migrationOf(bucket));
        assertEquals(to, t.owner(bucket));
    }

    @Test
    void phase3_movesBucketsOffAnOverloadedBackend_whenNoKeyIsHot() {
        // 4 backends of 10,000 ops/s; 32,000 ops/s offered; half of it spread over 2,000 keys owned by backend 0
        // (8 ops/s each: far below the hot-key threshold of 0.02 T = 200 ops/s), half uniform over 20,000 keys.
        // Backend 0 carries ~20,000 ops/s, so Phase 1 has nothing to replicate and Phase 3 must act, after
        // lb.persistence = 4 imbalanced epochs.
        Balancer<String> b = balancer(BalanceConfig.defaults());
        VirtualBucketTable table = b.table();
        List<String> onZero = new ArrayList<>();
        for (int i = 0; onZero.size() < 2000; i++) {
            String k = "warm" + i;
            if (table.ownerOf(k.getBytes(StandardCharsets.ISO_8859_1)) == 0) {
                onZero.add(k);
            }
        }
        SplittableRandom r = new SplittableRandom(SEED);
        double before = 0;
        double after = 0;
        double afterMaxUtil = 0;
        int plannedAt = -1;
        List<Move> moves = List.of();
        for (int epoch = 1; epoch <= 12; epoch++) {
            EpochReport<String> report = null;
            while (report == null) {
                String key = r.nextBoolean() ? onZero.get(r.nextInt(onZero.size())) : "cold" + r.nextInt(20_000);
                b.onRead(key);
                clock.nowNanos += 1_000_000_000L / 32_000;
                report = b.tick();
            }
            if (report.migration() != null && !report.migration().moves().isEmpty()) {
                plannedAt = epoch;
                moves = report.migration().moves();
                for (Move m : moves) {
                    b.migrationOf(m.bucket()).copyFinished(); // the proxy's copier, done at once here
                }
            }
            if (epoch == 3) {
                before = report.maxOverMean();
            }
            if (epoch == 12) {
                after = report.maxOverMean();
                afterMaxUtil = report.loads().stream()
                        .mapToDouble(BackendLoad::utilization)
                        .max()
                        .orElseThrow();
                assertEquals(Set.of(Phase.NORMAL), report.step().active());
            }
        }
        System.out.println("LOCUS-SIM phase 3 (seed " + SEED + "): max/mean before=" + String.format("%.3f", before)
                + " after=" + String.format("%.3f", after) + " maxUtil after=" + String.format("%.3f", afterMaxUtil)
                + " planned at epoch " + plannedAt + ", " + moves.size() + " buckets moved");
        assertEquals(4, plannedAt, "Phase 3 must wait lb.persistence = 4 epochs");
        assertTrue(before > 1.8, "before " + before);
        assertTrue(afterMaxUtil <= 1.0, "after: max utilization " + afterMaxUtil);
        assertTrue(after < before, "after " + after + " before " + before);
        for (Move m : moves) {
            assertTrue(m.from() == 0 || m.to() == 0, "every move leaves or (a swap) enters backend 0: " + m);
            assertEquals(m.to(), table.owner(m.bucket()));
            assertNull(b.migrationOf(m.bucket()), "migration of bucket " + m.bucket() + " finished and dropped");
        }
        assertEquals(1, b.triggerCount(Phase.COORDINATED_MIGRATION));
        assertEquals(0, b.triggerCount(Phase.KEY_REPLICATION));
    }

    @Test
    void replHighReached_halvesTheSampleRate_downToOneSixtyFourth() {
        // lb.repl_high = 0 refuses every persistent hotspot, so from epoch 4 (lb.persistence) on each epoch halves
        // ps ([MBal §3.1]): 0.05 / 2^5 after epochs 4..8, never below 0.05 / 64.
        Balancer<String> b = balancer(BalanceConfig.defaults().withOverrides(Map.of("lb.repl_high", "0")));
        BalanceSimulationTest.Zipf zipf = new BalanceSimulationTest.Zipf(1000, 0.99, new SplittableRandom(SEED));
        double[] rates = new double[9];
        for (int epoch = 1; epoch <= 8; epoch++) {
            EpochReport<String> report = null;
            while (report == null) {
                b.onRead("user" + zipf.next());
                clock.nowNanos += 1_000_000_000L / 32_000;
                report = b.tick();
            }
            assertTrue(report.replication().created().isEmpty());
            rates[epoch] = report.sampleRate();
        }
        assertEquals(0.05, rates[3]);
        assertEquals(0.025, rates[4]);
        assertEquals(0.05 / 32, rates[8], 1e-12);
        assertEquals(0, b.directory().size());
    }

    @Test
    void sampleRate_isRaisedSoThatAThresholdKeyIsSampledFourTimesAnEpoch_onlyWhereItWasBelow() {
        BalanceConfig defaults = BalanceConfig.defaults();
        assertEquals(0.05, Balancer.baseSampleRate(defaults, new double[] {50_000, 50_000}));
        assertEquals(0.05, Balancer.baseSampleRate(defaults, new double[] {4_000}), 1e-12); // 0.02*4000*1 s*0.05 = 4
        BalanceConfig halfSecond = defaults.withOverrides(Map.of("lb.epoch", "500ms"));
        assertEquals(0.8, Balancer.baseSampleRate(halfSecond, new double[] {500, 500, 500, 500}), 1e-12);
        assertEquals(0.8, Balancer.baseSampleRate(halfSecond, new double[] {5_000, 500}), 1e-12); // the smallest
        assertEquals(1.0, Balancer.baseSampleRate(halfSecond, new double[] {100}));
        assertEquals(0.05, balancer(defaults).baseSampleRate(), 1e-12);
    }

    @Test
    void smallCapacities_aKeyTwiceOverTheHotThreshold_isReplicatedAndStaysReplicated() {
        // T = 500 ops/s, 500 ms epochs: the threshold is 10 ops/s. One key at 20 ops/s on top of 1,200 ops/s spread
        // over 2,000 cold keys. With ps = 0.05 that key was sampled 0.5 times an epoch: it reached 4 hot epochs in a
        // row only now and then, and lost its replica whenever it missed 4 (its lease). The floor (ps 0.8) keeps it.
        Balancer<String> b = balancer(BalanceConfig.defaults().withOverrides(Map.of("lb.epoch", "500ms")), 500);
        SplittableRandom random = new SplittableRandom(SEED);
        long step = 1_000_000_000L / 1_220;
        int replicatedEpochs = 0;
        for (int epoch = 1; epoch <= 40; epoch++) {
            EpochReport<String> report = null;
            while (report == null) {
                b.onRead(random.nextInt(1_220) < 20 ? "hot" : "cold" + random.nextInt(2_000));
                clock.nowNanos += step;
                report = b.tick();
            }
            if (epoch >= 8) {
                assertTrue(b.directory().contains("hot"), "epoch " + epoch + ": the hot key lost its replica");
                replicatedEpochs++;
            }
        }
        assertEquals(33, replicatedEpochs);
        assertEquals(1, b.directory().size(), "no cold key is replicated");
    }

    @Test
    void readAtAChosenCopy_goesThereOnlyWhileItIsReadable() {
        Balancer<String> b = balancer(BalanceConfig.defaults().withOverrides(Map.of("lb.replicas_max", "3")));
        int home = b.table().owner(b.bucketOf("k"));
        int shadow = (home + 1) % b.table().servers();
        assertEquals(List.of(home), asList(b.readCopies("k")), "not replicated");
        assertEquals(new ReplicaDirectory.ReadTarget(home, false), b.onRead("k", shadow), "no copy there: home");
        b.directory().add("k", home, new int[] {shadow}, clock.nowNanos + 1_000_000_000L);
        b.directory().shadowWritten("k", shadow, b.directory().beginCopy("k"));
        assertEquals(List.of(home, shadow), asList(b.readCopies("k")));
        assertEquals(new ReplicaDirectory.ReadTarget(shadow, true), b.onRead("k", shadow));
        assertEquals(new ReplicaDirectory.ReadTarget(home, false), b.onRead("k", home));
        b.onWrite("k"); // begun, not yet acknowledged by the shadow: a read chosen before must go home now
        assertEquals(new ReplicaDirectory.ReadTarget(home, false), b.onRead("k", shadow));
        assertEquals(List.of(home), asList(b.readCopies("k")));
    }

    private static List<Integer> asList(int[] a) {
        return java.util.Arrays.stream(a).boxed().toList();
    }
}
