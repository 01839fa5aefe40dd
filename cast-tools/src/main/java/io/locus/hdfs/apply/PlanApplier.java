package io.locus.hdfs.apply;

import io.locus.hdfs.CastPlan;
import java.io.IOException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.BlockLocation;
import org.apache.hadoop.fs.LocatedFileStatus;
import org.apache.hadoop.fs.Path;
import org.apache.hadoop.fs.QuotaUsage;
import org.apache.hadoop.fs.RemoteIterator;
import org.apache.hadoop.fs.StorageType;
import org.apache.hadoop.hdfs.DistributedFileSystem;
import org.apache.hadoop.hdfs.protocol.BlockStoragePolicy;
import org.apache.hadoop.hdfs.protocol.QuotaExceededException;
import org.apache.hadoop.hdfs.server.mover.Mover;
import org.apache.hadoop.util.ToolRunner;

/**
 * Carries a validated plan out on HDFS: creates each job's and shared dataset's directory under the root, sets its
 * storage policy from its tier's storage type, sets a per-storage-type space quota on the root (the plan's capacity
 * per storage type), moves existing blocks with the Storage Policy Satisfier where one runs, else with the Mover,
 * waits until every block is on its planned storage type, then re-places replicas outside their tier's DataNode group
 * ({@link GroupPlacer}).
 * Only what differs from the plan is changed, so applying an applied plan changes nothing. Tiers outside HDFS
 * ({@code EXTERNAL}) are left alone.
 */
public final class PlanApplier {
    /** Default storage type → storage policy map (all replicas on the type). */
    public static final Map<String, String> DEFAULT_POLICIES = Map.of(
            "SSD", "ALL_SSD", "DISK", "HOT", "ARCHIVE", "COLD", "RAM_DISK", "LAZY_PERSIST", "NVDIMM", "ALL_NVDIMM");

    /** One change (or, in a dry run, one change that would be made). */
    public record Action(String kind, String path, String detail) {}

    /** What apply did and what it found afterwards. */
    public record Result(List<Action> actions, long blocks, long blocksOnPlannedType, long blocksInPlannedGroup) {}

    /** Told how many of the planned blocks sit on their planned type while apply waits. */
    public interface Progress {
        void update(long onPlannedType, long total);
    }

    private final DistributedFileSystem fs;
    private final Configuration conf;
    private final String root;
    private final Map<String, String> policies;

    public PlanApplier(DistributedFileSystem fs, Configuration conf, String root, Map<String, String> policies) {
        this.fs = fs;
        this.conf = conf;
        this.root = root.endsWith("/") ? root.substring(0, root.length() - 1) : root;
        this.policies = policies;
    }

    /** Each planned HDFS directory and its storage type. */
    public Map<Path, StorageType> directories(CastPlan plan) {
        Map<String, String> typeOfTier = new LinkedHashMap<>();
        plan.tiers().forEach(t -> typeOfTier.put(t.name(), t.storageType()));
        Map<Path, StorageType> dirs = new LinkedHashMap<>();
        for (CastPlan.PlannedJob j : plan.jobs()) {
            String type = typeOfTier.get(j.tier());
            if ("EXTERNAL".equals(type)) {
                continue;
            }
            dirs.put(new Path(root + "/" + j.id()), StorageType.valueOf(type));
            if (j.dataset() != null) {
                dirs.putIfAbsent(new Path(root + "/datasets/" + j.dataset()), StorageType.valueOf(type));
            }
        }
        return dirs;
    }

    /**
     * Each planned HDFS directory whose tier names a DataNode group, and the group; a shared dataset takes the tier of
     * the first job that names it, as in {@link #directories}.
     */
    public Map<Path, String> groups(CastPlan plan) {
        Map<String, CastPlan.PlannedTier> tiers = new LinkedHashMap<>();
        plan.tiers().forEach(t -> tiers.put(t.name(), t));
        Map<Path, String> out = new LinkedHashMap<>();
        java.util.Set<String> datasets = new java.util.HashSet<>();
        for (CastPlan.PlannedJob j : plan.jobs()) {
            CastPlan.PlannedTier t = tiers.get(j.tier());
            boolean first = j.dataset() != null && datasets.add(j.dataset());
            if ("EXTERNAL".equals(t.storageType()) || t.dataNodeGroup() == null) {
                continue;
            }
            out.put(new Path(root + "/" + j.id()), t.dataNodeGroup());
            if (first) {
                out.put(new Path(root + "/datasets/" + j.dataset()), t.dataNodeGroup());
            }
        }
        return out;
    }

    /** Per-storage-type quota (bytes) on the root: the plan's capacity on that type. */
    public Map<StorageType, Long> quotas(CastPlan plan) {
        Map<StorageType, Long> q = new LinkedHashMap<>();
        for (CastPlan.PlannedTier t : plan.tiers()) {
            if (!"EXTERNAL".equals(t.storageType())) {
                q.merge(StorageType.valueOf(t.storageType()), (long) Math.ceil(t.capacityGb() * (1L << 30)), Long::sum);
            }
        }
        return q;
    }

