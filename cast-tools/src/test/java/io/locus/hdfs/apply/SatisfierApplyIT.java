package io.locus.hdfs.apply;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.locus.hdfs.CastPlan;
import io.locus.hdfs.fixture.TieredMiniCluster;
import java.time.Duration;
import java.util.List;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.Path;
import org.apache.hadoop.fs.StorageType;
import org.apache.hadoop.hdfs.DFSConfigKeys;
import org.apache.hadoop.hdfs.protocol.HdfsConstants.StoragePolicySatisfierMode;
import org.apache.hadoop.hdfs.server.balancer.NameNodeConnector;
import org.apache.hadoop.hdfs.server.namenode.sps.StoragePolicySatisfier;
import org.apache.hadoop.hdfs.server.sps.ExternalSPSContext;
import org.apache.hadoop.hdfs.server.sps.ExternalStoragePolicySatisfier;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * apply on an HDFS that runs the Storage Policy Satisfier in external mode (the NameNode with
 * {@code dfs.storage.policy.satisfier.mode = external}, the satisfier service started here as {@code hdfs sps} would
 * start it): blocks written before the plan are moved by the satisfier, not the Mover, onto their planned types.
 */
class SatisfierApplyIT {
    private static TieredMiniCluster cluster;
    private static StoragePolicySatisfier sps;
    private static NameNodeConnector connector;

    @BeforeAll
    static void start() throws Exception {
        cluster = TieredMiniCluster.builder()
                .set(DFSConfigKeys.DFS_STORAGE_POLICY_SATISFIER_MODE_KEY, "external")
                .build();
        Configuration conf = new Configuration(cluster.configuration());
        conf.setLong(DFSConfigKeys.DFS_STORAGE_POLICY_SATISFIER_RECHECK_TIMEOUT_MILLIS_KEY, 3000);
        conf.setLong(DFSConfigKeys.DFS_STORAGE_POLICY_SATISFIER_SELF_RETRY_TIMEOUT_MILLIS_KEY, 5000);
        sps = new StoragePolicySatisfier(conf);
        connector = ExternalStoragePolicySatisfier.getNameNodeConnector(conf);
        sps.init(new ExternalSPSContext(sps, connector));
        sps.start(StoragePolicySatisfierMode.EXTERNAL);
    }

    @AfterAll
    static void stop() throws Exception {
        if (sps != null) {
            sps.stopGracefully();
        }
        if (connector != null) {
            connector.close();
        }
        if (cluster != null) {
            cluster.close();
        }
    }

    @Test
    void apply_queuesOffTypeDirectoriesWithTheSatisfier_andWaitsUntilEveryBlockIsOnItsType() throws Exception {
        cluster.writeFile(new Path("/cast/hot-job/input"), new byte[3 << 20]);
        cluster.writeFile(new Path("/cast/cold-job/input"), new byte[2 << 20]);
        double mib = 1.0 / 1024;
        CastPlan plan = new CastPlan(
                "it",
                "sa",
                "utility",
                1,
                List.of(
                        new CastPlan.PlannedTier("ephSSD", "SSD", null, 1, 8 * mib),
                        new CastPlan.PlannedTier("persHDD", "ARCHIVE", null, 1, 16 * mib)),
                List.of(
                        new CastPlan.PlannedJob("hot-job", "ephSSD", null),
                        new CastPlan.PlannedJob("cold-job", "persHDD", null)),
                new CastPlan.Prediction(1, 1, 1, 1));
        long[] updates = {0};
        PlanApplier.Result r = new PlanApplier(
                        cluster.fileSystem(), cluster.configuration(), "/cast", PlanApplier.DEFAULT_POLICIES)
                .apply(plan, false, Duration.ofSeconds(180), (ok, total) -> updates[0]++);
        assertEquals(5, r.blocks());
        assertEquals(5, r.blocksOnPlannedType(), r.toString());
        assertTrue(r.actions().stream().anyMatch(a -> a.kind().equals("satisfy")), r.toString());
        assertTrue(r.actions().stream().noneMatch(a -> a.kind().equals("move")), "the Mover did not run: " + r);
        assertTrue(updates[0] > 0, "progress was reported");
        for (List<StorageType> replicas : cluster.storageTypesOf(new Path("/cast/hot-job/input"))) {
            assertEquals(List.of(StorageType.SSD, StorageType.SSD), replicas);
        }
        for (List<StorageType> replicas : cluster.storageTypesOf(new Path("/cast/cold-job/input"))) {
            assertEquals(List.of(StorageType.ARCHIVE, StorageType.ARCHIVE), replicas);
        }
    }
}
