package io.locus.cassandra;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.datastax.oss.driver.api.core.CqlSession;
import com.datastax.oss.driver.api.core.cql.PreparedStatement;
import com.datastax.oss.driver.api.core.cql.Row;
import com.datastax.oss.driver.api.core.metadata.TokenMap;
import com.datastax.oss.driver.api.core.servererrors.InvalidQueryException;
import io.locus.cassandra.drop.DirectoryRanges;
import io.locus.cassandra.drop.PathEncoder;
import io.locus.cassandra.drop.PathNames;
import io.locus.cassandra.drop.Ring;
import io.locus.cassandra.drop.TokenMath;
import io.locus.cassandra.fixture.CassandraNode;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.MethodOrderer;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestMethodOrder;

/**
 * A real Cassandra 5.0.9 node running {@code partitioner: io.locus.cassandra.DropPartitioner} with num_tokens 16
 * (random tokens from {@link DropPartitioner#getRandomToken}), holding every other path of the test namespace.
 */
@TestMethodOrder(MethodOrderer.OrderAnnotation.class)
class DropPartitionerIT {
    static final CassandraNode.Options OPTIONS = CassandraNode.Options.defaults()
            .withDirectory(Path.of("target", "drop-node"))
            .withPartitioner(DropPartitioner.class.getName())
            .withNumTokens(16);
    private static final String KS = "drop_it";
    private static final String TABLE = KS + ".inodes";
    private static CassandraNode node;
    private static CqlSession session;
    private static List<String> paths;

    @BeforeAll
    static void startAndLoad() throws InterruptedException {
        node = CassandraNode.start(OPTIONS);
        session = DropSessions.open(node.contactPoint());
        session.execute("CREATE KEYSPACE IF NOT EXISTS " + KS
                + " WITH replication = {'class': 'SimpleStrategy', 'replication_factor': 1}");
        session.execute("CREATE TABLE IF NOT EXISTS " + TABLE + " (path text PRIMARY KEY, depth int)");
        session.execute("CREATE TABLE IF NOT EXISTS " + KS + ".raw (k blob PRIMARY KEY, v int)");
        // Every other path of the namespace: 56,497 keys (>= 50k) keeps the load phase short on a 2-core host.
        paths = TestNamespace.everyNth(2);
        long t0 = System.nanoTime();
        NamespaceLoader.load(session, TABLE, paths);
        System.err.printf("loaded %d paths in %d ms%n", paths.size(), (System.nanoTime() - t0) / 1_000_000);
    }

    @AfterAll
    static void closeSession() {
        if (session != null) {
            session.close();
        }
    }

    private static Set<String> scan(DirectoryRanges.Interval r) {
        PreparedStatement ps =
                session.prepare("SELECT path FROM " + TABLE + " WHERE token(path) >= ? AND token(path) <= ?");
        Set<String> out = new HashSet<>();
        for (Row row : session.execute(
                ps.bind(ByteBuffer.wrap(r.first()), ByteBuffer.wrap(r.last())).setPageSize(5000))) {
            assertTrue(out.add(row.getString(0)), "duplicate row " + row.getString(0));
        }
        return out;
    }

    private static Set<String> expectedListing(String dir) {
        int depth = PathNames.components(dir).size();
        Set<String> s = new HashSet<>();
        for (String p : paths) {
            if (p.startsWith(dir + "/") && PathNames.components(p).size() == depth + 1) {
                s.add(p);
            }
        }
        return s;
    }

    @Test
    @Order(1)
    void node_runsDropWithItsOwnInstance_and16Tokens() {
        assertEquals(DropPartitioner.class.getName(), node.partitioner());
        assertSame(DropPartitioner.instance, node.partitionerInstance());
        assertEquals(16, node.tokens().size());
        Row local = session.execute("SELECT partitioner FROM system.local").one();
        assertEquals(DropPartitioner.class.getName(), local.getString(0));
    }

    @Test
    @Order(2)
    void everyPath_readsBack_andFullScanCountsThemAll() {
        PreparedStatement get = session.prepare("SELECT depth FROM " + TABLE + " WHERE path = ?");
        for (int i = 0; i < paths.size(); i += 97) {
            Row r = session.execute(get.bind(paths.get(i))).one();
            assertTrue(r != null, "missing " + paths.get(i));
        }
        long count = 0;
        for (Row ignored : session.execute(
                session.prepare("SELECT path FROM " + TABLE).bind().setPageSize(5000))) {
            count++;
        }
        assertEquals(paths.size(), count);
    }

