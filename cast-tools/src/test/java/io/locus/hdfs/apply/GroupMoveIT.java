package io.locus.hdfs.apply;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.locus.hdfs.CastBlockPlacementPolicy;
import io.locus.hdfs.CastPlan;
import io.locus.hdfs.cast.cli.CastCommand;
import io.locus.hdfs.cast.io.PlanFiles;
import io.locus.hdfs.fixture.TieredMiniCluster;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Files;
import java.time.Duration;
import java.util.List;
import java.util.Random;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReference;
import org.apache.hadoop.fs.BlockLocation;
import org.apache.hadoop.fs.Path;
import org.apache.hadoop.fs.StorageType;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.MethodOrderer;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestMethodOrder;

/**
 * Two tiers on one storage type told apart by DataNode group (ephSSD in /eph, persSSD in /pers, 2 DataNodes each with
 * SSD and DISK, replication 2, the CAST policy on the NameNode): a plan puts dataset "logs" on ephSSD; the next plan
 * moves it to persSSD, which neither the Mover nor the satisfier would do (the type does not change). apply re-places
 * the replicas: every block ends on SSD inside /pers, no block ever has fewer than 2 replicas, the data reads back,
 * and {@code report} shows the dataset's tier held by group pers alone. Then a plan whose quota leaves no room for the
 * extra replicas: the file is skipped and named, and keeps its replication.
 */
@TestMethodOrder(MethodOrderer.OrderAnnotation.class)
class GroupMoveIT {
    private static final double MIB_IN_GB = 1.0 / 1024;
    private static TieredMiniCluster cluster;
    private static CastBlockPlacementPolicy policy;
    private static java.nio.file.Path planFile;

    static CastPlan plan(String logsTier) {
        return plan(logsTier, 64 * MIB_IN_GB);
    }

    static CastPlan plan(String logsTier, double capacityGbPerTier) {
        return new CastPlan(
                "it",
                "sa",
                "utility",
                1,
                List.of(
                        new CastPlan.PlannedTier("ephSSD", "SSD", "eph", 1, capacityGbPerTier),
                        new CastPlan.PlannedTier("persSSD", "SSD", "pers", 1, capacityGbPerTier)),
                List.of(new CastPlan.PlannedJob("sort", logsTier, "logs")),
                new CastPlan.Prediction(1, 1, 1, 1));
    }

    @BeforeAll
    static void start() throws Exception {
        planFile = java.nio.file.Path.of("target", "group-move-it", "plan.json").toAbsolutePath();
        Files.createDirectories(planFile.getParent());
        PlanFiles.write(plan("ephSSD"), planFile);
        cluster = TieredMiniCluster.builder()
                .dataNodes(4, StorageType.SSD, StorageType.DISK)
                .racks("/eph", "/eph", "/pers", "/pers")
                .replication(2)
                .placementPolicy(CastBlockPlacementPolicy.class)
                .set(CastBlockPlacementPolicy.PLAN_PATH_KEY, planFile.toString())
                .set(CastBlockPlacementPolicy.PLAN_CHECK_MS_KEY, "3600000")
                .build();
        policy = cluster.placementPolicy(CastBlockPlacementPolicy.class);
    }

    @AfterAll
    static void stop() throws Exception {
        if (policy != null) {
            policy.close();
        }
        if (cluster != null) {
            cluster.close();
        }
    }

    private static PlanApplier.Result apply(CastPlan plan) throws Exception {
        return new PlanApplier(cluster.fileSystem(), cluster.configuration(), "/cast", PlanApplier.DEFAULT_POLICIES)
                .apply(plan, false, Duration.ofSeconds(180), (ok, total) -> {});
    }

    private static void assertAllIn(Path file, String rack) throws Exception {
        for (BlockLocation b : cluster.fileSystem().getFileBlockLocations(file, 0, Long.MAX_VALUE)) {
            assertEquals(2, b.getTopologyPaths().length, b.toString());
            for (String p : b.getTopologyPaths()) {
                assertTrue(p.startsWith(rack + "/"), p + " (expected in " + rack + ")");
            }
        }
        for (List<StorageType> replicas : cluster.storageTypesOf(file)) {
            assertEquals(List.of(StorageType.SSD, StorageType.SSD), replicas);
        }
    }

