package io.locus.hdfs;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.locus.hdfs.fixture.TieredMiniCluster;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.apache.hadoop.fs.BlockLocation;
import org.apache.hadoop.fs.StorageType;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.MethodOrderer;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestMethodOrder;

/**
 * The policy inside a real NameNode: 5 DataNodes with SSD and DISK storages in two groups (racks /eph ×3, /pers ×2), a
 * plan placing job "sort" on ephSSD (SSD, group eph) and job "join" on persSSD (SSD too, group pers): the two tiers
 * share a storage type and are told apart by group.
 */
@TestMethodOrder(MethodOrderer.OrderAnnotation.class)
class CastBlockPlacementPolicyIT {
    private static final byte[] THREE_BLOCKS = new byte[3 << 20];
    private static TieredMiniCluster cluster;
    private static Path planFile;
    /** The process's placement counters when this class's cluster started (other classes' clusters count too). */
    private static long byPlanAtStart;

    private static long byDefaultAtStart;
    private static long reloadsAtStart;
    private static long reloadErrorsAtStart;

    static String plan(String sortTier) {
        return """
                {"schema": "locus-cast-plan/1", "workload": "it", "solver": "sa", "objective": "utility", "seed": 1,
                 "predicted": {"runtimeMin": 1, "vmCost": 1, "storeCost": 1, "utility": 1},
                 "tiers": [{"name": "ephSSD", "storageType": "SSD", "dataNodeGroup": "eph", "perVmGb": 375, "capacityGb": 750},
                           {"name": "persSSD", "storageType": "SSD", "dataNodeGroup": "pers", "perVmGb": 100, "capacityGb": 200}],
                 "jobs": [{"id": "sort", "tier": "%s", "dataset": null}, {"id": "join", "tier": "persSSD"}]}
                """.formatted(sortTier);
    }

    @BeforeAll
    static void start() throws Exception {
        Path dir = Path.of("target", "cast-it");
        Files.createDirectories(dir);
        planFile = dir.resolve("plan.json").toAbsolutePath();
        Files.writeString(planFile, plan("ephSSD"));
        cluster = TieredMiniCluster.builder()
                .dataNodes(5, StorageType.SSD, StorageType.DISK)
                .racks("/eph", "/eph", "/eph", "/pers", "/pers")
                .replication(2)
                .placementPolicy(CastBlockPlacementPolicy.class)
                .set(CastBlockPlacementPolicy.PLAN_PATH_KEY, planFile.toString())
                // The tests reload explicitly; the poller must not catch a file half rewritten.
                .set(CastBlockPlacementPolicy.PLAN_CHECK_MS_KEY, "3600000")
                .build();
        cluster.mkdirsWithStoragePolicy(new org.apache.hadoop.fs.Path("/cast"), "ALL_SSD");
        CastPlacementMetrics m = CastPlacementMetrics.registered();
        byPlanAtStart = m.byPlan.sum();
        byDefaultAtStart = m.byDefault.sum();
        reloadsAtStart = m.reloads.sum() - 1; // the plan this cluster's policy loaded at start
        reloadErrorsAtStart = m.reloadErrors.sum();
    }

    @AfterAll
    static void stop() throws Exception {
        if (cluster != null) {
            cluster.placementPolicy(CastBlockPlacementPolicy.class).close();
            cluster.close();
        }
    }

    /** The racks of every replica of every block of {@code file}, one set per block. */
    private static List<Set<String>> racks(String file) throws Exception {
        return racks(cluster, file);
    }

    /** The racks of every replica of every block of {@code file} once it has 2 replicas, one set per block. */
    static List<Set<String>> racks(TieredMiniCluster cluster, String file) throws Exception {
        org.apache.hadoop.fs.Path p = new org.apache.hadoop.fs.Path(file);
        cluster.waitReplication(p, 2, java.time.Duration.ofSeconds(60));
        BlockLocation[] blocks = cluster.fileSystem().getFileBlockLocations(p, 0, Long.MAX_VALUE);
        List<Set<String>> out = new java.util.ArrayList<>();
        for (BlockLocation b : blocks) {
            Set<String> r = new HashSet<>();
            for (String t : b.getTopologyPaths()) {
                r.add(t.substring(0, t.lastIndexOf('/')));
            }
            out.add(r);
        }
        return out;
    }

