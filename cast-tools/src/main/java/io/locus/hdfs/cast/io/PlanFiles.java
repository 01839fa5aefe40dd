package io.locus.hdfs.cast.io;

import io.locus.hdfs.CastPlan;
import io.locus.hdfs.cast.model.Evaluation;
import io.locus.hdfs.cast.model.Tier;
import io.locus.hdfs.cast.model.Workload;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * Plan files ({@code schema: locus-cast-plan/1}, JSON or YAML) of {@link CastPlan}, the type the NameNode's policy
 * reads too. Reading validates the whole file before returning
 * anything: a plan that does not validate is never half-applied.
 */
public final class PlanFiles {
    private PlanFiles() {}

    /** The schema the NameNode's plan reader expects, so both sides agree. */
    public static final String SCHEMA = CastPlan.SCHEMA;

    /** The plan for {@code tierOfJob} (indexes into the workload's tiers), with the model's evaluation of it. */
    public static CastPlan plan(Workload w, int[] tierOfJob, Evaluation e, String solver, String objective, long seed) {
        List<CastPlan.PlannedTier> tiers = new ArrayList<>();
        for (int t = 0; t < w.tiers().size(); t++) {
            if (e.capacityGb()[t] > 0) {
                Tier tier = w.tiers().get(t);
                tiers.add(new CastPlan.PlannedTier(
                        tier.name(), tier.storageType(), tier.dataNodeGroup(), e.perVmGb()[t], e.capacityGb()[t]));
            }
        }
        List<CastPlan.PlannedJob> jobs = new ArrayList<>();
        for (int i = 0; i < tierOfJob.length; i++) {
            jobs.add(new CastPlan.PlannedJob(
                    w.jobs().get(i).id(),
                    w.tiers().get(tierOfJob[i]).name(),
                    w.jobs().get(i).dataset()));
        }
        return new CastPlan(
                w.name(),
                solver,
                objective,
                seed,
                tiers,
                jobs,
                new CastPlan.Prediction(e.runtimeMin(), e.vmCost(), e.storeCost(), e.utility()));
    }

    public static void write(CastPlan plan, Path p) {
        List<Object> tiers = new ArrayList<>();
        for (CastPlan.PlannedTier t : plan.tiers()) {
            tiers.add(Documents.map(
                    "name", t.name(),
                    "storageType", t.storageType(),
                    "dataNodeGroup", t.dataNodeGroup(),
                    "perVmGb", t.perVmGb(),
                    "capacityGb", t.capacityGb()));
        }
        List<Object> jobs = new ArrayList<>();
        for (CastPlan.PlannedJob j : plan.jobs()) {
            jobs.add(Documents.map("id", j.id(), "tier", j.tier(), "dataset", j.dataset()));
        }
        CastPlan.Prediction pr = plan.predicted();
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

    public static CastPlan read(Path p) {
        Node root = Documents.read(p, SCHEMA)
                .object(List.of("schema", "workload", "solver", "objective", "seed", "predicted", "tiers", "jobs"));
        List<CastPlan.PlannedTier> tiers = new ArrayList<>();
        Map<String, CastPlan.PlannedTier> byName = new LinkedHashMap<>();
        for (Node n : root.required("tiers").list()) {
            n.object(List.of("name", "storageType", "dataNodeGroup", "perVmGb", "capacityGb"));
            Node type = n.required("storageType");
            if (!TierFiles.STORAGE_TYPES.contains(type.string())) {
                throw type.error("an HDFS storage type "
                        + TierFiles.STORAGE_TYPES.stream().sorted().toList());
            }
            CastPlan.PlannedTier t = new CastPlan.PlannedTier(
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
        List<CastPlan.PlannedJob> jobs = new ArrayList<>();
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
            jobs.add(new CastPlan.PlannedJob(id, tier.string(), dataset));
        }
        if (jobs.isEmpty()) {
            throw root.get("jobs").error("a list of at least one job");
        }
        Node pr = root.required("predicted").object(List.of("runtimeMin", "vmCost", "storeCost", "utility"));
        return new CastPlan(
                root.required("workload").string(),
                root.required("solver").string(),
                root.required("objective").string(),
                (long) root.required("seed").number(-9.0e15, 9.0e15),
                tiers,
                jobs,
                new CastPlan.Prediction(
                        pr.required("runtimeMin").number(0, Double.MAX_VALUE),
                        pr.required("vmCost").number(0, Double.MAX_VALUE),
                        pr.required("storeCost").number(0, Double.MAX_VALUE),
                        pr.required("utility").number(0, Double.MAX_VALUE)));
    }
}
