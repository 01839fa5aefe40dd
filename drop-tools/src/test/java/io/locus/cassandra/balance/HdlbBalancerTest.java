package io.locus.cassandra.balance;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.locus.cassandra.TestNamespace;
import io.locus.cassandra.drop.PathEncoder;
import io.locus.cassandra.drop.TokenLayout;
import io.locus.cassandra.drop.TokenMath;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;

class HdlbBalancerTest {
    private static final int A = 0;
    private static final int B = 1;
    private static final int C = 2;
    private static final int D = 3;

    /** Table 6.1 of the thesis (§6.4.1): A {3,2,7,12}, B {15,6,2}, C {1}, D {}. */
    private static List<Vnode> table61() {
        List<Vnode> v = new ArrayList<>();
        int id = 0;
        for (long w : new long[] {3, 2, 7, 12}) {
            v.add(Vnode.of("a" + id++, A, w));
        }
        for (long w : new long[] {15, 6, 2}) {
            v.add(Vnode.of("b" + id++, B, w));
        }
        v.add(Vnode.of("c" + id, C, 1));
        return v;
    }

    private static long[] loads(List<Vnode> vnodes, int nodes) {
        long[] l = new long[nodes];
        vnodes.forEach(v -> l[v.node()] += v.weight());
        return l;
    }

    @Test
    void shedSelection_reproducesTable61RemovedColumn() {
        List<Vnode> v = table61();
        ShedSelection.Result a =
                ShedSelection.select(v.stream().filter(x -> x.node() == A).toList(), 12);
        ShedSelection.Result b =
                ShedSelection.select(v.stream().filter(x -> x.node() == B).toList(), 12);
        assertEquals(List.of(12L), a.keep().stream().map(Vnode::weight).toList());
        assertEquals(List.of(7L, 3L, 2L), a.shed().stream().map(Vnode::weight).toList());
        assertEquals(List.of(15L), b.keep().stream().map(Vnode::weight).toList(), "B keeps 15 although 15 > W");
        assertEquals(List.of(6L, 2L), b.shed().stream().map(Vnode::weight).toList());
    }

    @Test
    void round_table61_placesEveryShedVnode_withTotalSlack3() {
        HdlbBalancer hdlb = new HdlbBalancer(HdlbConfig.DEFAULTS.withMaxMovesPerNode(Integer.MAX_VALUE));
        HdlbBalancer.RoundPlan plan = hdlb.round(table61(), 4);
        assertTrue(plan.unplaced().isEmpty(), "unplaced: " + plan.unplaced());
        assertEquals(5, plan.moves().size());
        assertEquals(
                List.of(3L, 2L, 7L, 6L, 2L).stream().mapToLong(Long::longValue).sum(),
                plan.moves().stream().mapToLong(m -> m.vnode().weight()).sum());
        long[] l = loads(plan.vnodes(), 4);
        assertEquals(12, l[A]);
        assertEquals(15, l[B]);
        // W = 48 / 4 = 12; the receivers C (capacity 11) and D (capacity 12) together keep 23 - 20 = 3 unused.
        assertEquals(3, (12 - l[C]) + (12 - l[D]) + 0, "slack of C and D: C=" + l[C] + " D=" + l[D]);
        assertTrue(l[C] <= 12 && l[D] <= 12, "no receiver above W: C=" + l[C] + " D=" + l[D]);
    }

    @Test
    void round_withDefaultMoveLimit_movesAtMostOneVnodePerHeavyNode() {
        HdlbBalancer.RoundPlan plan = new HdlbBalancer(HdlbConfig.DEFAULTS).round(table61(), 4);
        assertEquals(2, plan.moves().size(), plan.moves().toString());
        assertEquals(48, java.util.Arrays.stream(loads(plan.vnodes(), 4)).sum(), "weight is conserved");
    }

