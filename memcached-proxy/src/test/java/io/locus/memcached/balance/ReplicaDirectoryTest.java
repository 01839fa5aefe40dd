package io.locus.memcached.balance;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.locus.memcached.balance.ReplicaDirectory.ReadTarget;
import io.locus.memcached.balance.ReplicaDirectory.WriteTicket;
import java.util.ArrayDeque;
import java.util.Deque;
import java.util.HashMap;
import java.util.Map;
import java.util.SplittableRandom;
import java.util.function.IntToDoubleFunction;
import org.junit.jupiter.api.Test;

class ReplicaDirectoryTest {
    private final ManualClock clock = new ManualClock();
    private final ReplicaDirectory<String> dir =
            new ReplicaDirectory<>(BalanceConfig.defaults().withOverrides(Map.of("lb.replicas_max", "3")), 4, clock);
    // Backend 0 (home) is busy, 1 and 2 are idle: a readable shadow always wins.
    private static final IntToDoubleFunction HOME_BUSY = b -> b == 0 ? 10 : b;

    private void replicateAndCopy(String key) {
        dir.add(key, 0, new int[] {1, 2}, 1_000);
        long v = dir.beginCopy(key);
        assertTrue(dir.copyMayProceed(key, v));
        dir.shadowWritten(key, 1, v);
        dir.shadowWritten(key, 2, v);
    }

    @Test
    void read_goesToCheapestReadableCopy_homeOnTies() {
        replicateAndCopy("k");
        assertEquals(new ReadTarget(1, true), dir.readTarget("k", 0, HOME_BUSY));
        assertEquals(new ReadTarget(0, false), dir.readTarget("k", 0, b -> 1));
        assertEquals(new ReadTarget(3, false), dir.readTarget("other", 3, HOME_BUSY));
    }

    @Test
    void readableCopies_homeFirst_thenOnlyShadowsThatAcknowledgedTheLatestWrite() {
        assertArrayEquals(new int[] {0}, dir.readableCopies("k", 0), "not replicated: the home alone");
        dir.add("k", 0, new int[] {1, 2}, 1_000);
        assertArrayEquals(new int[] {0}, dir.readableCopies("k", 0), "shadows not copied yet");
        long v = dir.beginCopy("k");
        dir.shadowWritten("k", 1, v);
        dir.shadowWritten("k", 2, v);
        assertArrayEquals(new int[] {0, 1, 2}, dir.readableCopies("k", 0));
        WriteTicket w = dir.beginWrite("k", 0);
        dir.shadowWritten("k", 2, w.version());
        assertArrayEquals(new int[] {0, 2}, dir.readableCopies("k", 0), "1 has not acknowledged the write");
        assertArrayEquals(new int[] {3}, dir.readableCopies("k", 3), "the key's bucket moved: its replicas are void");
        clock.nowNanos += 1_000;
        assertArrayEquals(new int[] {0}, dir.readableCopies("k", 0), "lease over");
    }

    @Test
    void shadow_notReadableBeforeItsCopy() {
        dir.add("k", 0, new int[] {1, 2}, 1_000);
        assertEquals(new ReadTarget(0, false), dir.readTarget("k", 0, HOME_BUSY));
        dir.shadowWritten("k", 2, dir.beginCopy("k"));
        assertEquals(new ReadTarget(2, true), dir.readTarget("k", 0, HOME_BUSY));
    }

    @Test
    void readYourWrites_shadowHiddenFromWriteBeginUntilItAcknowledges() {
        replicateAndCopy("k");
        WriteTicket w = dir.beginWrite("k", 0);
        assertEquals(1, w.version());
        assertArrayEquals(new int[] {1, 2}, w.shadows());
        // Async mode: the client got its ack after the home; its next read must not see a stale shadow.
        assertEquals(new ReadTarget(0, false), dir.readTarget("k", 0, HOME_BUSY));
        dir.shadowWritten("k", 2, w.version());
        assertEquals(new ReadTarget(2, true), dir.readTarget("k", 0, HOME_BUSY));
        dir.shadowWritten("k", 1, w.version());
        assertEquals(new ReadTarget(1, true), dir.readTarget("k", 0, HOME_BUSY));
    }

    @Test
    void failedShadow_isSkipped_untilALaterWriteLands() {
        replicateAndCopy("k");
        dir.shadowFailed("k", 1);
        assertEquals(new ReadTarget(2, true), dir.readTarget("k", 0, HOME_BUSY));
        assertArrayEquals(new int[] {1}, dir.staleShadows("k"));
        WriteTicket w = dir.beginWrite("k", 0);
        dir.shadowWritten("k", 1, w.version());
        assertArrayEquals(new int[] {2}, dir.staleShadows("k"));
    }