    @Test
    @Order(3)
    void tokenFunction_returnsTheEncodersToken() {
        PreparedStatement ps = session.prepare("SELECT token(path) FROM " + TABLE + " WHERE path = ?");
        for (int i = 0; i < paths.size(); i += 1013) {
            ByteBuffer server = session.execute(ps.bind(paths.get(i))).one().getByteBuffer(0);
            byte[] expected = PathEncoder.encode(paths.get(i).getBytes(StandardCharsets.UTF_8));
            assertEquals(TokenMath.toHex(expected), TokenMath.toHex(bytes(server)), paths.get(i));
        }
    }

    @Test
    @Order(4)
    void directoryListing_isOneTokenRangeScan_returningExactlyItsEntries() {
        for (String dir : List.of(
                "/usr/bin", "/etc", "/usr/share/doc/bash", "/usr/lib/x86_64-linux-gnu", "/usr/share/man/man1")) {
            Set<String> expected = expectedListing(dir);
            assertTrue(expected.size() > 3, dir + " has " + expected.size() + " entries");
            assertEquals(expected, scan(DirectoryRanges.listing(dir)), "listing of " + dir);
        }
        Set<String> etcTree = new HashSet<>();
        paths.stream().filter(p -> p.startsWith("/etc/")).forEach(etcTree::add);
        assertEquals(etcTree, scan(DirectoryRanges.subtree("/etc")), "subtree of /etc");
    }

    @Test
    @Order(5)
    void flushAndCompaction_keepEveryRow_andOwnershipFollowsTheKeys() {
        node.flush(KS);
        node.compact(KS);
        assertEquals(1, node.liveSSTableCount(KS, "inodes"));
        assertEquals(expectedListing("/usr/bin"), scan(DirectoryRanges.listing("/usr/bin")));
        Map<String, Float> owns = node.describeOwnership();
        assertEquals(16, owns.size());
        assertEquals(1.0, owns.values().stream().mapToDouble(Float::doubleValue).sum(), 0.001);
        // Key-based ownership: each token's share is close to the share of loaded paths in its range.
        List<byte[]> ring = new ArrayList<>();
        owns.keySet().forEach(t -> ring.add(TokenMath.fromHex(t)));
        List<Integer> owners = new ArrayList<>();
        for (int i = 0; i < ring.size(); i++) {
            owners.add(i);
        }
        Ring r = new Ring(ring, owners);
        Map<String, Integer> perToken = new HashMap<>();
        for (String p : paths) {
            byte[] t = PathEncoder.encode(p.getBytes(StandardCharsets.UTF_8));
            perToken.merge(TokenMath.toHex(r.token(r.rangeOf(t))), 1, Integer::sum);
        }
        for (Map.Entry<String, Float> e : owns.entrySet()) {
            double actual = perToken.getOrDefault(e.getKey(), 0) / (double) paths.size();
            assertEquals(actual, e.getValue(), 0.03, "ownership of token " + e.getKey());
        }
    }

    @Test
    @Order(6)
    void badKeys_getDeterministicTokens_onTheReadAndWritePath() {
        List<String> odd = List.of(
                "/a/./b",
                "/a/../b",
                "//x//y//",
                "relative/key",
                "/ünïcødé/名前",
                "/" + "d/".repeat(25) + "deep",
                "/t/" + "n".repeat(65_530));
        PreparedStatement insert = session.prepare("INSERT INTO " + TABLE + " (path, depth) VALUES (?, -1)");
        PreparedStatement token = session.prepare("SELECT path, token(path) FROM " + TABLE + " WHERE path = ?");
        for (String k : odd) {
            session.execute(insert.bind(k));
            Row row = session.execute(token.bind(k)).one();
            assertEquals(k, row.getString(0));
            assertEquals(
                    TokenMath.toHex(PathEncoder.encode(k.getBytes(StandardCharsets.UTF_8))),
                    TokenMath.toHex(bytes(row.getByteBuffer(1))),
                    "token of " + abbreviate(k));
        }
        byte[] notUtf8 = {'/', 'x', '/', (byte) 0xC3, (byte) 0x28, '/', (byte) 0xFF};
        session.execute("INSERT INTO " + KS + ".raw (k, v) VALUES (?, 1)", ByteBuffer.wrap(notUtf8));
        Row raw = session.execute("SELECT v, token(k) FROM " + KS + ".raw WHERE k = ?", ByteBuffer.wrap(notUtf8))
                .one();
        assertEquals(1, raw.getInt(0));
        assertEquals(TokenMath.toHex(PathEncoder.encode(notUtf8)), TokenMath.toHex(bytes(raw.getByteBuffer(1))));
        // Cassandra itself refuses empty partition keys before the partitioner is asked; the node stays healthy.
        InvalidQueryException empty = assertThrows(
                InvalidQueryException.class, () -> session.execute("INSERT INTO " + KS + ".raw (k, v) VALUES (0x, 2)"));
        assertTrue(empty.getMessage().toLowerCase().contains("empty"), empty.getMessage());
        node.flush(KS);
        assertEquals(
                1,
                session.execute("SELECT v FROM " + KS + ".raw WHERE k = ?", ByteBuffer.wrap(notUtf8))
                        .one()
                        .getInt(0));
    }

