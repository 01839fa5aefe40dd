package io.locus.cassandra;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import com.datastax.oss.driver.api.core.CqlSession;
import com.datastax.oss.driver.api.core.cql.PreparedStatement;
import com.datastax.oss.driver.api.core.cql.ResultSet;
import com.datastax.oss.driver.api.core.cql.Row;
import com.datastax.oss.driver.api.core.cql.SimpleStatement;
import com.datastax.oss.driver.api.core.metadata.Node;
import com.datastax.oss.driver.api.core.servererrors.ReadFailureException;
import com.datastax.oss.driver.api.core.servererrors.ReadTimeoutException;
import io.locus.cassandra.balance.DropPlanner;
import io.locus.cassandra.cli.DropCommand;
import io.locus.cassandra.cli.MoveExecutorAccess;
import io.locus.cassandra.drop.PathEncoder;
import io.locus.cassandra.drop.TokenMath;
import io.locus.cassandra.fixture.CassandraCluster;
import io.locus.cassandra.fixture.CassandraNode;
import io.locus.cassandra.fixture.ForkedCassandraNode;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;

/**
 * {@code locus-drop rebalance --execute} on a real 2-node DROP cluster (forked nodes, one token each, RF 1) whose ring
 * holds about 1/4 and 3/4 of the keys: the moves must be applied through JMX, the nodes must end with the new tokens,
 * every row must still be readable with its value, and the ring must be better balanced. Then a move that Cassandra
 * refuses (to a token another node owns) must fail with the node, the token and Cassandra's message. A 2-node cluster
 * takes 1.5-3 min on a 2-core host, so this runs only with {@code -Dlocus.drop.clusterIT=true}
 * ({@code ./locus bench drop-cluster}).
 */
class DropRebalanceExecuteIT {
    @Test
    void rebalanceExecute_skewedTwoNodeRing_movesTokens_keepsEveryRow_andBalances() throws InterruptedException {
        assumeTrue(Boolean.getBoolean("locus.drop.clusterIT"), "set -Dlocus.drop.clusterIT=true to run");
        List<String> paths = TestNamespace.everyNth(5);
        List<byte[]> keyTokens = new ArrayList<>();
        paths.forEach(p -> keyTokens.add(PathEncoder.encode(p.getBytes(StandardCharsets.UTF_8))));
        // Quarter cuts of these very keys: node 1 at the first (about 1/4 of the keys), node 2 at the last (3/4).
        List<byte[]> quarters = DropPlanner.plan(keyTokens, 4, 1, 0.02).tokensPerNode().stream()
                .map(t -> t.get(0))
                .sorted(TokenMath::compare)
                .toList();
        List<String> initial = List.of(TokenMath.toHex(quarters.get(0)), TokenMath.toHex(quarters.get(3)));
        CassandraNode.Options template = CassandraNode.Options.defaults()
                .withPartitioner(DropPartitioner.class.getName())
                .withNumTokens(1);
        try (CassandraCluster cluster =
                CassandraCluster.start(Path.of("target", "drop-execute-cluster"), 2, template, initial)) {
            try (CqlSession s = DropSessions.open(cluster.node(0).contactPoint())) {
                s.execute("CREATE KEYSPACE fs WITH replication = {'class': 'SimpleStrategy', 'replication_factor': 1}");
                s.execute("CREATE TABLE fs.inodes (path text PRIMARY KEY, depth int)");
                long t0 = System.nanoTime();
                NamespaceLoader.load(s, "fs.inodes", paths);
                System.err.printf(
                        "rebalance --execute: loaded %d paths in %d ms%n",
                        paths.size(), (System.nanoTime() - t0) / 1_000_000);
            }
            List<String> args = new ArrayList<>(List.of(
                    "rebalance",
                    "--contact",
                    hostPort(cluster.node(0)),
                    "--keyspace",
                    "fs",
                    "--table",
                    "inodes",
                    "--execute",
                    "--json"));
            for (ForkedCassandraNode n : cluster.nodes()) {
                args.add("--jmx");
                args.add(n.address() + "=" + n.jmxEndpoint().getHostString() + ":"
                        + n.jmxEndpoint().getPort());
            }
            long t0 = System.nanoTime();
            String json = runCli(0, args);
            System.err.printf("rebalance --execute took %d ms: %s%n", (System.nanoTime() - t0) / 1_000_000, json);

            assertTrue(json.contains("\"keys\":" + paths.size() + ","), json);
            assertTrue(json.contains("\"executed\":true"), json);
            Matcher balance = Pattern.compile("\"maxOverMean\":([0-9.]+)").matcher(json);
            assertTrue(balance.find(), json);
            double before = Double.parseDouble(balance.group(1));
            assertTrue(balance.find(), "no balance after the moves: " + json);
            double after = Double.parseDouble(balance.group(1));
            int afterAt = json.indexOf("\"after\":");
            assertTrue(
                    afterAt > 0 && json.indexOf("\"keys\":" + paths.size() + ",", afterAt) > 0,
                    "the ring re-read after the moves must hold every key: " + json);
            Map<String, String> moved = new HashMap<>();
            Matcher m = Pattern.compile("\"node\":\"([0-9.]+)\",\"from\":\"([0-9a-f]+)\",\"to\":\"([0-9a-f]+)\"")
                    .matcher(json);
            while (m.find()) {
                moved.put(m.group(1), m.group(3));
            }
            System.err.printf("rebalance --execute: %d move(s), max/mean %.3f -> %.3f%n", moved.size(), before, after);
            assertTrue(before > 1.4, "the ring was skewed on purpose: max/mean " + before);
            assertTrue(!moved.isEmpty() && after < before && after <= 1.15, "max/mean " + before + " -> " + after);

            try (CqlSession s = DropSessions.open(cluster.node(0).contactPoint())) {
                // Each moved node reports its new token itself (system.local), and the other node agrees (peers_v2).
                for (Node n : s.getMetadata().getNodes().values()) {
                    String addr = n.getBroadcastRpcAddress()
                            .orElseThrow()
                            .getAddress()
                            .getHostAddress();
                    Set<String> local = s.execute(SimpleStatement.newInstance("SELECT tokens FROM system.local")
                                    .setNode(n))
                            .one()
                            .getSet(0, String.class);
                    if (moved.containsKey(addr)) {
                        assertEquals(Set.of(moved.get(addr)), local, "tokens of " + addr);
                    }
                    for (Row r :
                            s.execute(SimpleStatement.newInstance("SELECT native_address, tokens FROM system.peers_v2")
                                    .setNode(n))) {
                        String peer = r.getInetAddress(0).getHostAddress();
                        if (moved.containsKey(peer)) {
                            assertEquals(
                                    Set.of(moved.get(peer)), r.getSet(1, String.class), addr + "'s view of " + peer);
                        }
                    }
                }
                // Every row, with its value, through a full scan (routed per range to the new owners) ...
                Map<String, Integer> rows = new HashMap<>();
                for (Row r : scanAll(
                        s,
                        SimpleStatement.newInstance("SELECT path, depth FROM fs.inodes")
                                .setPageSize(1000))) {
                    rows.put(r.getString(0), r.getInt(1));
                }
                assertEquals(paths.size(), rows.size(), "rows after the moves");
                for (String p : paths) {
                    assertEquals(depth(p), rows.get(p), p);
                }
                // ... and point reads at CL ONE, which only the token's owner can answer with RF 1.
                PreparedStatement get = s.prepare("SELECT depth FROM fs.inodes WHERE path = ?");
                Random rnd = new Random(42);
                for (int i = 0; i < 300; i++) {
                    String p = paths.get(rnd.nextInt(paths.size()));
                    Row r = s.execute(get.bind(p)).one();
                    assertTrue(r != null, "point read of " + p + " after the moves");
                    assertEquals(depth(p), r.getInt(0), p);
                }
                // A move Cassandra refuses: node 2 to node 1's token.
                String token1 = s.execute(SimpleStatement.newInstance("SELECT tokens FROM system.local")
                                .setNode(node(s, cluster.node(0).address())))
                        .one()
                        .getSet(0, String.class)
                        .iterator()
                        .next();
                String token2 = s.execute(SimpleStatement.newInstance("SELECT tokens FROM system.local")
                                .setNode(node(s, cluster.node(1).address())))
                        .one()
                        .getSet(0, String.class)
                        .iterator()
                        .next();
                String err = refusedMove(cluster.node(1), token2, token1);
                System.err.println("rebalance --execute: a refused move reports: " + err);
                assertTrue(
                        err.contains("move of node 127.0.0.2 from " + token2 + " to " + token1 + " failed: ")
                                && err.contains("already owned by another node")
                                && err.contains("the node is now NORMAL with token(s) [" + token2 + "]"),
                        err);
            }
        }
    }

