package io.locus.cassandra.balance;

import static org.junit.jupiter.api.Assertions.assertEquals;

import io.locus.cassandra.TestNamespace;
import io.locus.cassandra.drop.PathNames;
import java.util.ArrayList;
import java.util.BitSet;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import org.junit.jupiter.api.Test;

class NamespaceMetricsTest {
    @Test
    void locality_countsNodesPerSubtree_andBalanceIsMaxOverMeanAndMin() {
        NamespaceMetrics m = new NamespaceMetrics(3);
        m.add("/a/x/1", 0);
        m.add("/a/x/2", 0);
        m.add("/a/y/1", 1);
        m.add("/b/z/1", 2);
        m.add("not-a-path", 2);
        NamespaceMetrics.DepthLocality d1 = m.subtreeLocality(1);
        assertEquals(2, d1.directories()); // /a spans {0,1}, /b spans {2}
        assertEquals(1.5, d1.meanNodes(), 1e-9);
        assertEquals(2, d1.maxNodes());
        assertEquals(0.5, d1.singleNodeFraction(), 1e-9);
        assertEquals(50.0, d1.extraNodesPercent(), 1e-9);
        NamespaceMetrics.DepthLocality d2 = m.subtreeLocality(2);
        assertEquals(3, d2.directories());
        assertEquals(1.0, d2.singleNodeFraction(), 1e-9);
        NamespaceMetrics.Balance b = m.balance();
        assertEquals(2, b.max());
        assertEquals(1, b.min());
        assertEquals(2 / (5 / 3.0), b.maxOverMean(), 1e-9);
        assertEquals(2.0, b.maxOverMin(), 1e-9);
    }

    @Test
    void metrics_equalANaiveReference_onTheRealNamespace_andOddKeys_for130Nodes() {
        List<String> keys = new ArrayList<>(TestNamespace.paths());
        keys.addAll(
                List.of("/", "//", "/usr//bin/./ls/", "/usr/../etc", "relative/x", "/.hidden/x", "/a/./b", "/a/b/"));
        for (int nodes : new int[] {130}) {
            Random random = new Random(nodes);
            NamespaceMetrics fast = new NamespaceMetrics(nodes);
            NaiveMetrics naive = new NaiveMetrics();
            for (String k : keys) {
                // Mostly by parent directory, so that many sets hold a single node; else random.
                int node = random.nextInt(4) == 0
                        ? random.nextInt(nodes)
                        : Math.floorMod(parentOf(k).hashCode(), nodes);
                fast.add(k, node);
                naive.add(k, node);
            }
            for (int d = 1; d <= 4; d++) {
                assertEquals(
                        naive.summary(naive.subtree, d, d),
                        fast.subtreeLocality(d),
                        "depth " + d + ", " + nodes + " nodes");
            }
            assertEquals(
                    naive.summary(naive.subtree, 2, Integer.MAX_VALUE),
                    fast.subtreeLocalityAtLeast(2),
                    nodes + " nodes");
            assertEquals(
                    naive.summary(naive.listing, Integer.MIN_VALUE, Integer.MAX_VALUE)
                            .directories(),
                    fast.listingLocality().directories());
            assertEquals(
                    naive.summary(naive.listing, Integer.MIN_VALUE, Integer.MAX_VALUE)
                            .meanNodes(),
                    fast.listingLocality().meanNodes(),
                    1e-12);
        }
    }

    private static String parentOf(String k) {
        int i = k.lastIndexOf('/');
        return i <= 0 ? "/" : k.substring(0, i);
    }

    /** The metrics written the obvious way: every ancestor's path as a map key with a BitSet of nodes. */
    private static final class NaiveMetrics {
        final Map<String, BitSet> subtree = new HashMap<>();
        final Map<String, BitSet> listing = new HashMap<>();
        final Map<String, Integer> depthOf = new HashMap<>();

        void add(String path, int node) {
            List<String> c = PathNames.components(path);
            if (c == null || c.isEmpty()) {
                return;
            }
            for (int d = 1; d < c.size(); d++) {
                String dir = PathNames.prefix(c, d);
                subtree.computeIfAbsent(dir, x -> new BitSet()).set(node);
                depthOf.put(dir, d);
            }
            String parent = PathNames.prefix(c, c.size() - 1);
            listing.computeIfAbsent(parent, x -> new BitSet()).set(node);
            depthOf.put(parent, c.size() - 1);
        }

        NamespaceMetrics.DepthLocality summary(Map<String, BitSet> sets, int minDepth, int maxDepth) {
            int[] s = sets.entrySet().stream()
                    .filter(e -> depthOf.get(e.getKey()) >= minDepth && depthOf.get(e.getKey()) <= maxDepth)
                    .mapToInt(e -> e.getValue().cardinality())
                    .sorted()
                    .toArray();
            double mean = java.util.Arrays.stream(s).average().orElse(0);
            long single = java.util.Arrays.stream(s).filter(x -> x == 1).count();
            return new NamespaceMetrics.DepthLocality(
                    minDepth, s.length, mean, s[s.length / 2], s[s.length - 1], (double) single / s.length);
        }
    }
}
