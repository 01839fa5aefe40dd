package io.locus.bench.cast;

import io.locus.hdfs.CastBlockPlacementPolicy;
import io.locus.hdfs.fixture.TieredMiniCluster;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.EnumSet;
import java.util.List;
import java.util.Locale;
import org.apache.hadoop.fs.CreateFlag;
import org.apache.hadoop.fs.StorageType;
import org.apache.hadoop.fs.permission.FsPermission;
import org.apache.hadoop.hdfs.protocol.ClientProtocol;
import org.apache.hadoop.hdfs.protocol.HdfsFileStatus;
import org.apache.hadoop.hdfs.server.blockmanagement.BlockPlacementPolicyDefault;
import org.apache.hadoop.io.EnumSetWritable;

/**
 * {@code ./locus bench cast-nn}: the NameNode's cost of the placement policy. Against a MiniDFSCluster (5 DataNodes,
 * racks /eph ×3 and /pers ×2), a client issues create + addBlock RPCs straight to the NameNode (no data is written,
 * as in Hadoop's NNThroughputBenchmark) for files under a planned directory and under an unplanned one, with
 * {@code BlockPlacementPolicyDefault} and with {@code CastBlockPlacementPolicy}; rounds alternate between the two
 * clusters, in alternating order, so that machine load hits both alike. Prints ops/s per policy and path and the ratio.
 *
 * <p>Arguments: files per round (default 2000), rounds (default 3), a work directory under target/.
 */
public final class NameNodeBench {
    private NameNodeBench() {}

    public static void main(String[] args) throws Exception {
        System.setProperty("org.slf4j.simpleLogger.defaultLogLevel", "warn");
        int files = args.length > 0 ? Integer.parseInt(args[0]) : 2000;
        int rounds = args.length > 1 ? Integer.parseInt(args[1]) : 3;
        Path work = Path.of(args.length > 2 ? args[2] : "target/nn-bench").toAbsolutePath();
        Files.createDirectories(work);
        Path plan = work.resolve("plan.json");
        Files.writeString(plan, """
                {"schema": "locus-cast-plan/1", "workload": "bench", "solver": "sa", "objective": "utility", "seed": 1,
                 "predicted": {"runtimeMin": 1, "vmCost": 1, "storeCost": 1, "utility": 1},
                 "tiers": [{"name": "ephSSD", "storageType": "SSD", "dataNodeGroup": "eph", "perVmGb": 1, "capacityGb": 1}],
                 "jobs": [{"id": "job", "tier": "ephSSD"}]}
                """);
        List<TieredMiniCluster> clusters = new ArrayList<>();
        String[] names = {"default", "cast"};
        try {
            for (int c = 0; c < 2; c++) {
                TieredMiniCluster.Builder b = TieredMiniCluster.builder()
                        .baseDir(work.resolve(names[c]))
                        .dataNodes(5, StorageType.SSD, StorageType.DISK)
                        .racks("/eph", "/eph", "/eph", "/pers", "/pers")
                        .replication(2)
                        .placementPolicy(c == 0 ? BlockPlacementPolicyDefault.class : CastBlockPlacementPolicy.class)
                        .set(CastBlockPlacementPolicy.PLAN_PATH_KEY, plan.toString());
                clusters.add(b.build());
            }
            double[][] ops = new double[2][2];
            for (int r = -1; r < rounds; r++) {
                // Which policy goes first alternates, so that neither always runs on a warmer (or busier) machine.
                for (int k = 0; k < 2; k++) {
                    int c = (r & 1) == 0 ? k : 1 - k;
                    for (int p = 0; p < 2; p++) {
                        String dir = (p == 0 ? "/cast/job/r" : "/other/r") + r + "-";
                        double rate = run(clusters.get(c), dir, files);
                        if (r >= 0) {
                            ops[c][p] += rate / rounds;
                        }
                    }
                }
            }
            System.out.printf(
                    Locale.ROOT,
                    "%-8s %22s %22s%n",
                    "POLICY",
                    "PLANNED create+addBlock/s",
                    "UNPLANNED create+addBlock/s");
            for (int c = 0; c < 2; c++) {
                System.out.printf(Locale.ROOT, "%-8s %22.0f %22.0f%n", names[c], ops[c][0], ops[c][1]);
            }
            System.out.printf(
                    Locale.ROOT,
                    "cast/default: planned %.3f, unplanned %.3f (target >= 0.95; %d files x %d rounds)%n",
                    ops[1][0] / ops[0][0],
                    ops[1][1] / ops[0][1],
                    files,
                    rounds);
        } finally {
            for (TieredMiniCluster c : clusters) {
                c.close();
            }
        }
    }

    /** create + addBlock per file, one client thread; returns files per second. */
    private static double run(TieredMiniCluster cluster, String prefix, int files) throws Exception {
        ClientProtocol nn = cluster.fileSystem().getClient().getNamenode();
        String client = cluster.fileSystem().getClient().getClientName();
        long t0 = System.nanoTime();
        for (int i = 0; i < files; i++) {
            String src = prefix + i;
            HdfsFileStatus st = nn.create(
                    src,
                    FsPermission.getFileDefault(),
                    client,
                    new EnumSetWritable<>(EnumSet.of(CreateFlag.CREATE, CreateFlag.OVERWRITE)),
                    true,
                    (short) 2,
                    1 << 20,
                    org.apache.hadoop.crypto.CryptoProtocolVersion.supported(),
                    null,
                    null);
            nn.addBlock(src, client, null, null, st.getFileId(), null, null);
        }
        double sec = (System.nanoTime() - t0) / 1e9;
        cluster.fileSystem().delete(new org.apache.hadoop.fs.Path(prefix.substring(0, prefix.lastIndexOf('/'))), true);
        return files / sec;
    }
}