    public Result apply(CastPlan plan, boolean dryRun, Duration wait, Progress progress) throws Exception {
        List<Action> actions = new ArrayList<>();
        Map<Path, StorageType> dirs = directories(plan);
        for (Map.Entry<Path, StorageType> e : dirs.entrySet()) {
            Path dir = e.getKey();
            String policy = policies.get(e.getValue().name());
            if (policy == null) {
                throw new IllegalArgumentException("no storage policy for storage type " + e.getValue()
                        + " (expected one of " + policies.keySet() + ")");
            }
            if (!fs.exists(dir)) {
                actions.add(new Action("mkdir", dir.toString(), ""));
                if (!dryRun) {
                    fs.mkdirs(dir);
                }
            }
            BlockStoragePolicy current = fs.exists(dir) ? (BlockStoragePolicy) fs.getStoragePolicy(dir) : null;
            if (current == null || !current.getName().equals(policy)) {
                actions.add(new Action(
                        "set-policy",
                        dir.toString(),
                        (current == null ? "(none)" : current.getName()) + " -> " + policy));
                if (!dryRun) {
                    fs.setStoragePolicy(dir, policy);
                }
            }
        }
        Path rootPath = new Path(root.isEmpty() ? "/" : root);
        for (Map.Entry<StorageType, Long> q : quotas(plan).entrySet()) {
            long current = fs.exists(rootPath) ? typeQuota(rootPath, q.getKey()) : -1;
            if (current != q.getValue()) {
                actions.add(new Action(
                        "set-quota",
                        rootPath.toString(),
                        q.getKey() + " " + current + " -> " + q.getValue() + " bytes"));
                if (!dryRun) {
                    fs.setQuotaByStorageType(rootPath, q.getKey(), q.getValue());
                }
            }
        }
        Map<Path, String> groups = groups(plan);
        GroupPlacer placer = new GroupPlacer(fs);
        if (dryRun) {
            for (Map.Entry<Path, String> g : groups.entrySet()) {
                List<Path> files = placer.misplacedFiles(g.getKey(), g.getValue());
                if (!files.isEmpty()) {
                    actions.add(regroupAction(g, files.size()));
                }
            }
            long[] c = count(dirs, groups);
            return new Result(actions, c[1], c[0], c[2]);
        }
        List<String> off = new ArrayList<>();
        for (Map.Entry<Path, StorageType> e : dirs.entrySet()) {
            long[] c = count(Map.of(e.getKey(), e.getValue()), Map.of());
            if (c[0] < c[1]) {
                off.add(e.getKey().toString());
            }
        }
        if (!off.isEmpty()) {
            String noSps = new Satisfier(fs).queue(off);
            if (noSps == null) {
                actions.add(new Action("satisfy", String.join(",", off), "Storage Policy Satisfier"));
            } else {
                actions.add(new Action("move", String.join(",", off), "Mover -p (" + noSps + ")"));
                List<String> args = new ArrayList<>(List.of("-p"));
                args.addAll(off);
                int rc = ToolRunner.run(new Configuration(conf), new Mover.Cli(), args.toArray(new String[0]));
                if (rc != 0) {
                    throw new IOException("the Mover exited with " + rc + " for " + off);
                }
            }
        }
        long deadline = System.nanoTime() + wait.toNanos();
        long[] c = count(dirs, groups);
        progress.update(c[0], c[1]);
        while (c[0] < c[1] && System.nanoTime() < deadline) {
            Thread.sleep(200);
            c = count(dirs, groups);
            progress.update(c[0], c[1]);
        }
        for (Map.Entry<Path, String> g : groups.entrySet()) {
            List<Path> files = placer.misplacedFiles(g.getKey(), g.getValue());
            if (files.isEmpty()) {
                continue;
            }
            actions.add(regroupAction(g, files.size()));
            for (Path f : files) {
                // A replica can miss the group when a DataNode of it is busy; a few rounds, not a loop.
                try {
                    for (int round = 0; round < 3; round++) {
                        long step = Math.max(0, deadline - System.nanoTime()) / 2;
                        if (placer.regroup(f, g.getValue(), step) == 0) {
                            break;
                        }
                    }
                } catch (QuotaExceededException e) {
                    // The extra replicas count against the root's per-type quota; this file stays where it is.
                    actions.add(new Action(
                            "regroup-skipped",
                            f.toString(),
                            "no quota for the extra replicas: "
                                    + String.valueOf(e.getMessage())
                                            .lines()
                                            .findFirst()
                                            .orElse("")));
                }
            }
        }
        c = count(dirs, groups);
        return new Result(actions, c[1], c[0], c[2]);
    }

    private static Action regroupAction(Map.Entry<Path, String> g, int files) {
        return new Action(
                "regroup",
                g.getKey().toString(),
                files + " file(s) with replicas outside group " + g.getValue()
                        + ": replication raised until the NameNode adds them in the group, then restored");
    }

    private long typeQuota(Path p, StorageType type) throws IOException {
        QuotaUsage u = fs.getQuotaUsage(p);
        return u.getTypeQuota(type);
    }

    /**
     * {blocks whose every replica is on the planned type, blocks, blocks whose every replica is in the planned group
     * (or whose tier has no group)} under the directories.
     */
    long[] count(Map<Path, StorageType> dirs, Map<Path, String> groups) throws IOException {
        long ok = 0;
        long total = 0;
        long inGroup = 0;
        for (Map.Entry<Path, StorageType> e : dirs.entrySet()) {
            if (!fs.exists(e.getKey())) {
                continue;
            }
            RemoteIterator<LocatedFileStatus> it = fs.listFiles(e.getKey(), true);
            while (it.hasNext()) {
                for (BlockLocation b : it.next().getBlockLocations()) {
                    total++;
                    boolean all = b.getStorageTypes().length > 0;
                    for (StorageType t : b.getStorageTypes()) {
                        all &= t == e.getValue();
                    }
                    ok += all ? 1 : 0;
                    String g = groups.get(e.getKey());
                    boolean in = true;
                    for (String p : b.getTopologyPaths()) {
                        in &= g == null || p.startsWith("/" + g + "/");
                    }
                    inGroup += in ? 1 : 0;
                }
            }
        }
        return new long[] {ok, total, inGroup};
    }
}
