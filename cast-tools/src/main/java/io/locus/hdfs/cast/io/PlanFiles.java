package io.locus.hdfs.cast.io;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * Plan files ({@code schema: locus-cast-plan/1}, JSON or YAML). Reading validates the whole file before returning
 * anything: a plan that does not validate is never half-applied.
 */
public final class PlanFiles {
    private PlanFiles() {}

    public static final String SCHEMA = "locus-cast-plan/1";

    public static void write(Plan plan, Path p) {
        List<Object> tiers = new ArrayList<>();
        for (Plan.PlannedTier t : plan.tiers()) {
            tiers.add(Documents.map(
                    "name", t.name(),
                    "storageType", t.storageType(),
                    "dataNodeGroup", t.dataNodeGroup(),
                    "perVmGb", t.perVmGb(),
                    "capacityGb", t.capacityGb()));
        }
        List<Object> jobs = new ArrayList<>();
        for (Plan.PlannedJob j : plan.jobs()) {
            jobs.add(Documents.map("id", j.id(), "tier", j.tier(), "dataset", j.dataset()));
        }
        Plan.Prediction pr = plan.predicted();
        Documents.write(
                p,
                Documents.map(
                        "schema", SCHEMA,
                        "workload", plan.workload(),
                        "solver", plan.solver(),
                        "objective", plan.objective(),
                        "seed", plan.seed(),
                        "predicted",
                                Documents.map(
                                        "runtimeMin", pr.runtimeMin(),
                                        "vmCost", pr.vmCost(),
                                        "storeCost", pr.storeCost(),
                                        "utility", pr.utility()),
                        "tiers", tiers,
                        "jobs", jobs));
    }

    public static Plan read(Path p) {
        Node root = Documents.read(p, SCHEMA)
                .object(List.of("schema", "workload", "solver", "objective", "seed", "predicted", "tiers", "jobs"));
        List<Plan.PlannedTier> tiers = new ArrayList<>();
        Map<String, Plan.PlannedTier> byName = new LinkedHashMap<>();
        for (Node n : root.required("tiers").list()) {
            n.object(List.of("name", "storageType", "dataNodeGroup", "perVmGb", "capacityGb"));
            Node type = n.required("storageType");
            if (!TierFiles.STORAGE_TYPES.contains(type.string())) {
                throw type.error("an HDFS storage type "
                        + TierFiles.STORAGE_TYPES.stream().sorted().toList());
            }
            Plan.PlannedTier t = new Plan.PlannedTier(
                    n.required("name").string(),
                    type.string(),
                    n.get("dataNodeGroup").string(null),
                    n.required("perVmGb").number(0, Double.MAX_VALUE),
                    n.required("capacityGb").number(0, Double.MAX_VALUE));
            if (byName.put(t.name(), t) != null) {
                throw n.get("name").error("a tier name no other tier of the plan has");
            }
            tiers.add(t);
        }
        List<Plan.PlannedJob> jobs = new ArrayList<>();
        Set<String> ids = new HashSet<>();
        for (Node n : root.required("jobs").list()) {
            n.object(List.of("id", "tier", "dataset"));
            String id = n.required("id").string();
            if (!ids.add(id)) {
                throw n.get("id").error("a job id no other job of the plan has");
            }
            Node tier = n.required("tier");
            if (!byName.containsKey(tier.string())) {
                throw tier.error("one of the plan's tiers " + byName.keySet());
            }
            String dataset = n.get("dataset").string(null);
            jobs.add(new Plan.PlannedJob(id, tier.string(), dataset));
        }
        if (jobs.isEmpty()) {
            throw root.get("jobs").error("a list of at least one job");
        }
        Node pr = root.required("predicted").object(List.of("runtimeMin", "vmCost", "storeCost", "utility"));
        return new Plan(
                root.required("workload").string(),
                root.required("solver").string(),
                root.required("objective").string(),
                (long) root.required("seed").number(-9.0e15, 9.0e15),
                tiers,
                jobs,
                new Plan.Prediction(
                        pr.required("runtimeMin").number(0, Double.MAX_VALUE),
                        pr.required("vmCost").number(0, Double.MAX_VALUE),
                        pr.required("storeCost").number(0, Double.MAX_VALUE),
                        pr.required("utility").number(0, Double.MAX_VALUE)));
    }
}