    @Test
    @Order(1)
    void changedPlan_movesADatasetBetweenTwoSsdTiers_intoTheNewGroup_keepingItsReplication() throws Exception {
        PlanApplier.Result first = apply(plan("ephSSD"));
        assertEquals(0, first.blocks());
        byte[] data = new byte[3 << 20];
        new Random(7).nextBytes(data);
        Path file = new Path("/cast/datasets/logs/part-0");
        cluster.writeFile(file, data);
        cluster.waitReplication(file, 2, Duration.ofSeconds(60));
        assertAllIn(file, "/eph");

        CastPlan second = plan("persSSD");
        PlanFiles.write(second, planFile);
        assertTrue(policy.reload());
        AtomicInteger fewest = new AtomicInteger(Integer.MAX_VALUE);
        // Stopped by a flag, not an interrupt: an interrupt inside the RPC would end it with an InterruptedIOException.
        AtomicBoolean stop = new AtomicBoolean();
        AtomicReference<Exception> watchFailure = new AtomicReference<>();
        Thread watch = new Thread(() -> {
            try {
                while (!stop.get()) {
                    for (BlockLocation b : cluster.fileSystem().getFileBlockLocations(file, 0, Long.MAX_VALUE)) {
                        fewest.accumulateAndGet(b.getHosts().length, Math::min);
                    }
                    Thread.sleep(20);
                }
            } catch (Exception e) {
                watchFailure.set(e);
            }
        });
        watch.start();
        PlanApplier.Result r;
        try {
            r = apply(second);
        } finally {
            stop.set(true);
            watch.join();
        }
        assertNull(watchFailure.get(), () -> "the replica watcher failed: " + watchFailure.get());
        assertTrue(r.actions().stream().anyMatch(a -> a.kind().equals("regroup")), r.toString());
        assertEquals(3, r.blocks(), r.toString());
        assertEquals(3, r.blocksOnPlannedType(), r.toString());
        assertEquals(3, r.blocksInPlannedGroup(), r.toString());
        assertAllIn(file, "/pers");
        assertEquals(2, fewest.get(), "no block had fewer than 2 replicas while apply ran");
        assertArrayEquals(data, cluster.readFile(file));

        PlanApplier.Result again = apply(second);
        assertEquals(List.of(), again.actions(), "an applied plan changes nothing");

        StringWriter out = new StringWriter();
        int rc = CastCommand.run(
                new PrintWriter(out, true),
                new PrintWriter(new StringWriter(), true),
                "report",
                "--plan",
                planFile.toString(),
                "--fs",
                cluster.nameNodeUri().toString(),
                "--json");
        assertEquals(0, rc, out.toString());
        JsonNode pers = null;
        for (JsonNode t : new ObjectMapper().readTree(out.toString()).get("actual")) {
            pers = t.get("tier").asText().equals("persSSD") ? t : pers;
        }
        assertEquals(3, pers.get("blocks").asLong(), out.toString());
        assertEquals(3, pers.get("inPlannedGroup").asLong(), out.toString());
        assertEquals("pers", pers.get("plannedGroup").asText(), out.toString());
        assertEquals("[\"pers\"]", pers.get("actualGroups").toString(), out.toString());
    }

    @Test
    @Order(2)
    void regroupWithoutQuotaForTheExtraReplicas_isSkippedAndNamed_andTheFileKeepsItsReplicas() throws Exception {
        Path file = new Path("/cast/datasets/logs/quota-0");
        apply(plan("persSSD"));
        cluster.writeFile(file, new byte[1 << 20]);
        cluster.waitReplication(file, 2, Duration.ofSeconds(60));
        // Back to eph with 8 MiB of SSD in all: what the dataset holds fits, 2 more replicas of every block do not.
        CastPlan tight = plan("ephSSD", 4 * MIB_IN_GB);
        PlanFiles.write(tight, planFile);
        assertTrue(policy.reload());
        long used = cluster.fileSystem().getQuotaUsage(new Path("/cast")).getTypeConsumed(StorageType.SSD);
        assertTrue(used <= (8L << 20) && 2 * used > (8L << 20), "the test needs " + used + " bytes of SSD in use");
        PlanApplier.Result r = apply(tight);
        assertTrue(
                r.actions().stream()
                        .anyMatch(a ->
                                a.kind().equals("regroup-skipped") && a.detail().contains("quota")),
                r.toString());
        assertEquals(0, r.blocksInPlannedGroup(), r.toString());
        for (List<StorageType> replicas : cluster.storageTypesOf(file)) {
            assertEquals(2, replicas.size(), "the replication is back to 2");
        }
        assertEquals(2, cluster.fileSystem().getFileStatus(file).getReplication());
    }
}