    /** Drives the executor directly: the planner never proposes a taken token, so the CLI cannot be made to. */
    private static String refusedMove(ForkedCassandraNode node, String from, String to) {
        return MoveExecutorAccess.failureOf(
                node.address(),
                node.jmxEndpoint().getHostString(),
                node.jmxEndpoint().getPort(),
                from,
                to);
    }

    /**
     * Every row of a paged query, retrying a page that fails: on a loaded 2-core host a replica's JVM can pause for
     * tens of seconds (seen: 54 s) and then answers a range read with a timeout failure; the retry continues from the
     * same paging state, so no row is read twice or skipped.
     */
    private static List<Row> scanAll(CqlSession s, SimpleStatement st) {
        List<Row> out = new ArrayList<>();
        ByteBuffer state = null;
        do {
            ResultSet rs = null;
            for (int attempt = 1; rs == null; attempt++) {
                try {
                    rs = s.execute(st.setPagingState(state));
                } catch (ReadFailureException | ReadTimeoutException e) {
                    System.err.println("scan: page failed (attempt " + attempt + "): " + e.getMessage()
                            + (e instanceof ReadFailureException f ? " reasons " + f.getReasonMap() : ""));
                    if (attempt == 5) {
                        throw e;
                    }
                }
            }
            for (int i = rs.getAvailableWithoutFetching(); i > 0; i--) {
                out.add(rs.one());
            }
            state = rs.getExecutionInfo().getPagingState();
        } while (state != null);
        return out;
    }

    private static Node node(CqlSession s, String address) {
        return s.getMetadata().getNodes().values().stream()
                .filter(n -> n.getBroadcastRpcAddress()
                        .orElseThrow()
                        .getAddress()
                        .getHostAddress()
                        .equals(address))
                .findFirst()
                .orElseThrow();
    }

    private static int depth(String p) {
        return (int) p.chars().filter(c -> c == '/').count();
    }

    private static String hostPort(ForkedCassandraNode n) {
        return n.contactPoint().getHostString() + ":" + n.contactPoint().getPort();
    }

    private static String runCli(int expectedExit, List<String> args) {
        ByteArrayOutputStream buf = new ByteArrayOutputStream();
        PrintStream out = System.out;
        System.setOut(new PrintStream(buf, true, StandardCharsets.UTF_8));
        int exit;
        try {
            exit = DropCommand.run(args.toArray(String[]::new));
        } finally {
            System.setOut(out);
        }
        String text = buf.toString(StandardCharsets.UTF_8);
        assertEquals(expectedExit, exit, String.join(" ", args) + "\n" + text);
        return text;
    }
}