    @Test
    @Order(1)
    void plannedPaths_landInTheirTiersGroup_onThePolicysStorageType() throws Exception {
        CastBlockPlacementPolicy policy = cluster.placementPolicy(CastBlockPlacementPolicy.class);
        assertEquals(0, policy.planErrors());
        cluster.writeFile(new org.apache.hadoop.fs.Path("/cast/sort/input"), THREE_BLOCKS);
        cluster.writeFile(new org.apache.hadoop.fs.Path("/cast/join/input"), THREE_BLOCKS);
        assertEquals(List.of(Set.of("/eph"), Set.of("/eph"), Set.of("/eph")), racks("/cast/sort/input"));
        assertEquals(List.of(Set.of("/pers"), Set.of("/pers"), Set.of("/pers")), racks("/cast/join/input"));
        for (String f : new String[] {"/cast/sort/input", "/cast/join/input"}) {
            for (List<StorageType> replicas : cluster.storageTypesOf(new org.apache.hadoop.fs.Path(f))) {
                assertEquals(List.of(StorageType.SSD, StorageType.SSD), replicas, f);
            }
        }
    }

    @Test
    @Order(2)
    void replicationThree_staysInTheGroup_whenTheGroupHasThreeDataNodes() throws Exception {
        org.apache.hadoop.fs.Path p = new org.apache.hadoop.fs.Path("/cast/sort/triple");
        try (var out = cluster.fileSystem().create(p, (short) 3)) {
            out.write(THREE_BLOCKS);
        }
        cluster.waitReplication(p, 3, java.time.Duration.ofSeconds(60));
        BlockLocation[] blocks = cluster.fileSystem().getFileBlockLocations(p, 0, Long.MAX_VALUE);
        assertEquals(3, blocks.length);
        for (BlockLocation b : blocks) {
            assertEquals(3, b.getNames().length);
            for (String t : b.getTopologyPaths()) {
                assertTrue(t.startsWith("/eph/"), t);
            }
        }
    }

    @Test
    @Order(3)
    void deadDataNode_isReplacedInsideThePlannedGroup() throws Exception {
        org.apache.hadoop.fs.Path file = new org.apache.hadoop.fs.Path("/cast/sort/input");
        BlockLocation first = cluster.fileSystem().getFileBlockLocations(file, 0, 1)[0];
        String victim = first.getNames()[0];
        org.apache.hadoop.hdfs.server.datanode.DataNode dn = cluster.miniDfsCluster().getDataNodes().stream()
                .filter(d -> victim.equals(d.getDatanodeId().getXferAddr()))
                .findFirst()
                .orElseThrow();
        org.apache.hadoop.hdfs.protocol.DatanodeID id = dn.getDatanodeId();
        cluster.miniDfsCluster().stopDataNode(victim);
        cluster.miniDfsCluster().setDataNodeDead(id);
        for (Set<String> r : racks("/cast/sort/input")) {
            assertEquals(Set.of("/eph"), r, "re-replicated inside the planned group");
        }
        for (BlockLocation b : cluster.fileSystem().getFileBlockLocations(file, 0, Long.MAX_VALUE)) {
            assertFalse(List.of(b.getNames()).contains(victim));
        }
    }

    @Test
    @Order(4)
    void unplannedPaths_spreadOverRacksAsTheDefaultPolicyDoes() throws Exception {
        cluster.writeFile(new org.apache.hadoop.fs.Path("/other/input"), THREE_BLOCKS);
        for (Set<String> r : racks("/other/input")) {
            assertEquals(Set.of("/eph", "/pers"), r);
        }
    }

    @Test
    @Order(5)
    void changedPlan_isReloaded() throws Exception {
        CastBlockPlacementPolicy policy = cluster.placementPolicy(CastBlockPlacementPolicy.class);
        Files.writeString(planFile, plan("persSSD"));
        assertTrue(policy.reload());
        assertEquals("pers", policy.plannedGroup("/cast/sort/more"));
        cluster.writeFile(new org.apache.hadoop.fs.Path("/cast/sort/more"), THREE_BLOCKS);
        for (Set<String> r : racks("/cast/sort/more")) {
            assertEquals(Set.of("/pers"), r);
        }
    }

