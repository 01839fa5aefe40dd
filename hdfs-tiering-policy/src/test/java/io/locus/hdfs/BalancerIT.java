package io.locus.hdfs;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.locus.hdfs.fixture.TieredMiniCluster;
import java.lang.reflect.Constructor;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.StorageType;
import org.apache.hadoop.hdfs.server.balancer.Balancer;
import org.apache.hadoop.hdfs.server.balancer.ExitStatus;
import org.apache.hadoop.hdfs.server.blockmanagement.BlockPlacementPolicyDefault;
import org.apache.hadoop.util.Tool;
import org.apache.hadoop.util.ToolRunner;
import org.junit.jupiter.api.Test;

/**
 * Hadoop's Balancer, run in-process against a MiniDFSCluster whose planned blocks all sit in group {@code eph} while
 * group {@code pers} is empty: with the policy in the Balancer's configuration no planned replica leaves its group;
 * with the default policy in its place the same Balancer does move some out (so the cluster was worth balancing).
 */
class BalancerIT {
    private static final int FILES = 10;

    @Test
    void balancer_keepsPlannedReplicasInTheirGroup_theDefaultWouldNot() throws Exception {
        Path dir = Files.createDirectories(Path.of("target", "balancer-it"));
        Path plan = dir.resolve("plan.json").toAbsolutePath();
        Files.writeString(plan, CastBlockPlacementPolicyIT.plan("ephSSD"));
        try (TieredMiniCluster cluster = TieredMiniCluster.builder()
                .baseDir(dir.resolve("hdfs"))
                .dataNodes(4, StorageType.DISK)
                .racks("/eph", "/eph", "/pers", "/pers")
                .replication(2)
                .blockSizeBytes(1 << 20)
                .storageCapacityBytes(64L << 20)
                .placementPolicy(CastBlockPlacementPolicy.class)
                .set(CastBlockPlacementPolicy.PLAN_PATH_KEY, plan.toString())
                .set("dfs.heartbeat.interval", "1")
                .set("dfs.namenode.redundancy.interval.seconds", "1")
                .build()) {
            List<String> files = new ArrayList<>();
            for (int i = 0; i < FILES; i++) {
                String f = "/cast/sort/part-" + i;
                cluster.writeFile(new org.apache.hadoop.fs.Path(f), new byte[1 << 20]);
                files.add(f);
            }
            for (String f : files) {
                assertEquals(List.of(Set.of("/eph")), CastBlockPlacementPolicyIT.racks(cluster, f), f);
            }

            // The Balancer judges by the usage the DataNodes last reported; until their heartbeats carry the new
            // blocks the cluster looks balanced and it would exit SUCCESS with nothing to decide.
            awaitReportedUsage(cluster, 2L * FILES * (1 << 20));

            int cast = balance(cluster, CastBlockPlacementPolicy.class.getName(), plan);
            assertEquals(
                    ExitStatus.NO_MOVE_PROGRESS.getExitCode(),
                    cast,
                    "the Balancer found nothing it may move, and said so");
            for (String f : files) {
                assertEquals(
                        List.of(Set.of("/eph")),
                        CastBlockPlacementPolicyIT.racks(cluster, f),
                        f + " after the Balancer with the policy (exit " + cast + ")");
            }

            int dflt = balance(cluster, BlockPlacementPolicyDefault.class.getName(), plan);
            assertEquals(ExitStatus.SUCCESS.getExitCode(), dflt, "with the default policy the cluster gets balanced");
            int left = 0;
            for (String f : files) {
                left += CastBlockPlacementPolicyIT.racks(cluster, f).equals(List.of(Set.of("/eph"))) ? 0 : 1;
            }
            assertTrue(left > 0, "the default policy let the Balancer move planned replicas (exit " + dflt + ")");
        }
    }

    private static void awaitReportedUsage(TieredMiniCluster cluster, long bytes) throws Exception {
        long deadline = System.nanoTime() + java.util.concurrent.TimeUnit.SECONDS.toNanos(120);
        long used = 0;
        while (System.nanoTime() < deadline) {
            cluster.miniDfsCluster().triggerHeartbeats();
            used = 0;
            for (org.apache.hadoop.hdfs.protocol.DatanodeInfo dn :
                    cluster.fileSystem().getDataNodeStats()) {
                used += dn.getDfsUsed();
            }
            if (used >= bytes) {
                return;
            }
            Thread.sleep(200);
        }
        throw new AssertionError("the NameNode saw " + used + " bytes used on its DataNodes, waited for " + bytes);
    }

    /** Runs the Balancer as {@code hdfs balancer -threshold 5} does, with {@code policy}; its exit status. */
    private static int balance(TieredMiniCluster cluster, String policy, Path plan) throws Exception {
        Configuration conf = new Configuration(cluster.configuration());
        conf.set("dfs.block.replicator.classname", policy);
        conf.set(CastBlockPlacementPolicy.PLAN_PATH_KEY, plan.toString());
        conf.set("dfs.balancer.getBlocks.min-block-size", "1");
        conf.set("dfs.balancer.max-no-move-interval", "1000");
        // Balancer.main ends in System.exit; its command-line tool (what `hdfs balancer` runs) is package-private.
        Constructor<?> cli = Class.forName(Balancer.class.getName() + "$Cli").getDeclaredConstructor();
        cli.setAccessible(true);
        return ToolRunner.run(conf, (Tool) cli.newInstance(), new String[] {"-threshold", "5"});
    }
}
