package io.locus.cassandra.balance;

import io.locus.cassandra.drop.Ring;
import io.locus.cassandra.drop.TokenMath;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * Plans one ring per data center. NetworkTopologyStrategy places each data center's replicas by walking the ring and
 * taking that data center's nodes only, so each data center must be balanced on its own: every data center gets a
 * full {@link DropPlanner} ring of its node count over the same key sample.
 *
 * <p>Cassandra needs every token to be unique across the whole cluster, and two data centers of the same size would
 * get the same cuts. Data center {@code d} (0-based, in the given order) therefore takes each of its tokens minus
 * {@code d}. A cut is the largest token below a subtree, whose level fields after the cut are 0xFFFF; no path key has
 * a level code 0xFFFF, so lowering the last bytes by less than 2^32 moves the cut past no key (only a cut between two
 * names of one directory, deeper than 20 levels or in a collision, has no such field and may move by a key). Pure.
 */
public final class DatacenterPlanner {
    private DatacenterPlanner() {}

    /**
     * One plan per data center, in the order of {@code nodesPerDatacenter}.
     *
     * @throws IllegalArgumentException if a data center has fewer than one node, or (never seen) two tokens collide
     */
    public static Map<String, DropPlanner.Plan> plan(
            List<byte[]> keyTokens,
            Map<String, Integer> nodesPerDatacenter,
            int vnodesPerNode,
            double snapTolerance,
            Double reservedShare) {
        Map<String, DropPlanner.Plan> out = new LinkedHashMap<>();
        Set<String> seen = new HashSet<>();
        int d = 0;
        for (Map.Entry<String, Integer> dc : nodesPerDatacenter.entrySet()) {
            if (dc.getValue() < 1) {
                throw new IllegalArgumentException(
                        "data center " + dc.getKey() + " has " + dc.getValue() + " nodes (expected: >= 1)");
            }
            DropPlanner.Plan p =
                    DropPlanner.plan(keyTokens, dc.getValue(), vnodesPerNode, snapTolerance, reservedShare);
            DropPlanner.Plan shifted = shift(p, d);
            for (List<byte[]> node : shifted.tokensPerNode()) {
                for (byte[] t : node) {
                    if (!seen.add(TokenMath.toHex(t))) {
                        throw new IllegalArgumentException("token " + TokenMath.toHex(t) + " of data center "
                                + dc.getKey() + " is already used by another data center (expected: unique tokens)");
                    }
                }
            }
            out.put(dc.getKey(), shifted);
            d++;
        }
        return out;
    }

    private static DropPlanner.Plan shift(DropPlanner.Plan p, int by) {
        if (by == 0) {
            return p;
        }
        List<List<byte[]>> perNode = new ArrayList<>();
        List<byte[]> tokens = new ArrayList<>();
        List<Integer> owners = new ArrayList<>();
        for (int n = 0; n < p.tokensPerNode().size(); n++) {
            List<byte[]> mine = new ArrayList<>();
            for (byte[] t : p.tokensPerNode().get(n)) {
                byte[] s = t;
                for (int i = 0; i < by; i++) {
                    s = TokenMath.decrement(s);
                }
                mine.add(s);
                tokens.add(s);
                owners.add(n);
            }
            perNode.add(mine);
        }
        return new DropPlanner.Plan(
                perNode,
                new Ring(tokens, owners),
                p.predictedLoad(),
                p.cutLevels(),
                p.reservedShare(),
                p.reservedShareSampled(),
                p.reservedOwners());
    }
}
