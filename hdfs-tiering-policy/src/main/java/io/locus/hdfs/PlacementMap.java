package io.locus.hdfs;

import java.io.IOException;
import java.util.Collections;
import java.util.HashMap;
import java.util.Map;

/**
 * What the NameNode needs of a CAST plan ({@link CastPlan}, read from its JSON file): the DataNode group of each
 * planned directory. Job {@code j} owns {@code <root>/j}, dataset {@code d} owns {@code <root>/datasets/d}; a directory
 * whose tier names no DataNode group is planned but unrestricted. Uses only Jackson's tree API, which Hadoop's own
 * classpath has, so the NameNode needs nothing else.
 */
final class PlacementMap {
    static final PlacementMap EMPTY = new PlacementMap("/cast", Collections.emptyMap(), Collections.emptyMap());

    private final String root;
    private final Map<String, String> groupOfJob;
    private final Map<String, String> groupOfDataset;

    private PlacementMap(String root, Map<String, String> groupOfJob, Map<String, String> groupOfDataset) {
        this.root = root.endsWith("/") ? root.substring(0, root.length() - 1) : root;
        this.groupOfJob = groupOfJob;
        this.groupOfDataset = groupOfDataset;
    }

    /** Parses a plan; any problem is an IOException naming the key and what was expected. */
    static PlacementMap parse(String json, String root) throws IOException {
        return of(CastPlan.parseJson(json), root);
    }

    /** Where {@code plan} puts each job's and dataset's directory under {@code root}. */
    static PlacementMap of(CastPlan plan, String root) {
        Map<String, String> groupOfTier = new HashMap<>();
        for (CastPlan.PlannedTier t : plan.tiers()) {
            groupOfTier.put(t.name(), t.dataNodeGroup() == null ? "" : t.dataNodeGroup());
        }
        Map<String, String> jobs = new HashMap<>();
        Map<String, String> datasets = new HashMap<>();
        for (CastPlan.PlannedJob j : plan.jobs()) {
            String group = groupOfTier.get(j.tier());
            jobs.put(j.id(), group);
            if (j.dataset() != null) {
                datasets.putIfAbsent(j.dataset(), group);
            }
        }
        return new PlacementMap(root, jobs, datasets);
    }

    /** The DataNode group planned for {@code path}, "" for planned but unrestricted, null for an unplanned path. */
    String groupOf(String path) {
        if (path == null || !path.startsWith(root + "/")) {
            return null;
        }
        String[] parts = path.substring(root.length() + 1).split("/", 3);
        if (parts[0].equals("datasets")) {
            return parts.length > 1 ? groupOfDataset.get(parts[1]) : null;
        }
        return groupOfJob.get(parts[0]);
    }

    /** Whether some planned directory is restricted to {@code group}. */
    boolean plansGroup(String group) {
        return groupOfJob.containsValue(group);
    }

    int plannedJobs() {
        return groupOfJob.size();
    }
}