    @Test
    @Order(7)
    void driverHelper_givesANonEmptyTokenMap_thatRoutesLikeTheServer() {
        TokenMap map = session.getMetadata().getTokenMap().orElseThrow(() -> new AssertionError("token map is empty"));
        assertEquals(DropPartitioner.class.getName(), map.getPartitionerName());
        assertEquals(16, map.getTokenRanges().size());
        String path = paths.get(paths.size() / 2);
        ByteBuffer key = StandardCharsets.UTF_8.encode(path);
        ByteBuffer server = session.execute(session.prepare("SELECT token(path) FROM " + TABLE + " WHERE path = ?")
                        .bind(path))
                .one()
                .getByteBuffer(0);
        assertEquals(map.parse("0x" + TokenMath.toHex(bytes(server))), map.newToken(key));
        assertFalse(map.getReplicas(KS, key).isEmpty());
    }

    /** What {@code locus-drop rebalance} against this node printed on stdout (or stderr) and its exit code. */
    private record Cli(int exit, String text) {}

    private Cli rebalance(boolean stderr, String... extra) {
        java.io.ByteArrayOutputStream buf = new java.io.ByteArrayOutputStream();
        java.io.PrintStream saved = stderr ? System.err : System.out;
        java.io.PrintStream capture = new java.io.PrintStream(buf, true, StandardCharsets.UTF_8);
        if (stderr) {
            System.setErr(capture);
        } else {
            System.setOut(capture);
        }
        java.util.List<String> args = new java.util.ArrayList<>(java.util.List.of(
                "rebalance",
                "--contact",
                node.contactPoint().getHostString() + ":" + node.contactPoint().getPort(),
                "--keyspace",
                KS,
                "--table",
                "inodes"));
        args.addAll(java.util.List.of(extra));
        try {
            int exit = io.locus.cassandra.cli.DropCommand.run(args.toArray(String[]::new));
            return new Cli(exit, buf.toString(StandardCharsets.UTF_8));
        } finally {
            if (stderr) {
                System.setErr(saved);
            } else {
                System.setOut(saved);
            }
        }
    }

    @Test
    @Order(8)
    void rebalanceCommand_readsEveryKeyOfEveryRangeThroughTheDriver() {
        Cli run = rebalance(false, "--json");
        int exit = run.exit();
        String json = run.text();
        assertEquals(0, exit, json);
        long rows = session.execute("SELECT count(*) FROM " + TABLE).one().getLong(0);
        assertTrue(json.contains("\"ranges\":16,\"keys\":" + rows + ","), json);
        assertTrue(json.contains("\"moves\":[]"), "one node is always balanced: " + json);
    }

    @Test
    @Order(9)
    void rebalanceExecute_refusesANodeWithSeveralTokens_beforeReadingAnyKey() {
        Cli run = rebalance(true, "--execute");
        int exit = run.exit();
        String msg = run.text();
        assertEquals(2, exit, msg);
        assertTrue(
                msg.contains("--execute needs num_tokens: 1 on every node, but node "
                        + node.contactPoint().getAddress().getHostAddress() + " has 16 tokens"),
                msg);
    }

    private static String contact() {
        return node.contactPoint().getHostString() + ":" + node.contactPoint().getPort();
    }

