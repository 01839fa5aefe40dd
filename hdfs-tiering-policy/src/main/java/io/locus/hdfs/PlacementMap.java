package io.locus.hdfs;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.util.Collections;
import java.util.HashMap;
import java.util.Map;

/**
 * What the NameNode needs of a CAST plan file ({@code schema: locus-cast-plan/1}, JSON): the DataNode group of each
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
        JsonNode plan;
        try {
            plan = new ObjectMapper().readTree(json);
        } catch (IOException e) {
            throw new IOException("not valid JSON (" + PlanWatch.firstLine(e.getMessage()) + ")", e);
        }
        if (plan == null
                || !plan.isObject()
                || !"locus-cast-plan/1".equals(plan.path("schema").asText())) {
            throw new IOException("schema: expected \"locus-cast-plan/1\"");
        }
        Map<String, String> groupOfTier = new HashMap<>();
        JsonNode tiers = plan.path("tiers");
        if (!tiers.isArray()) {
            throw new IOException("tiers: expected a list");
        }
        for (int i = 0; i < tiers.size(); i++) {
            JsonNode t = tiers.get(i);
            String name = t.path("name").asText("");
            if (name.isEmpty()) {
                throw new IOException("tiers[" + i + "].name: expected a tier name");
            }
            JsonNode g = t.get("dataNodeGroup");
            groupOfTier.put(name, g == null || g.isNull() ? "" : g.asText());
        }
        Map<String, String> jobs = new HashMap<>();
        Map<String, String> datasets = new HashMap<>();
        JsonNode list = plan.path("jobs");
        if (!list.isArray() || list.isEmpty()) {
            throw new IOException("jobs: expected a non-empty list");
        }
        for (int i = 0; i < list.size(); i++) {
            JsonNode j = list.get(i);
            String id = j.path("id").asText("");
            String tier = j.path("tier").asText("");
            if (id.isEmpty() || id.contains("/")) {
                throw new IOException("jobs[" + i + "].id: expected a job id without '/'");
            }
            String group = groupOfTier.get(tier);
            if (group == null) {
                throw new IOException("jobs[" + i + "].tier: \"" + tier + "\" is not one of the plan's tiers");
            }
            jobs.put(id, group);
            JsonNode d = j.get("dataset");
            if (d != null && !d.isNull()) {
                datasets.putIfAbsent(d.asText(), group);
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
