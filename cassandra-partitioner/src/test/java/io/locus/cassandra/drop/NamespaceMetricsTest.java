package io.locus.cassandra.drop;

import org.junit.jupiter.api.Test;

import static org.junit.jupiter.api.Assertions.assertEquals;

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
        assertEquals(2, d1.directories());          // /a spans {0,1}, /b spans {2}
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
}
