package io.locus.cassandra.balance;

import io.locus.cassandra.drop.Murmur3Hash;
import io.locus.cassandra.drop.PathNames;
import io.locus.cassandra.drop.Ring;
import java.math.BigInteger;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * The placements DROP is compared with (DESIGN.md, "Baselines"), each mapping every key to a node index. Pure and
 * deterministic.
 *
 * <p>Hash rings ({@link #fileHash}, {@link #dirHash}) use nodes × vnodes evenly spaced 64-bit tokens, owners in
 * round-robin order: the best case of Cassandra's token allocation.
 */
public final class Baselines {
    private Baselines() {}

    /** FileHash = Murmur3Partitioner: the 64-bit murmur3 (h1, seed 0) of the whole key on a hash ring. */
    public static int[] fileHash(List<String> keys, int nodes, int vnodes) {
        int[] owner = new int[keys.size()];
        for (int i = 0; i < keys.size(); i++) {
            owner[i] = hashRingOwner(hash64(keys.get(i)), nodes, vnodes);
        }
        return owner;
    }

    /** DirHash: the hash of the parent directory, so one directory's entries share a node. */
    public static int[] dirHash(List<String> keys, int nodes, int vnodes) {
        int[] owner = new int[keys.size()];
        for (int i = 0; i < keys.size(); i++) {
            List<String> c = PathNames.components(keys.get(i));
            String parent = c == null ? keys.get(i) : PathNames.prefix(c, Math.max(0, c.size() - 1));
            owner[i] = hashRingOwner(hash64(parent), nodes, vnodes);
        }
        return owner;
    }

    /**
     * Static subtree partitioning: every depth-1 subtree goes whole to one node, by greedy largest-first bin packing
     * (the biggest subtree to the least loaded node). The root and non-path keys go to node 0.
     */
    public static int[] staticSubtree(List<String> keys, int nodes) {
        Map<String, Integer> size = new HashMap<>();
        String[] top = new String[keys.size()];
        for (int i = 0; i < keys.size(); i++) {
            List<String> c = PathNames.components(keys.get(i));
            top[i] = c == null || c.isEmpty() ? null : c.get(0);
            if (top[i] != null) {
                size.merge(top[i], 1, Integer::sum);
            }
        }
        List<String> subtrees = new ArrayList<>(size.keySet());
        subtrees.sort(Comparator.comparing((String s) -> -size.get(s)).thenComparing(Comparator.naturalOrder()));
        long[] load = new long[nodes];
        Map<String, Integer> bin = new HashMap<>();
        for (String s : subtrees) {
            int least = 0;
            for (int n = 1; n < nodes; n++) {
                if (load[n] < load[least]) {
                    least = n;
                }
            }
            bin.put(s, least);
            load[least] += size.get(s);
        }
        int[] owner = new int[keys.size()];
        for (int i = 0; i < keys.size(); i++) {
            owner[i] = top[i] == null ? 0 : bin.get(top[i]);
        }
        return owner;
    }

    /**
     * ByteOrderedPartitioner with hand-picked tokens: keys in byte order, nodes × vnodes ranges cut at the key
     * quantiles (the best an operator can do with BOP given the same key sample), owners round-robin.
     */
    public static int[] byteOrdered(List<String> keys, int nodes, int vnodes) {
        int ranges = nodes * vnodes;
        Integer[] order = new Integer[keys.size()];
        byte[][] raw = new byte[keys.size()][];
        for (int i = 0; i < keys.size(); i++) {
            order[i] = i;
            raw[i] = keys.get(i).getBytes(StandardCharsets.UTF_8);
        }
        Arrays.sort(order, (a, b) -> Arrays.compareUnsigned(raw[a], raw[b]));
        int[] owner = new int[keys.size()];
        for (int rank = 0; rank < order.length; rank++) {
            int range = (int) ((long) rank * ranges / order.length);
            owner[order[rank]] = range % nodes;
        }
        return owner;
    }

    /** DROP with a planned ring ({@link DropPlanner}). */
    public static int[] drop(List<String> keys, List<byte[]> tokens, Ring ring) {
        int[] owner = new int[keys.size()];
        for (int i = 0; i < keys.size(); i++) {
            owner[i] = ring.ownerOf(tokens.get(i));
        }
        return owner;
    }

    static long hash64(String key) {
        byte[] b = key.getBytes(StandardCharsets.UTF_8);
        return Murmur3Hash.hash128First(b, 0, b.length, 0);
    }

    /** Owner of a signed 64-bit token on a ring of nodes × vnodes evenly spaced tokens, owners round-robin. */
    static int hashRingOwner(long token, int nodes, int vnodes) {
        int ranges = nodes * vnodes;
        BigInteger offset = BigInteger.valueOf(token).subtract(BigInteger.valueOf(Long.MIN_VALUE));
        int range = offset.multiply(BigInteger.valueOf(ranges)).shiftRight(64).intValue();
        return range % nodes;
    }
}