    @Test
    void round_vnodeLargerThanEveryCapacity_isSplitAtSnappedMedian_andPlaced() {
        List<byte[]> tokens = new ArrayList<>();
        for (String p : TestNamespace.paths()) {
            if (p.startsWith("/usr/share/")) {
                tokens.add(PathEncoder.encode(p.getBytes(StandardCharsets.UTF_8)));
            }
        }
        tokens.sort(TokenMath::compare);
        KeyRangeHistogram h = KeyRangeHistogram.ofSorted(tokens, 1);
        long w = h.weight();
        // Node 0 keeps "k" (largest first) and must shed "big", which exceeds both free capacities (W - w/4 each).
        List<Vnode> vnodes = List.of(
                Vnode.of("k", 0, w), new Vnode("big", 0, w, h, 0), Vnode.of("x", 1, w / 4), Vnode.of("y", 2, w / 4));
        HdlbBalancer.RoundPlan plan = new HdlbBalancer(HdlbConfig.DEFAULTS.withMaxMovesPerNode(10)).round(vnodes, 3);
        assertTrue(plan.splits().size() >= 1, "big vnode must be split");
        HdlbBalancer.Split s = plan.splits().get(0);
        assertEquals(w, s.left().weight() + s.right().weight(), "split conserves keys");
        assertTrue(
                Math.abs(s.left().weight() - w / 2.0) <= 0.1 * w + 1,
                "within ε of the median: " + s.left().weight());
        // Brute force: no cut inside the ±ε window is shallower than the chosen one.
        int chosen = TokenLayout.lcpLevels(
                s.left().histogram().token(s.left().histogram().size() - 1),
                s.right().histogram().token(0));
        int shallowest = Integer.MAX_VALUE;
        for (int i = 0; i + 1 < h.size(); i++) {
            if (Math.abs(h.cumulativeWeight(i) - w / 2) <= (long) (0.1 * w)
                    && TokenMath.compare(h.token(i), h.token(i + 1)) != 0) {
                shallowest = Math.min(shallowest, TokenLayout.lcpLevels(h.token(i), h.token(i + 1)));
            }
        }
        assertEquals(shallowest, chosen, "cut at the shallowest subtree boundary in the window");
        assertTrue(plan.moves().size() >= 1, plan.toString());
        assertEquals(
                2 * w + 2 * (w / 4),
                java.util.Arrays.stream(loads(plan.vnodes(), 3)).sum());
    }

    @Test
    void round_rejectsOwnersOutsideTheCluster() {
        IllegalArgumentException e = assertThrows(
                IllegalArgumentException.class,
                () -> new HdlbBalancer(HdlbConfig.DEFAULTS).round(List.of(Vnode.of("v", 5, 1)), 2));
        assertEquals("vnode v owner 5 (expected: within [0, 2))", e.getMessage());
    }

    @Test
    void knapsack_choosesTheFullestSubset() {
        List<Integer> chosen = MultiStageKnapsack.solve(new long[] {7, 3, 2, 6, 2}, List.of(0, 1, 2, 3, 4), 12, 10_000);
        assertEquals(
                12,
                chosen.stream().mapToLong(i -> new long[] {7, 3, 2, 6, 2}[i]).sum(),
                chosen.stream().map(String::valueOf).collect(Collectors.joining(",")));
    }

    @Test
    void snapper_prefersShallowerCutWithinTolerance() {
        List<byte[]> t = new ArrayList<>();
        for (String p : List.of("/a/x/1", "/a/x/2", "/a/x/3", "/a/y/1", "/b/z/1", "/b/z/2")) {
            t.add(PathEncoder.encode(p.getBytes(StandardCharsets.UTF_8)));
        }
        t.sort(TokenMath::compare);
        KeyRangeHistogram h = KeyRangeHistogram.ofSorted(t, 1);
        BoundarySnapper.Cut cut = BoundarySnapper.snap(h, 3, 2);
        assertNotNull(cut);
        assertEquals(0, cut.lcpLevels(), "the /a | /b boundary cuts no depth-1 subtree");
        assertTrue(TokenMath.compare(h.token(cut.index()), cut.token()) <= 0
                && TokenMath.compare(cut.token(), h.token(cut.index() + 1)) < 0);
    }
}
