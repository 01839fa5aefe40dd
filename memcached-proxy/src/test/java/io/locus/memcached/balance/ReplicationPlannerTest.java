package io.locus.memcached.balance;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.locus.memcached.balance.HotKeyTracker.HotKey;
import io.locus.memcached.balance.HotspotDetector.Hotspot;
import io.locus.memcached.balance.LoadMonitor.BackendLoad;
import io.locus.memcached.balance.ReplicationPlanner.Action;
import io.locus.memcached.balance.ReplicationPlanner.Kind;
import io.locus.memcached.balance.ReplicationPlanner.Plan;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class ReplicationPlannerTest {
    private final ManualClock clock = new ManualClock();
    // Backend 0 hot; 3 is the least loaded, then 2, then 1.
    private static final List<BackendLoad> LOADS = List.of(
            new BackendLoad(0, 9000, 0, 10_000, -1),
            new BackendLoad(1, 7000, 0, 10_000, -1),
            new BackendLoad(2, 6000, 0, 10_000, -1),
            new BackendLoad(3, 5000, 0, 10_000, -1));

    private static Hotspot<String> hot(String key, double reads, boolean persistent, int copies) {
        return new Hotspot<>(new HotKey<>(key, reads, reads, reads, 0), 0, persistent ? 4 : 1, persistent, copies);
    }

    private ReplicationPlanner<String> planner(ReplicaDirectory<String> dir) {
        BalanceConfig config =
                BalanceConfig.defaults().withOverrides(Map.of("lb.replicas_max", "3", "lb.repl_high", "2"));
        return new ReplicationPlanner<>(config, dir, k -> !k.startsWith("long"));
    }

    private ReplicaDirectory<String> directory() {
        return new ReplicaDirectory<>(BalanceConfig.defaults().withOverrides(Map.of("lb.replicas_max", "3")), 4, clock);
    }

    @Test
    void newHotKey_getsLeastLoadedShadows_distinctFromHome_withCopyActions() {
        ReplicaDirectory<String> dir = directory();
        Plan<String> plan = planner(dir).plan(List.of(hot("a", 3000, true, 3)), LOADS, b -> true, 0);
        assertEquals(List.of("a"), plan.created());
        assertArrayEquals(new int[] {3, 2}, dir.shadowsOf("a"));
        // TTL = lease 4 epochs × 1 s.
        assertEquals(
                List.of(new Action<>(Kind.COPY, "a", 0, 3, 4), new Action<>(Kind.COPY, "a", 0, 2, 4)), plan.actions());
        assertEquals(4_000_000_000L, dir.leaseExpiresNanos("a"));
        // Projection: 3,000 reads spread over 3 copies, 2,000 leave the home.
        assertEquals(7000, plan.projectedLoads()[0], 1e-9);
        assertEquals(6000, plan.projectedLoads()[3], 1e-9);
    }

    @Test
    void secondKey_seesTheFirstKeysProjectedLoad() {
        ReplicaDirectory<String> dir = directory();
        planner(dir).plan(List.of(hot("a", 6000, true, 2), hot("b", 100, true, 2)), LOADS, b -> true, 0);
        // a's shadow goes to 3 (5,000 -> 8,000 projected), so b's goes to 2 (6,000).
        assertArrayEquals(new int[] {3}, dir.shadowsOf("a"));
        assertArrayEquals(new int[] {2}, dir.shadowsOf("b"));
    }

    @Test
    void notPersistent_notReplicable_orDownBackends_areRespected() {
        ReplicaDirectory<String> dir = directory();
        Plan<String> plan = planner(dir)
                .plan(
                        List.of(hot("a", 3000, false, 2), hot("long-key", 3000, true, 2), hot("c", 3000, true, 2)),
                        LOADS,
                        b -> b != 3,
                        0);
        assertEquals(List.of("c"), plan.created());
        assertFalse(dir.contains("a"));
        assertFalse(dir.contains("long-key"));
        assertArrayEquals(new int[] {2}, dir.shadowsOf("c"));
    }

    @Test
    void replHigh_capsReplicatedKeysPerHome() {
        ReplicaDirectory<String> dir = directory();
        Plan<String> plan = planner(dir)
                .plan(
                        List.of(hot("a", 3000, true, 2), hot("b", 3000, true, 2), hot("c", 3000, true, 2)),
                        LOADS,
                        b -> true,
                        0);
        assertEquals(List.of("a", "b"), plan.created());
        assertTrue(plan.replHighReached());
        assertEquals(2, dir.replicatedKeysOf(0));
    }

    @Test
    void stillHot_renewsLease_touchesShadows_recopiesStaleOnes_andGrows() {
        ReplicaDirectory<String> dir = directory();
        ReplicationPlanner<String> p = planner(dir);
        p.plan(List.of(hot("a", 3000, true, 2)), LOADS, b -> true, 0);
        dir.shadowWritten("a", 3, dir.beginCopy("a"));
        clock.nowNanos = 2_000_000_000L;
        Plan<String> plan = p.plan(List.of(hot("a", 3000, false, 3)), LOADS, b -> true, clock.nowNanos);
        assertEquals(List.of("a"), plan.renewed());
        assertEquals(6_000_000_000L, dir.leaseExpiresNanos("a"));
        assertArrayEquals(new int[] {3, 2}, dir.shadowsOf("a"));
        assertEquals(
                List.of(
                        new Action<>(Kind.TOUCH, "a", 0, 3, 4),
                        new Action<>(Kind.TOUCH, "a", 0, 2, 4),
                        new Action<>(Kind.COPY, "a", 0, 2, 4)),
                plan.actions());
    }

    @Test
    void cold_keyExpiresAfterItsLease() {
        ReplicaDirectory<String> dir = directory();
        ReplicationPlanner<String> p = planner(dir);
        p.plan(List.of(hot("a", 3000, true, 2)), LOADS, b -> true, 0);
        clock.nowNanos = 3_999_999_999L;
        assertEquals(
                List.of(), p.plan(List.of(), LOADS, b -> true, clock.nowNanos).expired());
        clock.nowNanos = 4_000_000_000L;
        assertEquals(
                List.of("a"),
                p.plan(List.of(), LOADS, b -> true, clock.nowNanos).expired());
        assertFalse(dir.contains("a"));
    }
}
