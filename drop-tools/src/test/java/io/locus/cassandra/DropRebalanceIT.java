package io.locus.cassandra;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import com.datastax.oss.driver.api.core.CqlSession;
import io.locus.cassandra.balance.DropPlanner;
import io.locus.cassandra.balance.NamespaceMetrics;
import io.locus.cassandra.cli.DropCommand;
import io.locus.cassandra.drop.PathEncoder;
import io.locus.cassandra.drop.Ring;
import io.locus.cassandra.drop.TokenMath;
import io.locus.cassandra.fixture.CassandraCluster;
import io.locus.cassandra.fixture.CassandraNode;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;

/**
 * {@code locus-drop rebalance} against a real 3-node DROP cluster (one token per node) whose tokens hold 1/6, 2/6 and
 * 3/6 of the keys: it must read every key and propose {@code nodetool move}s that balance the ring. Three forked
 * nodes take minutes on a 2-core host, so this runs only with {@code -Dlocus.drop.clusterIT=true}.
 */
class DropRebalanceIT {
    @Test
    void rebalance_skewedThreeNodeRing_proposesMovesThatBalanceIt() throws InterruptedException {
        assumeTrue(Boolean.getBoolean("locus.drop.clusterIT"), "set -Dlocus.drop.clusterIT=true to run");
        List<String> paths = TestNamespace.everyNth(5);
        List<byte[]> keyTokens = new ArrayList<>();
        paths.forEach(p -> keyTokens.add(PathEncoder.encode(p.getBytes(StandardCharsets.UTF_8))));
        List<byte[]> sixths = DropPlanner.plan(keyTokens, 6, 1, 0.02).tokensPerNode().stream()
                .map(t -> t.get(0))
                .sorted(TokenMath::compare)
                .toList();
        List<String> initial =
                List.of(TokenMath.toHex(sixths.get(0)), TokenMath.toHex(sixths.get(2)), TokenMath.toHex(sixths.get(5)));
        CassandraNode.Options template = CassandraNode.Options.defaults()
                .withPartitioner(DropPartitioner.class.getName())
                .withNumTokens(1);
        try (CassandraCluster cluster =
                CassandraCluster.start(Path.of("target", "drop-cluster"), 3, template, initial)) {
            try (CqlSession s = DropSessions.open(cluster.node(0).contactPoint())) {
                s.execute("CREATE KEYSPACE fs WITH replication = {'class': 'SimpleStrategy', 'replication_factor': 1}");
                s.execute("CREATE TABLE fs.inodes (path text PRIMARY KEY, depth int)");
                NamespaceLoader.load(s, "fs.inodes", paths);
            }
            ByteArrayOutputStream buf = new ByteArrayOutputStream();
            PrintStream out = System.out;
            System.setOut(new PrintStream(buf, true, StandardCharsets.UTF_8));
            int exit;
            try {
                exit = DropCommand.run(
                        "rebalance",
                        "--contact",
                        cluster.node(0).contactPoint().getHostString() + ":"
                                + cluster.node(0).contactPoint().getPort(),
                        "--keyspace",
                        "fs",
                        "--table",
                        "inodes",
                        "--json");
            } finally {
                System.setOut(out);
            }
            String json = buf.toString(StandardCharsets.UTF_8);
            System.err.println("rebalance: " + json);
            assertEquals(0, exit, json);
            assertTrue(json.contains("\"keys\":" + paths.size() + ","), json);
            // Replay the proposed moves on the ring and measure the balance they reach.
            Map<String, byte[]> tokenOf = new TreeMap<>();
            for (int i = 0; i < 3; i++) {
                tokenOf.put("127.0.0." + (i + 1), TokenMath.fromHex(initial.get(i)));
            }
            double before = balance(tokenOf, keyTokens);
            Matcher m = Pattern.compile("\"node\":\"([0-9.]+)\",\"from\":\"([0-9a-f]+)\",\"to\":\"([0-9a-f]+)\"")
                    .matcher(json);
            int moves = 0;
            while (m.find()) {
                assertEquals(TokenMath.toHex(tokenOf.get(m.group(1))), m.group(2), "move of " + m.group(1));
                tokenOf.put(m.group(1), TokenMath.fromHex(m.group(3)));
                moves++;
            }
            double after = balance(tokenOf, keyTokens);
            System.err.printf("rebalance: %d moves, max/mean %.3f -> %.3f%n", moves, before, after);
            assertFalse(moves == 0, json);
            assertTrue(after < before && after <= 1.15, "max/mean " + before + " -> " + after);
        }
    }

    private static double balance(Map<String, byte[]> tokenOf, List<byte[]> keys) {
        List<String> nodes = new ArrayList<>(tokenOf.keySet());
        List<byte[]> tokens = new ArrayList<>();
        List<Integer> owners = new ArrayList<>();
        for (int i = 0; i < nodes.size(); i++) {
            tokens.add(tokenOf.get(nodes.get(i)));
            owners.add(i);
        }
        Ring ring = new Ring(tokens, owners);
        long[] load = new long[nodes.size()];
        keys.forEach(k -> load[ring.ownerOf(k)]++);
        return NamespaceMetrics.balanceOf(load).maxOverMean();
    }
}
