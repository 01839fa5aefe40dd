package io.locus.cassandra;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;

import com.datastax.oss.driver.api.core.CqlSession;
import com.datastax.oss.driver.api.core.cql.PreparedStatement;
import com.datastax.oss.driver.api.core.cql.Row;
import io.locus.cassandra.balance.DropPlanner;
import io.locus.cassandra.drop.DirectoryRanges;
import io.locus.cassandra.drop.PathEncoder;
import io.locus.cassandra.drop.TokenMath;
import io.locus.cassandra.fixture.CassandraNode;
import io.locus.cassandra.fixture.ForkedCassandraNode;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * A forked node with num_tokens 1 and a planned initial_token: schema, rows and the ring token survive a crash
 * (SIGKILL) and restart, and a directory listing still is one token-range scan.
 */
class DropRestartIT {
    @Test
    void data_survivesRestart_withPlannedInitialToken() throws Exception {
        List<String> paths = TestNamespace.paths().subList(0, 20_000);
        List<byte[]> tokens = new ArrayList<>();
        paths.forEach(p -> tokens.add(PathEncoder.encode(p.getBytes(StandardCharsets.UTF_8))));
        String initialToken = TokenMath.toHex(
                DropPlanner.plan(tokens, 1, 1, 0.02).tokensPerNode().get(0).get(0));
        CassandraNode.Options options = CassandraNode.Options.defaults()
                .withDirectory(Path.of("target", "drop-forked-node"))
                .withPartitioner(DropPartitioner.class.getName())
                .withInitialTokens(initialToken);
        try (ForkedCassandraNode node = ForkedCassandraNode.create(options).start()) {
            try (CqlSession s = DropSessions.open(node.contactPoint())) {
                s.execute("CREATE KEYSPACE ks WITH replication = {'class': 'SimpleStrategy', 'replication_factor': 1}");
                s.execute("CREATE TABLE ks.inodes (path text PRIMARY KEY, depth int)");
                NamespaceLoader.load(s, "ks.inodes", paths);
                assertEquals(
                        List.of(initialToken),
                        new ArrayList<>(s.execute("SELECT tokens FROM system.local")
                                .one()
                                .getSet(0, String.class)));
            }
            assertPartitionerMBean(node, true, 1, 1.0);
            Thread.sleep(2_500); // > commitlog_sync_period (1 s): acknowledged rows are in the synced commit log
            node.kill(); // a crash: every row must come back from the commit log
            node.start();
            System.err.printf("forked DROP node restarted in %d ms%n", node.lastStartMillis());
            try (CqlSession s = DropSessions.open(node.contactPoint())) {
                long count = 0;
                for (Row ignored :
                        s.execute(s.prepare("SELECT path FROM ks.inodes").bind().setPageSize(5000))) {
                    count++;
                }
                assertEquals(paths.size(), count);
                PreparedStatement get = s.prepare("SELECT depth FROM ks.inodes WHERE path = ?");
                for (int i = 0; i < paths.size(); i += 101) {
                    assertNotNull(s.execute(get.bind(paths.get(i))).one(), paths.get(i));
                }
                DirectoryRanges.Interval bin = DirectoryRanges.listing("/usr/bin");
                long listed = 0;
                for (Row ignored :
                        s.execute(s.prepare("SELECT path FROM ks.inodes WHERE token(path) >= ? AND token(path) <= ?")
                                .bind(java.nio.ByteBuffer.wrap(bin.first()), java.nio.ByteBuffer.wrap(bin.last())))) {
                    listed++;
                }
                long expected = paths.stream()
                        .filter(p -> p.startsWith("/usr/bin/") && p.indexOf('/', 9) < 0)
                        .count();
                assertEquals(expected, listed);
                assertEquals(
                        List.of(initialToken),
                        new ArrayList<>(s.execute("SELECT tokens FROM system.local")
                                .one()
                                .getSet(0, String.class)));
            }
        }
    }

    /** The partitioner's MBean as any JMX client sees it, through the node's JMX port. */
    static void assertPartitionerMBean(ForkedCassandraNode node, boolean planned, int localTokens, double reservedShare)
            throws Exception {
        javax.management.remote.JMXServiceURL url = new javax.management.remote.JMXServiceURL(
                "service:jmx:rmi:///jndi/rmi://127.0.0.1:" + node.jmxEndpoint().getPort() + "/jmxrmi");
        try (javax.management.remote.JMXConnector jmx = javax.management.remote.JMXConnectorFactory.connect(url)) {
            javax.management.MBeanServerConnection server = jmx.getMBeanServerConnection();
            javax.management.ObjectName name =
                    new javax.management.ObjectName("io.locus.cassandra:type=DropPartitioner");
            assertEquals(3, server.getAttribute(name, "TokenFormat"));
            assertEquals(48, server.getAttribute(name, "TokenBytes"));
            assertEquals(planned, server.getAttribute(name, "Planned"));
            assertEquals(localTokens, server.getAttribute(name, "LocalTokens"));
            assertEquals(reservedShare, (Double) server.getAttribute(name, "ReservedShare"), 1e-9);
        }
    }
}
