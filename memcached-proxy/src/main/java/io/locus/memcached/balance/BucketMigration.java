package io.locus.memcached.balance;

import java.util.HashSet;
import java.util.Set;

/**
 * The state of one virtual bucket moving from {@code source} to {@code target}, which the proxy drives
 * (BALANCE.md, "Phase 3" copy protocol, adapting MBal's per-bucket write-invalidate [MBal §3.4]).
 *
 * <pre>
 *   COPYING --copyFinished()--> DRAINING --(lb.fallback_epochs epoch ends)--> DONE
 * </pre>
 * <ul>
 *   <li>Reads ({@link #readRoute}): target first; on a miss the source, and while not DONE a source hit is copied
 *       forward to the target (add-only, {@code ME}) if {@link #mayCopyForward} allows it.</li>
 *   <li>Writes ({@link #beginWrite}): applied at the target, then the key is deleted at the source
 *       (write-invalidate); the key is marked touched so neither the copier nor a read copy-forward resurrects an
 *       older value. Operations that need the old value (append, prepend, incr, decr, touch) copy it forward
 *       first.</li>
 *   <li>Deletes ({@link #beginDelete}): at the target and the source; touched.</li>
 *   <li>The copier walks the source's keys of this bucket, copies those not touched (add-only), deletes them at the
 *       source, then calls {@link #copyFinished}.</li>
 * </ul>
 * The owner in the {@link VirtualBucketTable} is the target from the start. Thread-safe (synchronised); the proxy
 * holds its per-key stripe lock around "check touched, then copy" (BALANCE.md, "Phase 3").
 *
 * @param <K> key type, with value equality
 */
public final class BucketMigration<K> {
    private final int bucket;
    private final int source;
    private final int target;
    private final Set<K> touched = new HashSet<>();
    private State state = State.COPYING;
    private int drainEpochsLeft;

    /** Migration states. */
    public enum State {
        /** Background copy in progress. */
        COPYING,
        /** Copy done; misses still fall back to the source for a few epochs. */
        DRAINING,
        /** Finished: the target alone serves the bucket. */
        DONE
    }

    /**
     * Where a read goes.
     *
     * @param first ask this backend first
     * @param fallback on a miss, ask this one, or -1 for none
     * @param copyForward copy a fallback hit to {@code first} (add-only) if {@link #mayCopyForward} still holds
     */
    public record ReadRoute(int first, int fallback, boolean copyForward) {}

    /**
     * What a write or delete does.
     *
     * @param applyAt apply the operation here
     * @param invalidateAt then delete the key here ({@code md}), or -1
     * @param copyFirst copy the old value from the source to the target (add-only) before applying
     */
    public record WriteRoute(int applyAt, int invalidateAt, boolean copyFirst) {}

    /**
     * @param fallbackEpochs {@code lb.fallback_epochs}: epochs in DRAINING before DONE
     * @throws IllegalArgumentException if source equals target or fallbackEpochs is negative
     */
    public BucketMigration(int bucket, int source, int target, int fallbackEpochs) {
        if (source == target) {
            throw new IllegalArgumentException("migration of virtual bucket " + bucket + " from backend " + source
                    + " to itself (expected: a different target)");
        }
        if (fallbackEpochs < 0) {
            throw new IllegalArgumentException("lb.fallback_epochs: " + fallbackEpochs + " (expected: >= 0)");
        }
        this.bucket = bucket;
        this.source = source;
        this.target = target;
        this.drainEpochsLeft = fallbackEpochs;
    }

    public int bucket() {
        return bucket;
    }

    public int source() {
        return source;
    }

    public int target() {
        return target;
    }

    public synchronized State state() {
        return state;
    }

    /** True while the background copy runs. */
    public synchronized boolean copierActive() {
        return state == State.COPYING;
    }

    /** The route of a read. */
    public synchronized ReadRoute readRoute() {
        return state == State.DONE ? new ReadRoute(target, -1, false) : new ReadRoute(target, source, true);
    }

    /**
     * Begins a write of {@code key}; marks it touched while not DONE.
     *
     * @param needsOldValue the operation reads the current value (append, prepend, incr, decr, touch)
     */
    public synchronized WriteRoute beginWrite(K key, boolean needsOldValue) {
        if (state == State.DONE) {
            return new WriteRoute(target, -1, false);
        }
        boolean copyFirst = needsOldValue && !touched.contains(key);
        touched.add(key);
        return new WriteRoute(target, source, copyFirst);
    }

    /** Begins a delete of {@code key}: delete at the target, then at the source; marks it touched. */
    public synchronized WriteRoute beginDelete(K key) {
        if (state == State.DONE) {
            return new WriteRoute(target, -1, false);
        }
        touched.add(key);
        return new WriteRoute(target, source, false);
    }

    /** True if a value read at the source may still be copied to the target: not DONE and the key not touched. */
    public synchronized boolean mayCopyForward(K key) {
        return state != State.DONE && !touched.contains(key);
    }

    /**
     * The copier finished.
     *
     * @throws IllegalStateException if not COPYING
     */
    public synchronized void copyFinished() {
        if (state != State.COPYING) {
            throw new IllegalStateException(
                    "copy of virtual bucket " + bucket + " finished in state " + state + " (expected: COPYING)");
        }
        state = drainEpochsLeft == 0 ? State.DONE : State.DRAINING;
        if (state == State.DONE) {
            touched.clear();
        }
    }

    /** An epoch ended; returns the state after it. */
    public synchronized State onEpochEnd() {
        if (state == State.DRAINING && --drainEpochsLeft <= 0) {
            state = State.DONE;
            touched.clear();
        }
        return state;
    }

    /** Keys touched during the migration (for tests and statedump). */
    public synchronized int touchedKeys() {
        return touched.size();
    }
}