    @Test
    void copy_isDropped_ifAWriteBeganMeanwhile() {
        dir.add("k", 0, new int[] {1}, 1_000);
        long v = dir.beginCopy("k");
        dir.beginWrite("k", 0);
        assertFalse(dir.copyMayProceed("k", v));
    }

    @Test
    void lease_endsRouting_andExpireRemoves() {
        replicateAndCopy("k");
        clock.nowNanos = 999;
        assertTrue(dir.readTarget("k", 0, HOME_BUSY).shadow());
        clock.nowNanos = 1_000;
        assertEquals(new ReadTarget(0, false), dir.readTarget("k", 0, HOME_BUSY));
        dir.renew("k", 500); // never shortens
        assertEquals(1_000, dir.leaseExpiresNanos("k"));
        assertEquals(java.util.List.of("k"), dir.expire());
        assertEquals(0, dir.size());
        assertEquals(0, dir.replicatedKeysOf(0));
    }

    @Test
    void homeMoved_replicasIgnored() {
        // After Phase 3 moved the key's bucket, the old replica set must not be read or written.
        replicateAndCopy("k");
        assertEquals(new ReadTarget(3, false), dir.readTarget("k", 3, HOME_BUSY));
        assertEquals(0, dir.beginWrite("k", 3).shadows().length);
    }

    @Test
    void badReplicaSets_areRejected() {
        assertEquals(
                "shadow 0 of key k is its home (expected: a backend other than 0)",
                assertThrows(IllegalArgumentException.class, () -> dir.add("k", 0, new int[] {0}, 1))
                        .getMessage());
        assertEquals(
                "shadows [1, 1] of key k repeat backend 1 (expected: distinct backends)",
                assertThrows(IllegalArgumentException.class, () -> dir.add("k", 0, new int[] {1, 1}, 1))
                        .getMessage());
        assertEquals(
                "shadows [1, 2, 3] for key k (expected: 1..2 backends, lb.replicas_max - 1)",
                assertThrows(IllegalArgumentException.class, () -> dir.add("k", 0, new int[] {1, 2, 3}, 1))
                        .getMessage());
        assertEquals(
                "backend 4 (expected: 0..3)",
                assertThrows(IllegalArgumentException.class, () -> dir.add("k", 0, new int[] {4}, 1))
                        .getMessage());
        dir.add("k", 0, new int[] {1}, 1);
        assertEquals(
                "key k is already replicated on home 0, shadows [1] (expected: a key without replicas)",
                assertThrows(IllegalArgumentException.class, () -> dir.add("k", 0, new int[] {2}, 1))
                        .getMessage());
        assertEquals(
                "key x has no replicas (expected: a replicated key)",
                assertThrows(IllegalArgumentException.class, () -> dir.beginCopy("x"))
                        .getMessage());
    }

    @Test
    void readYourWrites_holdsUnderRandomInterleavings() {
        // Model: each copy holds a value (an int). Writes go home at once, to shadows via per-shadow FIFO queues
        // (the proxy's ordered connection) delivered at random times; reads pick any cheap copy. Property: a read
        // issued after a write was begun never returns a value older than that write.
        SplittableRandom r = new SplittableRandom(99);
        for (int trial = 0; trial < 200; trial++) {
            ManualClock c = new ManualClock();
            ReplicaDirectory<String> d = new ReplicaDirectory<>(
                    BalanceConfig.defaults().withOverrides(Map.of("lb.replicas_max", "3")), 3, c);
            d.add("k", 0, new int[] {1, 2}, Long.MAX_VALUE);
            int[] value = new int[3];
            Map<Integer, Deque<long[]>> queues = new HashMap<>();
            queues.put(1, new ArrayDeque<>());
            queues.put(2, new ArrayDeque<>());
            long copyVersion = d.beginCopy("k");
            for (int s = 1; s <= 2; s++) {
                queues.get(s).add(new long[] {copyVersion, value[0]});
            }
            int lastWritten = 0;
            for (int step = 0; step < 200; step++) {
                int op = r.nextInt(3);
                if (op == 0) {
                    WriteTicket w = d.beginWrite("k", 0);
                    lastWritten++;
                    value[0] = lastWritten;
                    for (int s : w.shadows()) {
                        queues.get(s).add(new long[] {w.version(), lastWritten});
                    }
                } else if (op == 1) {
                    int s = 1 + r.nextInt(2);
                    long[] msg = queues.get(s).poll();
                    if (msg != null) {
                        value[s] = (int) msg[1];
                        d.shadowWritten("k", s, msg[0]);
                    }
                } else {
                    double[] cost = {r.nextDouble(), r.nextDouble(), r.nextDouble()};
                    ReadTarget t = d.readTarget("k", 0, b -> cost[b]);
                    assertTrue(
                            value[t.backend()] >= lastWritten,
                            "trial " + trial + " step " + step + ": read " + value[t.backend()] + " from backend "
                                    + t.backend() + " after write " + lastWritten);
                }
            }
        }
    }
}
