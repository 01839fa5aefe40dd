package io.locus.memcached.balance;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.locus.memcached.balance.BucketMigration.ReadRoute;
import io.locus.memcached.balance.BucketMigration.State;
import io.locus.memcached.balance.BucketMigration.WriteRoute;
import java.util.HashMap;
import java.util.Map;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;

class BucketMigrationTest {

    @Test
    void lifecycle_copying_draining_done() {
        BucketMigration<String> m = new BucketMigration<>(7, 0, 2, 2);
        assertEquals(State.COPYING, m.state());
        assertTrue(m.copierActive());
        assertEquals(new ReadRoute(2, 0, true), m.readRoute());
        assertEquals(State.COPYING, m.onEpochEnd()); // epochs do not end a copy
        m.copyFinished();
        assertEquals(State.DRAINING, m.state());
        assertEquals(new ReadRoute(2, 0, true), m.readRoute()); // fallback reads kept 2 more epochs
        assertEquals(State.DRAINING, m.onEpochEnd());
        assertEquals(State.DONE, m.onEpochEnd());
        assertEquals(new ReadRoute(2, -1, false), m.readRoute());
        assertEquals(new WriteRoute(2, -1, false), m.beginWrite("k", true));
    }

    @Test
    void writesAndDeletes_invalidateSource_andBlockCopyForward() {
        BucketMigration<String> m = new BucketMigration<>(7, 0, 2, 2);
        assertTrue(m.mayCopyForward("a"));
        assertEquals(new WriteRoute(2, 0, false), m.beginWrite("a", false));
        assertFalse(m.mayCopyForward("a"));
        // incr on an untouched key: copy the old value first; once touched, the target has the latest value.
        assertEquals(new WriteRoute(2, 0, true), m.beginWrite("b", true));
        assertEquals(new WriteRoute(2, 0, false), m.beginWrite("b", true));
        assertEquals(new WriteRoute(2, 0, false), m.beginDelete("c"));
        assertFalse(m.mayCopyForward("c"));
        assertEquals(3, m.touchedKeys());
    }

    @Test
    void zeroFallbackEpochs_finishesAtCopyEnd_andDoubleFinishIsAnError() {
        BucketMigration<String> m = new BucketMigration<>(3, 1, 0, 0);
        m.copyFinished();
        assertEquals(State.DONE, m.state());
        assertEquals(
                "copy of virtual bucket 3 finished in state DONE (expected: COPYING)",
                assertThrows(IllegalStateException.class, m::copyFinished).getMessage());
        assertEquals(
                "migration of virtual bucket 3 from backend 1 to itself (expected: a different target)",
                assertThrows(IllegalArgumentException.class, () -> new BucketMigration<String>(3, 1, 1, 2))
                        .getMessage());
    }

    @Test
    void copyProtocol_neverResurrectsOrLosesAValue_underRandomInterleavings() {
        // Model of BALANCE.md, "Phase 3" on two maps (source, target) with add-only copies: client writes, deletes,
        // reads whose
        // copy-forward happens in a later step (it reads the source outside the stripe lock), and copier steps (atomic
        // under the lock), in random order. Property: every read returns the latest value written
        // or deleted through the proxy (or the preloaded one if never touched). Seed 3, 300 trials.
        SplittableRandom r = new SplittableRandom(3);
        for (int trial = 0; trial < 300; trial++) {
            BucketMigration<Integer> m = new BucketMigration<>(0, 0, 1, 1);
            Map<Integer, Integer> src = new HashMap<>();
            Map<Integer, Integer> dst = new HashMap<>();
            Map<Integer, Integer> truth = new HashMap<>();
            for (int k = 0; k < 8; k++) {
                src.put(k, 100 + k);
                truth.put(k, 100 + k);
            }
            int nextKeyToCopy = 0;
            int pendingKey = -1;
            int pendingValue = 0;
            int version = 1000;
            for (int step = 0; step < 60; step++) {
                int k = r.nextInt(8);
                switch (r.nextInt(5)) {
                    case 0 -> { // set
                        WriteRoute w = m.beginWrite(k, false);
                        dst.put(k, ++version);
                        if (w.invalidateAt() >= 0) {
                            src.remove(k);
                        }
                        truth.put(k, version);
                    }
                    case 1 -> { // delete
                        WriteRoute w = m.beginDelete(k);
                        dst.remove(k);
                        if (w.invalidateAt() >= 0) {
                            src.remove(k);
                        }
                        truth.remove(k);
                    }
                    case 2 -> { // a read; a fallback hit is copied forward later, outside the lock, as in BALANCE.md,
                        // "Phase 3"
                        ReadRoute route = m.readRoute();
                        Integer v = dst.get(k);
                        if (v == null && route.fallback() >= 0) {
                            v = src.get(k);
                            if (v != null && route.copyForward() && pendingKey < 0) {
                                pendingKey = k;
                                pendingValue = v;
                            }
                        }
                        assertEquals(truth.get(k), v, "trial " + trial + " step " + step + " key " + k);
                    }
                    case 3 -> { // the pending copy-forward takes the stripe lock and checks touched
                        if (pendingKey >= 0) {
                            if (m.mayCopyForward(pendingKey)) {
                                dst.putIfAbsent(pendingKey, pendingValue);
                            }
                            pendingKey = -1;
                        }
                    }
                    default -> { // copier step
                        if (m.copierActive()) {
                            if (nextKeyToCopy < 8) {
                                int c = nextKeyToCopy++;
                                Integer v = src.get(c);
                                if (v != null && m.mayCopyForward(c)) {
                                    dst.putIfAbsent(c, v);
                                }
                                src.remove(c);
                            } else {
                                m.copyFinished();
                            }
                        } else {
                            m.onEpochEnd();
                        }
                    }
                }
            }
        }
    }
}
