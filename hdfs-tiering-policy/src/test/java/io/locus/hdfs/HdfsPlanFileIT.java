package io.locus.hdfs;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;

import io.locus.hdfs.fixture.TieredMiniCluster;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.Set;
import java.util.function.BooleanSupplier;
import org.apache.hadoop.fs.Options;
import org.apache.hadoop.fs.Path;
import org.apache.hadoop.fs.StorageType;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * The plan file on HDFS itself ({@code hdfs:///locus/plan.json}, the NameNode's own file system): missing at start (one
 * error, default placement), then written, replaced and corrupted through HDFS, each change picked up by the policy's
 * poller without an explicit reload. 4 DataNodes with SSD and DISK in two groups (/eph ×2, /pers ×2), replication 2.
 */
class HdfsPlanFileIT {
    private static final byte[] THREE_BLOCKS = new byte[3 << 20];
    private static final Path PLAN = new Path("/locus/plan.json");
    private static TieredMiniCluster cluster;
    private static CastBlockPlacementPolicy policy;

    @BeforeAll
    static void start() throws Exception {
        cluster = TieredMiniCluster.builder()
                .dataNodes(4, StorageType.SSD, StorageType.DISK)
                .racks("/eph", "/eph", "/pers", "/pers")
                .replication(2)
                .placementPolicy(CastBlockPlacementPolicy.class)
                .set(CastBlockPlacementPolicy.PLAN_PATH_KEY, "hdfs://" + PLAN)
                .set(CastBlockPlacementPolicy.PLAN_CHECK_MS_KEY, "100")
                .build();
        policy = cluster.placementPolicy(CastBlockPlacementPolicy.class);
        cluster.mkdirsWithStoragePolicy(new Path("/cast"), "ALL_SSD");
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

    /** Replaces the plan the way an operator should: write beside it, then rename over it. */
    private static void putPlan(String json) throws Exception {
        Path tmp = new Path("/locus/.plan.json.tmp");
        cluster.writeFile(tmp, json.getBytes(StandardCharsets.UTF_8));
        cluster.fileSystem().rename(tmp, PLAN, Options.Rename.OVERWRITE);
    }

    private static void await(String what, BooleanSupplier condition) throws InterruptedException {
        long deadline = System.nanoTime() + Duration.ofSeconds(60).toNanos();
        while (!condition.getAsBoolean()) {
            if (System.nanoTime() > deadline) {
                throw new AssertionError(
                        "the policy never saw " + what + " (plan errors: " + policy.planErrors() + ")");
            }
            Thread.sleep(50);
        }
    }

    private static void assertRacks(String file, Set<String> expected) throws Exception {
        cluster.writeFile(new Path(file), THREE_BLOCKS);
        for (Set<String> r : CastBlockPlacementPolicyIT.racks(cluster, file)) {
            assertEquals(expected, r, file);
        }
    }

    @Test
    void planOnHdfs_isReadThroughTheNameNodesFileSystem_andEveryChangeIsPickedUp() throws Exception {
        await("the missing plan", () -> policy.planErrors() >= 1);
        assertNull(policy.plannedGroup("/cast/sort/none"));
        assertRacks("/cast/sort/none", Set.of("/eph", "/pers"));

        putPlan(CastBlockPlacementPolicyIT.plan("ephSSD"));
        await("the plan", () -> "eph".equals(policy.plannedGroup("/cast/sort/a")));
        assertRacks("/cast/sort/a", Set.of("/eph"));
        assertRacks("/cast/join/a", Set.of("/pers"));

        putPlan(CastBlockPlacementPolicyIT.plan("persSSD"));
        await("the changed plan", () -> "pers".equals(policy.plannedGroup("/cast/sort/b")));
        assertRacks("/cast/sort/b", Set.of("/pers"));

        int before = policy.planErrors();
        putPlan("{\"schema\": \"locus-cast-plan/1\", \"tiers\": [");
        await("the corrupt plan", () -> policy.plannedGroup("/cast/sort/c") == null);
        assertRacks("/cast/sort/c", Set.of("/eph", "/pers"));
        assertEquals(before + 1, policy.planErrors(), "one error for the corrupt plan, not one per poll or block");
    }
}
