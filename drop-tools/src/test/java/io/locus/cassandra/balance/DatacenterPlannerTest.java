package io.locus.cassandra.balance;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.locus.cassandra.TestNamespace;
import io.locus.cassandra.drop.PathEncoder;
import io.locus.cassandra.drop.TokenMath;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.junit.jupiter.api.Test;

class DatacenterPlannerTest {
    private static List<byte[]> tokens(List<String> keys) {
        List<byte[]> out = new ArrayList<>();
        keys.forEach(k -> out.add(PathEncoder.encode(k.getBytes(StandardCharsets.UTF_8))));
        return out;
    }

    @Test
    void twoDatacentersOfOneSize_eachBalanced_tokensUniqueAcrossThem_locality_kept() {
        List<String> paths = TestNamespace.paths().subList(0, 30_000);
        List<byte[]> keys = tokens(paths);
        Map<String, Integer> dcs = new LinkedHashMap<>();
        dcs.put("dc1", 4);
        dcs.put("dc2", 4);
        dcs.put("dc3", 3);
        Map<String, DropPlanner.Plan> plans = DatacenterPlanner.plan(keys, dcs, 1, 0.02, null);
        Set<String> all = new HashSet<>();
        for (Map.Entry<String, DropPlanner.Plan> e : plans.entrySet()) {
            DropPlanner.Plan p = e.getValue();
            assertEquals(dcs.get(e.getKey()), p.tokensPerNode().size());
            p.tokensPerNode().forEach(t -> t.forEach(x -> assertTrue(all.add(TokenMath.toHex(x)), e.getKey())));
            NamespaceMetrics m = new NamespaceMetrics(p.tokensPerNode().size());
            long[] load = new long[p.tokensPerNode().size()];
            for (int i = 0; i < paths.size(); i++) {
                int owner = p.ring().ownerOf(keys.get(i));
                m.add(paths.get(i), owner);
                load[owner]++;
            }
            // The shifted ring puts every sampled key on the same node as the unshifted plan predicted.
            long[] predicted = p.predictedLoad();
            for (int n = 0; n < load.length; n++) {
                double reserved =
                        Math.round(p.reservedOwners()[n] * p.reservedShare() * paths.size() / (1 - p.reservedShare()));
                assertEquals(predicted[n], load[n] + reserved, 1.0, e.getKey() + " node " + n);
            }
            assertTrue(NamespaceMetrics.balanceOf(predicted).maxOverMean() <= 1.05, e.getKey());
            assertTrue(m.subtreeLocalityAtLeast(2).singleNodeFraction() >= 0.95, e.getKey());
        }
        assertEquals(11, all.size());
    }

    @Test
    void aDatacenterWithoutNodes_isRejected() {
        IllegalArgumentException e = assertThrows(
                IllegalArgumentException.class,
                () -> DatacenterPlanner.plan(
                        tokens(TestNamespace.paths().subList(0, 100)), Map.of("dc1", 0), 1, 0.02, null));
        assertEquals("data center dc1 has 0 nodes (expected: >= 1)", e.getMessage());
    }
}
