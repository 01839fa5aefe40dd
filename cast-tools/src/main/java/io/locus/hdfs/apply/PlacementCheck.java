package io.locus.hdfs.apply;

import io.locus.hdfs.CastPlan;
import java.io.IOException;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import org.apache.hadoop.fs.BlockLocation;
import org.apache.hadoop.fs.LocatedFileStatus;
import org.apache.hadoop.fs.Path;
import org.apache.hadoop.fs.RemoteIterator;
import org.apache.hadoop.hdfs.DistributedFileSystem;

/** Where a plan's blocks really are, per tier: on the planned storage type, and inside the planned DataNode group. */
public final class PlacementCheck {
    private PlacementCheck() {}

    /**
     * Per tier: files, blocks, blocks with every replica on the planned type, and (if grouped) in the group; the
     * planned group and the DataNode groups (racks) that actually hold its replicas.
     */
    public record TierPlacement(
            String tier,
            long files,
            long blocks,
            long onPlannedType,
            long inPlannedGroup,
            String plannedGroup,
            Set<String> actualGroups) {}

    public static Map<String, TierPlacement> check(DistributedFileSystem fs, CastPlan plan, String root)
            throws IOException {
        String r = root.endsWith("/") ? root.substring(0, root.length() - 1) : root;
        Map<String, CastPlan.PlannedTier> tiers = new LinkedHashMap<>();
        plan.tiers().forEach(t -> tiers.put(t.name(), t));
        Map<String, long[]> counts = new LinkedHashMap<>();
        Map<String, Set<String>> racks = new LinkedHashMap<>();
        plan.tiers().forEach(t -> {
            counts.put(t.name(), new long[4]);
            racks.put(t.name(), new TreeSet<>());
        });
        // A shared dataset lives on the tier of the first job that names it, as apply places it.
        Set<String> datasets = new HashSet<>();
        for (CastPlan.PlannedJob j : plan.jobs()) {
            CastPlan.PlannedTier t = tiers.get(j.tier());
            List<Path> dirs = new ArrayList<>(List.of(new Path(r + "/" + j.id())));
            if (j.dataset() != null && datasets.add(j.dataset())) {
                dirs.add(new Path(r + "/datasets/" + j.dataset()));
            }
            if ("EXTERNAL".equals(t.storageType())) {
                continue;
            }
            for (Path dir : dirs) {
                if (fs.exists(dir)) {
                    count(fs, dir, t, counts.get(t.name()), racks.get(t.name()));
                }
            }
        }
        Map<String, TierPlacement> out = new LinkedHashMap<>();
        counts.forEach((name, c) -> out.put(
                name,
                new TierPlacement(name, c[0], c[1], c[2], c[3], tiers.get(name).dataNodeGroup(), racks.get(name))));
        return out;
    }

    private static void count(DistributedFileSystem fs, Path dir, CastPlan.PlannedTier t, long[] c, Set<String> racks)
            throws IOException {
        RemoteIterator<LocatedFileStatus> it = fs.listFiles(dir, true);
        while (it.hasNext()) {
            LocatedFileStatus f = it.next();
            c[0]++;
            for (BlockLocation b : f.getBlockLocations()) {
                c[1]++;
                boolean type = b.getStorageTypes().length > 0;
                for (var st : b.getStorageTypes()) {
                    type &= st.name().equals(t.storageType());
                }
                boolean group = t.dataNodeGroup() == null || b.getTopologyPaths().length > 0;
                for (String p : b.getTopologyPaths()) {
                    group &= t.dataNodeGroup() == null || p.startsWith("/" + t.dataNodeGroup() + "/");
                    String rack = p.substring(0, Math.max(0, p.lastIndexOf('/')));
                    racks.add(rack.startsWith("/") ? rack.substring(1) : rack);
                }
                c[2] += type ? 1 : 0;
                c[3] += group ? 1 : 0;
            }
        }
    }
}