    @Test
    @Order(6)
    void corruptPlan_logsOneErrorAndFallsBackToDefaultPlacement() throws Exception {
        CastBlockPlacementPolicy policy = cluster.placementPolicy(CastBlockPlacementPolicy.class);
        int before = policy.planErrors();
        Files.writeString(planFile, "{\"schema\": \"locus-cast-plan/1\", \"tiers\": [", StandardCharsets.UTF_8);
        assertFalse(policy.reload());
        assertEquals(before + 1, policy.planErrors());
        assertEquals(null, policy.plannedGroup("/cast/sort/after"));
        cluster.writeFile(new org.apache.hadoop.fs.Path("/cast/sort/after"), THREE_BLOCKS);
        for (Set<String> r : racks("/cast/sort/after")) {
            assertEquals(Set.of("/eph", "/pers"), r, "default placement spreads the replicas over both racks");
        }
        assertEquals(before + 1, policy.planErrors(), "the error is logged once, not per block");
    }

    @Test
    @Order(7)
    void whatThePolicyDecided_isOnTheNameNodesJmx() throws Exception {
        CastPlacementMetrics counted = CastPlacementMetrics.registered();
        long byPlan = counted.byPlan.sum();
        long byDefault = counted.byDefault.sum();
        assertTrue(byPlan - byPlanAtStart >= 12, "3 blocks each of 4 planned files: " + byPlan);
        assertTrue(byDefault - byDefaultAtStart >= 6, "3 blocks each of 2 unplanned files: " + byDefault);
        assertTrue(counted.reloads.sum() - reloadsAtStart >= 2, "the first plan and the changed one");
        assertTrue(counted.reloadErrors.sum() - reloadErrorsAtStart >= 1, "the corrupt plan");

        // JMX shows metrics2's periodic snapshot (every 10 s): wait, bounded, until it has caught up with the counters.
        Map<String, Long> shown =
                jmxOnce(m -> m.get("PlacementsByPlan") >= byPlan && m.get("PlacementsByDefault") >= byDefault);
        assertTrue(shown.get("PlacementsByPlan") >= byPlan, shown + " against " + byPlan + " counted");
        assertTrue(shown.get("PlacementsByDefault") >= byDefault, shown + " against " + byDefault + " counted");
        assertEquals(shown.get("PlanReloads"), shown.get("PlanVersion"), shown.toString());

        cluster.writeFile(new org.apache.hadoop.fs.Path("/other/metered"), THREE_BLOCKS);
        Map<String, Long> after = jmxOnce(m -> m.get("PlacementsByDefault") >= byDefault + 3);
        assertTrue(after.get("PlacementsByDefault") >= byDefault + 3, "three more default placements: " + after);
        assertEquals(byPlan, counted.byPlan.sum(), "no plan in force, no placement by plan");
    }

    /** {@link #jmx()} once it satisfies {@code ready}, or as it is after 60 s (the caller's asserts then say why). */
    private static Map<String, Long> jmxOnce(java.util.function.Predicate<Map<String, Long>> ready) throws Exception {
        long deadline = System.nanoTime() + java.util.concurrent.TimeUnit.SECONDS.toNanos(60);
        Map<String, Long> m = jmx();
        while (!ready.test(m) && System.nanoTime() < deadline) {
            Thread.sleep(500);
            m = jmx();
        }
        return m;
    }

    /** The policy's metrics2 record as the NameNode's {@code /jmx} servlet serves it. */
    private static Map<String, Long> jmx() throws Exception {
        java.net.InetSocketAddress http = cluster.miniDfsCluster().getNameNode().getHttpAddress();
        java.net.URL url = new java.net.URL(
                "http://127.0.0.1:" + http.getPort() + "/jmx?qry=Hadoop:service=NameNode,name=CastPlacementPolicy");
        com.fasterxml.jackson.databind.JsonNode beans;
        try (java.io.InputStream in = url.openStream()) {
            beans = new com.fasterxml.jackson.databind.ObjectMapper()
                    .readTree(in)
                    .path("beans");
        }
        assertEquals(1, beans.size(), "beans: " + beans);
        Map<String, Long> values = new java.util.TreeMap<>();
        for (String name : List.of(
                "PlacementsByPlan",
                "PlacementsByDefault",
                "PlacementFallbacks",
                "PlanReloads",
                "PlanReloadErrors",
                "PlanVersion",
                "PlannedJobs",
                "PlanAgeSeconds")) {
            assertTrue(beans.get(0).has(name), name + " missing from " + beans);
            values.put(name, beans.get(0).get(name).asLong());
        }
        return values;
    }
}
