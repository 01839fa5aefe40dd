package io.locus.demo.cast;

import io.locus.hdfs.CastBlockPlacementPolicy;
import io.locus.hdfs.CastPlan;
import io.locus.hdfs.apply.PlanApplier;
import io.locus.hdfs.cast.cli.CastCommand;
import io.locus.hdfs.cast.io.PlanFiles;
import io.locus.hdfs.cast.io.SwimTraces;
import io.locus.hdfs.cast.io.TierFiles;
import io.locus.hdfs.cast.io.WorkloadFiles;
import io.locus.hdfs.cast.model.Cluster;
import io.locus.hdfs.cast.model.Tier;
import io.locus.hdfs.cast.model.TierCatalog;
import io.locus.hdfs.cast.model.Workload;
import io.locus.hdfs.fixture.TieredMiniCluster;
import java.io.PrintWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.TreeSet;
import org.apache.hadoop.fs.BlockLocation;
import org.apache.hadoop.fs.LocatedFileStatus;
import org.apache.hadoop.fs.RemoteIterator;
import org.apache.hadoop.fs.StorageType;

/**
 * {@code ./locus demo}'s CAST step: plan the first jobs of the FB-2010 SWIM trace and print the predicted cost and
 * runtime per configuration; plan the workflow workload (deadline-cost), apply that plan to a MiniDFSCluster running
 * the placement policy (one small file per job stands for its input), and print where the blocks really are.
 *
 * <p>Arguments: the SWIM directory, a work directory (under target/), the module's examples directory.
 */
public final class CastDemo {
    private CastDemo() {}