    @Test
    @Order(10)
    void rebalanceJson_inTheCliOwnJvm_againstThisLiveNode_printsOnlyJson() throws Exception {
        io.locus.cassandra.cli.CliProcess.Result r = io.locus.cassandra.cli.CliProcess.run(
                "rebalance", "--contact", contact(), "--keyspace", KS, "--table", "inodes", "--json");
        assertEquals(0, r.exit(), r.stderr());
        com.fasterxml.jackson.databind.JsonNode json = r.json();
        long rows = session.execute("SELECT count(*) FROM " + TABLE).one().getLong(0);
        assertEquals(rows, json.get("keys").asLong(), r.stdout());
        assertEquals(16, json.get("ranges").asInt());
        assertFalse(r.stderr().contains("DEBUG"), r.stderr());
        io.locus.cassandra.cli.CliProcess.Result missing = io.locus.cassandra.cli.CliProcess.run(
                "rebalance", "--contact", contact(), "--keyspace", KS, "--table", "nope", "--json");
        assertEquals(1, missing.exit(), missing.stderr());
        assertEquals(
                "table " + KS + ".nope does not exist on " + contact(),
                missing.json().get("error").asText());
    }

    @Test
    @Order(11)
    void planFromTable_readsEveryPartitionKeyOfTheTable_andPlansOnThem() throws Exception {
        io.locus.cassandra.cli.CliProcess.Result r = io.locus.cassandra.cli.CliProcess.run(
                "plan", "--from-table", KS + ".inodes", "--contact", contact(), "--nodes", "4", "--json");
        assertEquals(0, r.exit(), r.stderr());
        com.fasterxml.jackson.databind.JsonNode json = r.json();
        // The loaded paths and the bad keys test 6 wrote.
        long rows = session.execute("SELECT count(*) FROM " + TABLE).one().getLong(0);
        assertEquals(rows, json.get("keys").asLong(), r.stdout());
        assertEquals(4, json.get("nodes").size());
        assertEquals(
                3,
                json.get("datacenters")
                        .get(0)
                        .get("reservedRegionOwners")
                        .get(0)
                        .get("node")
                        .asInt());
        io.locus.cassandra.cli.CliProcess.Result missing = io.locus.cassandra.cli.CliProcess.run(
                "plan", "--from-table", KS + ".nope", "--contact", contact(), "--nodes", "4", "--json");
        assertEquals(1, missing.exit(), missing.stderr());
        assertEquals(
                "table " + KS + ".nope does not exist on " + contact(),
                missing.json().get("error").asText());
        io.locus.cassandra.cli.CliProcess.Result blob = io.locus.cassandra.cli.CliProcess.run(
                "plan", "--from-table", KS + ".raw", "--contact", contact(), "--nodes", "4", "--json");
        assertEquals(1, blob.exit(), blob.stderr());
        assertEquals(
                "table " + KS + ".raw has a partition key of type blob (expected: text holding the path)",
                blob.json().get("error").asText());
    }

    private static byte[] bytes(ByteBuffer b) {
        byte[] out = new byte[b.remaining()];
        b.duplicate().get(out);
        return out;
    }

    private static String abbreviate(String s) {
        return s.length() <= 80 ? s : s.substring(0, 77) + "...";
    }

    @Test
    @Order(100)
    void thePartitionersMBean_saysUnplanned_andThatTheOnlyNodeOwnsTheReservedRegion() throws Exception {
        javax.management.MBeanServer server = java.lang.management.ManagementFactory.getPlatformMBeanServer();
        javax.management.ObjectName name = new javax.management.ObjectName("io.locus.cassandra:type=DropPartitioner");
        assertEquals(3, server.getAttribute(name, "TokenFormat"));
        assertEquals(false, server.getAttribute(name, "Planned"), "num_tokens 16 drawn at random");
        assertEquals(16, server.getAttribute(name, "LocalTokens"));
        assertEquals(1.0, (Double) server.getAttribute(name, "ReservedShare"), 1e-9);
    }

    @Test
    @Order(101)
    void theNodeRunsThePartitionerFromItsJar_asAnOperatorInstallsIt() {
        String location = DropPartitioner.class
                .getProtectionDomain()
                .getCodeSource()
                .getLocation()
                .getPath();
        assertTrue(
                location.matches(".*/locus-cassandra-partitioner-[^/]*\\.jar"), "partitioner loaded from " + location);
    }
}
