package io.locus.cassandra.balance;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.locus.cassandra.TestNamespace;
import io.locus.cassandra.drop.PathEncoder;
import io.locus.cassandra.drop.Ring;
import io.locus.cassandra.drop.TokenMath;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

class NeighborAdjustTest {
    @Test
    void plan_unevenFourNodeRing_movesBoundariesUntilBalanced_andConservesKeys() {
        List<byte[]> tokens = new ArrayList<>();
        for (String p : TestNamespace.paths()) {
            tokens.add(PathEncoder.encode(p.getBytes(StandardCharsets.UTF_8)));
        }
        tokens.sort(TokenMath::compare);
        // Ranges of 10 %, 20 %, 30 % and 40 % of the keys: node "d" is heavy (ratio 1.6 to the mean).
        int n = tokens.size();
        int[] cuts = {n / 10, 3 * n / 10, 6 * n / 10, n};
        List<NeighborAdjust.NodeRange> ring = new ArrayList<>();
        int from = 0;
        for (int i = 0; i < 4; i++) {
            List<byte[]> part = tokens.subList(from, cuts[i]);
            byte[] end = i == 3
                    ? TokenMath.maximum()
                    : BoundarySnapper.shallowBoundary(tokens.get(cuts[i] - 1), tokens.get(cuts[i]));
            ring.add(new NeighborAdjust.NodeRange(
                    String.valueOf((char) ('a' + i)), end, KeyRangeHistogram.ofSorted(part, 1)));
            from = cuts[i];
        }
        List<NeighborAdjust.Move> moves = NeighborAdjust.plan(ring, 1.10, 0.02, 20);
        assertFalse(moves.isEmpty());
        // Replay the moves on a ring model and check the final balance.
        List<byte[]> ringTokens = new ArrayList<>();
        List<String> owners = new ArrayList<>();
        ring.forEach(r -> {
            ringTokens.add(r.token());
            owners.add(r.node());
        });
        for (NeighborAdjust.Move m : moves) {
            int idx = owners.indexOf(m.node());
            assertEquals(TokenMath.toHex(ringTokens.get(idx)), TokenMath.toHex(m.oldToken()), "move " + m);
            ringTokens.set(idx, m.newToken());
        }
        Ring model = new Ring(ringTokens, List.of(0, 1, 2, 3));
        long[] load = new long[4];
        tokens.forEach(t -> load[model.ownerOf(t)]++);
        assertEquals(n, java.util.Arrays.stream(load).sum());
        double maxOverMean = NamespaceMetrics.balanceOf(load).maxOverMean();
        assertTrue(maxOverMean <= 1.10 + 1e-9, "max/mean after " + moves.size() + " moves: " + maxOverMean);
    }
}
