package io.locus.memcached.balance;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.function.IntPredicate;

/**
 * Replication for availability: N copies of every key on distinct backends, which copy to read while a backend is
 * down, and what to warm when it returns ({@code replication_factor}, BALANCE.md, "Replication for availability";
 * ClusterOn's proxy-side replication, Cheng's dissertation, ch. 7). A pure planner over a
 * {@link VirtualBucketTable}.
 *
 * <p>Placement: the copies of a key are the owner of its arc's bucket, then the owners of the following arcs
 * clockwise, skipping backends already chosen, until N distinct backends (Cassandra's SimpleStrategy walk; MicroFuge's
 * "key hash plus the next two servers" [MicroFuge §6.1.1]). The first copy is the primary. Because the walk uses bucket
 * owners, a Phase 3 move carries the copies along.
 *
 * <p>Guarantees: {@link #copiesOfArc} returns exactly N distinct backends, primary first, for every arc; reads pick
 * the first copy that is up, so with every backend up they all go to the primary (cache locality); a read fails
 * only if all N copies are down. Thread-safe if the table is (owner snapshots are read once per call).
 */
/*
 * Design note: warming. A backend that returns may be empty (restarted memcached) or may hold values older than
 * writes it missed (network partition). The plan is conservative for both: flush the returning backend first, keep
 * it out of reads for the arcs it holds copies of until each arc is warmed from the first up copy, and send it
 * writes from the moment it is back, so a warmed copy can only be refreshed, not left behind. Copies use add-only
 * sets (ME) so a write that reached the returning backend first is never overwritten by the warm copy.
 */
public final class AvailabilityPlacement {
    private final VirtualBucketTable table;
    private final int copies;

    /**
     * One arc to warm on a returning backend.
     *
     * @param arc the ring arc (hash range {@code (value[arc-1], value[arc]]})
     * @param bucket the arc's virtual bucket
     * @param from the first up copy, to read from
     * @param to the returning backend
     */
    public record WarmTask(int arc, int bucket, int from, int to) {}

    /**
     * The work for a returning backend.
     *
     * @param backend the returning backend
     * @param flushFirst always true: its content may be stale (see the design note)
     * @param tasks arcs to copy, in ring order
     * @param lostArcs arcs for which no other copy is up: nothing to warm from, they start empty
     */
    public record WarmPlan(int backend, boolean flushFirst, List<WarmTask> tasks, List<Integer> lostArcs) {}

    /**
     * @param replicationFactor N, {@code replication_factor}
     * @throws IllegalArgumentException if N is below 1 or above the number of backends
     */
    public AvailabilityPlacement(VirtualBucketTable table, int replicationFactor) {
        if (replicationFactor < 1 || replicationFactor > table.servers()) {
            throw new IllegalArgumentException("replication_factor: " + replicationFactor + " (expected: 1.."
                    + table.servers() + ", the number of backends)");
        }
        this.table = table;
        this.copies = replicationFactor;
    }

    /** The N copies of {@code key}, primary first. */
    public int[] copiesOf(byte[] key) {
        return copiesOfArc(table.arcOf(key));
    }

    /** The N copies for arc {@code arc}, primary first. */
    public int[] copiesOfArc(int arc) {
        int[] owners = table.owners();
        int[] out = new int[copies];
        int found = 0;
        int arcs = table.arcCount();
        for (int step = 0; step < arcs && found < copies; step++) {
            int b = owners[table.bucketOfArc((arc + step) % arcs)];
            boolean seen = false;
            for (int i = 0; i < found; i++) {
                seen |= out[i] == b;
            }
            if (!seen) {
                out[found++] = b;
            }
        }
        if (found < copies) {
            // Only possible when Phase 3 has left some backend owning no bucket at all.
            throw new IllegalStateException("arc " + arc + " has " + found + " distinct owners on the ring (expected: "
                    + copies + ", replication_factor)");
        }
        return out;
    }

    /** The backend to read {@code key} from: the first up copy, or -1 if all copies are down. */
    public int readFrom(byte[] key, IntPredicate up) {
        for (int b : copiesOf(key)) {
            if (up.test(b)) {
                return b;
            }
        }
        return -1;
    }

    /** The copies a write of {@code key} goes to: every up copy, primary first. */
    public int[] writeTo(byte[] key, IntPredicate up) {
        return Arrays.stream(copiesOf(key)).filter(up::test).toArray();
    }

    /**
     * What to warm when {@code backend} returns; {@code up} must not yet include it.
     */
    public WarmPlan warmPlan(int backend, IntPredicate up) {
        List<WarmTask> tasks = new ArrayList<>();
        List<Integer> lost = new ArrayList<>();
        for (int arc = 0; arc < table.arcCount(); arc++) {
            int[] c = copiesOfArc(arc);
            if (!contains(c, backend)) {
                continue;
            }
            int from = -1;
            for (int b : c) {
                if (b != backend && up.test(b)) {
                    from = b;
                    break;
                }
            }
            if (from < 0) {
                lost.add(arc);
            } else {
                tasks.add(new WarmTask(arc, table.bucketOfArc(arc), from, backend));
            }
        }
        return new WarmPlan(backend, true, List.copyOf(tasks), List.copyOf(lost));
    }

    private static boolean contains(int[] values, int v) {
        for (int x : values) {
            if (x == v) {
                return true;
            }
        }
        return false;
    }
}