    public static void main(String[] args) throws Exception {
        System.setProperty("org.slf4j.simpleLogger.defaultLogLevel", "warn");
        Path swim = Path.of(args.length > 0 ? args[0] : "../data/swim");
        Path work = Path.of(args.length > 1 ? args[1] : "target/cast-demo").toAbsolutePath();
        Files.createDirectories(work);
        // The paper's tiers, with ephSSD and persSSD both on SSD and told apart by DataNode group (rack).
        List<Tier> tiers = new ArrayList<>();
        for (Tier t : TierCatalog.paper().all()) {
            String type = t.name().equals("persSSD") ? "SSD" : t.storageType();
            String group = t.name().equals("ephSSD") ? "eph" : t.name().equals("persSSD") ? "pers" : null;
            tiers.add(new Tier(
                    t.name(),
                    type,
                    group,
                    t.pricePerGbMonth(),
                    t.curve(),
                    t.iops(),
                    t.minPerVmGb(),
                    t.maxPerVmGb(),
                    t.volumeGb(),
                    t.persistent(),
                    t.backingTier(),
                    t.intermediateTier(),
                    t.elastic(),
                    t.perFileOverheadSec(),
                    t.capacityLimitGb(),
                    t.levels()));
        }
        TierCatalog catalog = new TierCatalog(tiers);
        Path tierFile = work.resolve("tiers.yaml");
        TierFiles.write(catalog, tierFile);
        Workload w = SwimTraces.read(
                swim.resolve("FB-2010_samples_24_times_1hr_withInputPaths_0.tsv"), Cluster.DEFAULT, catalog, 400);
        Path workload = work.resolve("fb2010-400.yaml");
        WorkloadFiles.write(w, workload);
        Path planFile = work.resolve("plan.json");
        System.out.println("== CAST plan for the first 400 jobs of FB-2010 (predicted, 25 VMs) ==");
        int rc = CastCommand.run(
                new PrintWriter(System.out, true),
                new PrintWriter(System.err, true),
                "plan",
                "--workload",
                workload.toString(),
                "--tiers",
                tierFile.toString(),
                "--solver",
                "optaplanner",
                "--out",
                planFile.toString());
        if (rc != 0) {
            throw new IllegalStateException("plan exited with " + rc);
        }
        // The HDFS step applies the plan of the workflow workload (CAST++, each workflow at least cost within its
        // deadline), whose jobs land on ephSSD and persSSD: both SSD, two DataNode groups.
        Workload flows = WorkloadFiles.read(
                Path.of(args.length > 2 ? args[2] : "examples").resolve("workflows.yaml"), catalog);
        Path flowsFile = work.resolve("workflows.yaml");
        WorkloadFiles.write(flows, flowsFile);
        System.out.println();
        System.out.println("== CAST++ deadline-cost plan for the 5-workflow, 31-job workload (predicted) ==");
        rc = CastCommand.run(
                new PrintWriter(System.out, true),
                new PrintWriter(System.err, true),
                "plan",
                "--workload",
                flowsFile.toString(),
                "--tiers",
                tierFile.toString(),
                "--solver",
                "optaplanner",
                "--objective",
                "deadline-cost",
                "--out",
                planFile.toString());
        if (rc != 0) {
            throw new IllegalStateException("plan exited with " + rc);
        }
        CastPlan plan = PlanFiles.read(planFile);
        // Capacities shrink to the demo's scale: one 1 MiB file per job, 2 replicas.
        List<CastPlan.PlannedTier> small = plan.tiers().stream()
                .map(t -> new CastPlan.PlannedTier(t.name(), t.storageType(), t.dataNodeGroup(), t.perVmGb(), 1.0))
                .toList();
        CastPlan scaled = new CastPlan(
                plan.workload(), plan.solver(), plan.objective(), plan.seed(), small, plan.jobs(), plan.predicted());
        PlanFiles.write(scaled, planFile);

        try (TieredMiniCluster cluster = TieredMiniCluster.builder()
                .baseDir(work.resolve("hdfs"))
                .dataNodes(4, StorageType.SSD, StorageType.DISK, StorageType.ARCHIVE)
                .racks("/eph", "/eph", "/pers", "/pers")
                .placementPolicy(CastBlockPlacementPolicy.class)
                .set(CastBlockPlacementPolicy.PLAN_PATH_KEY, planFile.toString())
                .build()) {
            PlanApplier applier = new PlanApplier(
                    cluster.fileSystem(), cluster.configuration(), "/cast", PlanApplier.DEFAULT_POLICIES);
            Map<org.apache.hadoop.fs.Path, StorageType> dirs = applier.directories(scaled);
            // Directories and policies first, so that the placement policy places each new block in its tier's group
            // (the Mover moves by storage type only and knows nothing of groups).
            applier.apply(scaled, false, Duration.ofSeconds(120), (ok, total) -> {});
            int n = 0;
            for (org.apache.hadoop.fs.Path dir : dirs.keySet()) {
                if (!dir.getParent().getName().equals("datasets") && n++ < 60) {
                    cluster.writeFile(new org.apache.hadoop.fs.Path(dir, "input"), new byte[1 << 20]);
                }
            }
            PlanApplier.Result r = applier.apply(scaled, false, Duration.ofSeconds(120), (ok, total) -> {});
            Map<String, String> tierOfJob = new TreeMap<>();
            scaled.jobs().forEach(j -> tierOfJob.put(j.id(), j.tier()));
            Map<String, int[]> perTier = new TreeMap<>();
            Map<String, TreeSet<String>> where = new TreeMap<>();
            RemoteIterator<LocatedFileStatus> it =
                    cluster.fileSystem().listFiles(new org.apache.hadoop.fs.Path("/cast"), true);
            while (it.hasNext()) {
                LocatedFileStatus f = it.next();
                String tier = tierOfJob.get(f.getPath().getParent().getName());
                for (BlockLocation b : f.getBlockLocations()) {
                    perTier.computeIfAbsent(tier, k -> new int[1])[0]++;
                    TreeSet<String> seen = where.computeIfAbsent(tier, k -> new TreeSet<>());
                    for (int i = 0; i < b.getStorageTypes().length; i++) {
                        String rack = b.getTopologyPaths()[i].substring(0, b.getTopologyPaths()[i].lastIndexOf('/'));
                        seen.add(b.getStorageTypes()[i] + "@" + rack);
                    }
                }
            }
            System.out.println();
            System.out.println(
                    "== Applied to a MiniDFSCluster (4 DataNodes: SSD+DISK+ARCHIVE, racks /eph and /pers) ==");
            System.out.printf("%-10s %7s  %s%n", "TIER", "BLOCKS", "REPLICAS SEEN (storage type @ DataNode group)");
            for (Map.Entry<String, TreeSet<String>> e : where.entrySet()) {
                System.out.printf(
                        "%-10s %7d  %s%n", e.getKey(), perTier.get(e.getKey())[0], String.join(", ", e.getValue()));
            }
            System.out.printf("%d of %d blocks on their planned storage type%n", r.blocksOnPlannedType(), r.blocks());
            System.out.printf(
                    "%d of %d blocks with every replica in their tier's DataNode group (a tier without one counts as in)%n",
                    r.blocksInPlannedGroup(), r.blocks());
            if (r.blocksOnPlannedType() != r.blocks() || r.blocksInPlannedGroup() != r.blocks()) {
                System.exit(1);
            }
        }
    }
}
