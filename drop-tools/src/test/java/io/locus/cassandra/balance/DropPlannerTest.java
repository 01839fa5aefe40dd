package io.locus.cassandra.balance;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.locus.cassandra.TestNamespace;
import io.locus.cassandra.drop.PathEncoder;
import io.locus.cassandra.drop.ReservedRegion;
import io.locus.cassandra.drop.TokenMath;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

class DropPlannerTest {
    @Test
    void plan_16Nodes_onRealNamespace_meetsBalanceAndLocalityTargets() {
        List<String> paths = TestNamespace.paths();
        List<byte[]> tokens = new ArrayList<>();
        for (String p : paths) {
            tokens.add(PathEncoder.encode(p.getBytes(StandardCharsets.UTF_8)));
        }
        DropPlanner.Plan plan = DropPlanner.plan(tokens, 16, 1, 0.02);
        NamespaceMetrics m = new NamespaceMetrics(16);
        for (int i = 0; i < paths.size(); i++) {
            m.add(paths.get(i), plan.ring().ownerOf(tokens.get(i)));
        }
        // The balance counts the reserved region's estimated keys (5 % of all by default) where the plan put them.
        NamespaceMetrics.Balance b = NamespaceMetrics.balanceOf(plan.predictedLoad());
        NamespaceMetrics.DepthLocality deep = m.subtreeLocalityAtLeast(2);
        String report = "max/mean " + b.maxOverMean() + ", single-node dirs at depth>=2 " + deep.singleNodeFraction();
        assertTrue(b.maxOverMean() <= 1.05, report);
        assertTrue(deep.singleNodeFraction() >= 0.95, report);
        assertEquals(16, plan.tokensPerNode().size());
        plan.tokensPerNode().forEach(t -> assertEquals(1, t.size()));
    }

    @Test
    void plan_vnodes_givesEachNodeExactlyVTokens() {
        List<byte[]> tokens = new ArrayList<>();
        for (String p : TestNamespace.paths().subList(0, 20_000)) {
            tokens.add(PathEncoder.encode(p.getBytes(StandardCharsets.UTF_8)));
        }
        DropPlanner.Plan plan = DropPlanner.plan(tokens, 4, 16, 0.05);
        plan.tokensPerNode().forEach(t -> assertEquals(16, t.size()));
        assertEquals(64, plan.ring().size());
    }

    @Test
    void plan_tooFewKeys_saysHowManyAreNeeded() {
        IllegalArgumentException e = assertThrows(
                IllegalArgumentException.class,
                () -> DropPlanner.plan(List.of(PathEncoder.encode("/a".getBytes(StandardCharsets.UTF_8))), 2, 1, 0.02));
        assertEquals("key sample of 1 path keys for 2 ranges (expected: at least 4 keys)", e.getMessage());
    }

    private static List<byte[]> encode(List<String> keys) {
        List<byte[]> tokens = new ArrayList<>();
        for (String k : keys) {
            tokens.add(PathEncoder.encode(k.getBytes(StandardCharsets.UTF_8)));
        }
        return tokens;
    }

    @Test
    void plan_pathsOnly_givesTheReservedRegionItsShare_andNothingWrapsToTheFirstNode() {
        List<byte[]> tokens = encode(TestNamespace.paths().subList(0, 40_000));
        for (int nodes : new int[] {3, 16}) {
            DropPlanner.Plan plan = DropPlanner.plan(tokens, nodes, 1, 0.02);
            assertEquals(ReservedRegion.DEFAULT_SHARE, plan.reservedShare());
            assertFalse(plan.reservedShareSampled());
            assertArrayEquals(TokenMath.maximum(), plan.ring().token(plan.ring().size() - 1), "last token");
            assertEquals(0.0, plan.reservedOwners()[0], "node 0 owns none of the reserved region");
            double perNode = 1.0 / nodes;
            for (int n = 0; n < nodes; n++) {
                // A node's part of the reserved region, as a share of all keys, stays within its share of the ring.
                assertTrue(plan.reservedOwners()[n] * plan.reservedShare() <= perNode, "node " + n);
            }
            NamespaceMetrics.Balance b = NamespaceMetrics.balanceOf(plan.predictedLoad());
            assertTrue(b.maxOverMean() <= 1.05, nodes + " nodes: max/mean " + b.maxOverMean());
        }
    }

    @Test
    void plan_largeReservedShare_splitsTheRegionOverSeveralNodes() {
        List<byte[]> tokens = encode(TestNamespace.paths().subList(0, 40_000));
        DropPlanner.Plan plan = DropPlanner.plan(tokens, 4, 4, 0.02, 0.4);
        int owners = 0;
        for (int n = 0; n < 4; n++) {
            double share = plan.reservedOwners()[n];
            owners += share > 0 ? 1 : 0;
            // 40 % of the keys over 4 nodes of 25 % each: no node holds more than its 25 % of all keys in the region.
            assertTrue(share * 0.4 <= 0.25 + 1e-9, "node " + n + " owns " + share);
        }
        assertEquals(4, owners, "with 16 ranges, the region's 6.4 ranges fall on all 4 nodes");
        assertEquals(1.0, java.util.Arrays.stream(plan.reservedOwners()).sum(), 1e-9);
        NamespaceMetrics.Balance b = NamespaceMetrics.balanceOf(plan.predictedLoad());
        assertTrue(b.maxOverMean() <= 1.05, "max/mean " + b.maxOverMean());
    }

    @Test
    void plan_sampleWithNonPathKeys_takesTheShareFromTheSample() {
        List<String> keys = new ArrayList<>(TestNamespace.paths().subList(0, 9_000));
        for (int i = 0; i < 1_000; i++) {
            keys.add(java.util
                    .UUID
                    .nameUUIDFromBytes(new byte[] {(byte) i, (byte) (i >> 8)})
                    .toString());
        }
        DropPlanner.Plan plan = DropPlanner.plan(encode(keys), 4, 1, 0.02);
        assertTrue(plan.reservedShareSampled());
        assertEquals(0.1, plan.reservedShare(), 1e-12);
        assertEquals(0.0, plan.reservedOwners()[0]);
        // Explicit share overrides the sample.
        assertEquals(0.2, DropPlanner.plan(encode(keys), 4, 1, 0.02, 0.2).reservedShare());
        assertFalse(DropPlanner.plan(encode(keys), 4, 1, 0.02, 0.2).reservedShareSampled());
    }

    @Test
    void plan_badReservedShare_isRejectedWithTheValue() {
        List<byte[]> tokens = encode(TestNamespace.paths().subList(0, 100));
        IllegalArgumentException e =
                assertThrows(IllegalArgumentException.class, () -> DropPlanner.plan(tokens, 2, 1, 0.02, 1.0));
        assertEquals("reservedShare 1.0 (expected: within [0, 1))", e.getMessage());
    }
}
