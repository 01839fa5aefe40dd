package io.locus.cassandra.drop;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.locus.cassandra.TestNamespace;
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
        NamespaceMetrics.Balance b = m.balance();
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
        assertEquals("key sample of 1 keys for 2 ranges (expected: at least 4 keys)", e.getMessage());
    }
}
