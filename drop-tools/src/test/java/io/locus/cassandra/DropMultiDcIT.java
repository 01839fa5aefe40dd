package io.locus.cassandra;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.datastax.oss.driver.api.core.CqlSession;
import com.datastax.oss.driver.api.core.cql.Row;
import com.datastax.oss.driver.api.core.metadata.Node;
import com.datastax.oss.driver.api.core.metadata.TokenMap;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.locus.cassandra.cli.DropCommand;
import io.locus.cassandra.fixture.CassandraCluster;
import io.locus.cassandra.fixture.CassandraNode;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import org.junit.jupiter.api.Test;

/**
 * {@code locus-drop plan --dc} on a real two-data-center DROP cluster: two forked nodes, one per data center
 * (GossipingPropertyFileSnitch), four planned tokens each. Cassandra must accept the two plans side by side (tokens
 * unique across data centers, each data center's ring complete), place the nodes in the planned data centers, and
 * NetworkTopologyStrategy must keep one full replica per data center.
 */
class DropMultiDcIT {
    private static final List<String> DCS = List.of("datacenter1", "dc2");

    @Test
    void planPerDatacenter_isAcceptedByARealTwoDcCluster_withAReplicaInEach() throws Exception {
        List<String> paths = TestNamespace.everyNth(25);
        Path keys = Path.of("target", "multi-dc-keys.txt");
        Files.write(keys, paths, StandardCharsets.UTF_8);
        JsonNode plan = plan("--keys", keys.toString(), "--dc", "datacenter1:1,dc2:1", "--vnodes", "4", "--json");
        List<String> initial = new ArrayList<>();
        for (JsonNode n : plan.get("nodes")) {
            initial.add(n.get("initial_token").asText());
        }
        assertEquals(
                DCS,
                List.of(
                        plan.get("nodes").get(0).get("datacenter").asText(),
                        plan.get("nodes").get(1).get("datacenter").asText()));
        CassandraNode.Options template = CassandraNode.Options.defaults()
                .withPartitioner(DropPartitioner.class.getName())
                .withNumTokens(4);
        try (CassandraCluster cluster =
                CassandraCluster.start(Path.of("target", "drop-multi-dc"), 2, template, initial, DCS)) {
            try (CqlSession s = DropSessions.open(cluster.node(0).contactPoint(), "datacenter1", "EACH_QUORUM")) {
                s.execute("CREATE KEYSPACE fs WITH replication = "
                        + "{'class': 'NetworkTopologyStrategy', 'datacenter1': 1, 'dc2': 1}");
                s.execute("CREATE TABLE fs.inodes (path text PRIMARY KEY, depth int)");
                // EACH_QUORUM: every write is on both data centers' replicas before it is acknowledged.
                NamespaceLoader.load(s, "fs.inodes", paths);
                TokenMap map = s.getMetadata().getTokenMap().orElseThrow();
                for (int i = 0; i < paths.size(); i += 101) {
                    Set<String> dcs = new HashSet<>();
                    for (Node n :
                            map.getReplicas("fs", ByteBuffer.wrap(paths.get(i).getBytes(StandardCharsets.UTF_8)))) {
                        dcs.add(n.getDatacenter());
                    }
                    assertEquals(Set.copyOf(DCS), dcs, "replicas of " + paths.get(i));
                }
            }
            for (int i = 0; i < 2; i++) {
                try (CqlSession s = DropSessions.open(cluster.node(i).contactPoint(), DCS.get(i), "LOCAL_ONE")) {
                    Row local = s.execute("SELECT data_center, tokens FROM system.local")
                            .one();
                    assertEquals(DCS.get(i), local.getString(0));
                    assertEquals(Set.of(initial.get(i).split(",")), local.getSet(1, String.class));
                    Row peer = s.execute("SELECT data_center, tokens FROM system.peers_v2")
                            .one();
                    assertEquals(DCS.get(1 - i), peer.getString(0));
                    assertEquals(Set.of(initial.get(1 - i).split(",")), peer.getSet(1, String.class));
                    // LOCAL_ONE in a data center of one node: that node alone holds every row.
                    long rows = 0;
                    for (Row ignored : s.execute(
                            s.prepare("SELECT path FROM fs.inodes").bind().setPageSize(1000))) {
                        rows++;
                    }
                    assertEquals(paths.size(), rows, DCS.get(i));
                }
            }
        }
    }

    private static JsonNode plan(String... args) throws Exception {
        ByteArrayOutputStream buf = new ByteArrayOutputStream();
        PrintStream out = System.out;
        System.setOut(new PrintStream(buf, true, StandardCharsets.UTF_8));
        try {
            List<String> a = new ArrayList<>(List.of("plan"));
            a.addAll(List.of(args));
            assertEquals(0, DropCommand.run(a.toArray(String[]::new)));
        } finally {
            System.setOut(out);
        }
        JsonNode json = new ObjectMapper().readTree(buf.toString(StandardCharsets.UTF_8));
        assertTrue(json.get("nodes").size() == 2, json.toString());
        return json;
    }
}
