package io.locus.hdfs;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Objects;

/**
 * A CAST tiering plan, the one schema both sides share ({@value #SCHEMA}): {@code locus-cast plan} writes it, the
 * NameNode's policy reads it ({@link PlacementMap}). Where each job's data goes, what each tier is provisioned with, and
 * what the model predicts. Immutable; Java 8, like the rest of the NameNode's jar.
 */
public final class CastPlan {
    /** The value of a plan file's {@code schema} key. */
    public static final String SCHEMA = "locus-cast-plan/1";

    private final String workload;
    private final String solver;
    private final String objective;
    private final long seed;
    private final List<PlannedTier> tiers;
    private final List<PlannedJob> jobs;
    private final Prediction predicted;

    /**
     * @param workload the workload's name
     * @param solver the solver that made it
     * @param objective {@code utility} or {@code deadline-cost}
     * @param seed the solver's seed
     * @param tiers every tier the plan uses, with its HDFS storage type, DataNode group and capacity
     * @param jobs every job's tier and shared dataset
     * @param predicted the model's prediction for the whole plan
     */
    public CastPlan(
            String workload,
            String solver,
            String objective,
            long seed,
            List<PlannedTier> tiers,
            List<PlannedJob> jobs,
            Prediction predicted) {
        this.workload = workload;
        this.solver = solver;
        this.objective = objective;
        this.seed = seed;
        this.tiers = Collections.unmodifiableList(new ArrayList<>(tiers));
        this.jobs = Collections.unmodifiableList(new ArrayList<>(jobs));
        this.predicted = predicted;
    }

    /**
     * Reads a plan file's JSON with Jackson's tree API, which the NameNode's own classpath has. Checks what placement
     * depends on (the schema, every tier's name, every job's id and tier, a non-empty job list) and takes the rest as
     * written, with "" or 0 where it is missing; {@code locus-cast} validates all of it when it writes and reads plans.
     *
     * @throws IOException naming the key and what was expected
     */
    public static CastPlan parseJson(String json) throws IOException {
        JsonNode plan;
        try {
            plan = new ObjectMapper().readTree(json);
        } catch (IOException e) {
            throw new IOException("not valid JSON (" + PlanWatch.firstLine(e.getMessage()) + ")", e);
        }
        if (plan == null
                || !plan.isObject()
                || !SCHEMA.equals(plan.path("schema").asText())) {
            throw new IOException("schema: expected \"" + SCHEMA + "\"");
        }
        JsonNode tierList = plan.path("tiers");
        if (!tierList.isArray()) {
            throw new IOException("tiers: expected a list");
        }
        List<PlannedTier> tiers = new ArrayList<>();
        List<String> tierNames = new ArrayList<>();
        for (int i = 0; i < tierList.size(); i++) {
            JsonNode t = tierList.get(i);
            String name = t.path("name").asText("");
            if (name.isEmpty()) {
                throw new IOException("tiers[" + i + "].name: expected a tier name");
            }
            JsonNode group = t.get("dataNodeGroup");
            tiers.add(new PlannedTier(
                    name,
                    t.path("storageType").asText(""),
                    group == null || group.isNull() || group.asText().isEmpty() ? null : group.asText(),
                    t.path("perVmGb").asDouble(0),
                    t.path("capacityGb").asDouble(0)));
            tierNames.add(name);
        }
        JsonNode jobList = plan.path("jobs");
        if (!jobList.isArray() || jobList.size() == 0) {
            throw new IOException("jobs: expected a non-empty list");
        }
        List<PlannedJob> jobs = new ArrayList<>();
        for (int i = 0; i < jobList.size(); i++) {
            JsonNode j = jobList.get(i);
            String id = j.path("id").asText("");
            String tier = j.path("tier").asText("");
            if (id.isEmpty() || id.contains("/")) {
                throw new IOException("jobs[" + i + "].id: expected a job id without '/'");
            }
            if (!tierNames.contains(tier)) {
                throw new IOException("jobs[" + i + "].tier: \"" + tier + "\" is not one of the plan's tiers");
            }
            JsonNode d = j.get("dataset");
            jobs.add(new PlannedJob(id, tier, d == null || d.isNull() ? null : d.asText()));
        }
        JsonNode p = plan.path("predicted");
        return new CastPlan(
                plan.path("workload").asText(""),
                plan.path("solver").asText(""),
                plan.path("objective").asText(""),
                plan.path("seed").asLong(0),
                tiers,
                jobs,
                new Prediction(
                        p.path("runtimeMin").asDouble(0),
                        p.path("vmCost").asDouble(0),
                        p.path("storeCost").asDouble(0),
                        p.path("utility").asDouble(0)));
    }

    public String workload() {
        return workload;
    }

    public String solver() {
        return solver;
    }

    public String objective() {
        return objective;
    }

    public long seed() {
        return seed;
    }

    public List<PlannedTier> tiers() {
        return tiers;
    }

    public List<PlannedJob> jobs() {
        return jobs;
    }

    public Prediction predicted() {
        return predicted;
    }

    @Override
    public boolean equals(Object o) {
        if (!(o instanceof CastPlan)) {
            return false;
        }
        CastPlan p = (CastPlan) o;
        return workload.equals(p.workload)
                && solver.equals(p.solver)
                && objective.equals(p.objective)
                && seed == p.seed
                && tiers.equals(p.tiers)
                && jobs.equals(p.jobs)
                && predicted.equals(p.predicted);
    }

    @Override
    public int hashCode() {
        return Objects.hash(workload, solver, objective, seed, tiers, jobs, predicted);
    }

    @Override
    public String toString() {
        return "CastPlan[" + workload + ", " + solver + ", " + objective + ", seed " + seed + ", " + tiers.size()
                + " tiers, " + jobs.size() + " jobs]";
    }

    /** A tier as provisioned by the plan; {@code dataNodeGroup} null when the tier's blocks may go anywhere. */
    public static final class PlannedTier {
        private final String name;
        private final String storageType;
        private final String dataNodeGroup;
        private final double perVmGb;
        private final double capacityGb;

        public PlannedTier(String name, String storageType, String dataNodeGroup, double perVmGb, double capacityGb) {
            this.name = name;
            this.storageType = storageType;
            this.dataNodeGroup = dataNodeGroup;
            this.perVmGb = perVmGb;
            this.capacityGb = capacityGb;
        }

        public String name() {
            return name;
        }

        public String storageType() {
            return storageType;
        }

        public String dataNodeGroup() {
            return dataNodeGroup;
        }

        public double perVmGb() {
            return perVmGb;
        }

        public double capacityGb() {
            return capacityGb;
        }

        @Override
        public boolean equals(Object o) {
            if (!(o instanceof PlannedTier)) {
                return false;
            }
            PlannedTier t = (PlannedTier) o;
            return name.equals(t.name)
                    && storageType.equals(t.storageType)
                    && Objects.equals(dataNodeGroup, t.dataNodeGroup)
                    && Double.compare(perVmGb, t.perVmGb) == 0
                    && Double.compare(capacityGb, t.capacityGb) == 0;
        }

        @Override
        public int hashCode() {
            return Objects.hash(name, storageType, dataNodeGroup, perVmGb, capacityGb);
        }

        @Override
        public String toString() {
            return "PlannedTier[" + name + ", " + storageType + ", group " + dataNodeGroup + ", " + capacityGb + " GB]";
        }
    }

    /** A job's placement; {@code dataset} null when the job shares no input. */
    public static final class PlannedJob {
        private final String id;
        private final String tier;
        private final String dataset;

        public PlannedJob(String id, String tier, String dataset) {
            this.id = id;
            this.tier = tier;
            this.dataset = dataset;
        }

        public String id() {
            return id;
        }

        public String tier() {
            return tier;
        }

        public String dataset() {
            return dataset;
        }

        @Override
        public boolean equals(Object o) {
            if (!(o instanceof PlannedJob)) {
                return false;
            }
            PlannedJob j = (PlannedJob) o;
            return id.equals(j.id) && tier.equals(j.tier) && Objects.equals(dataset, j.dataset);
        }

        @Override
        public int hashCode() {
            return Objects.hash(id, tier, dataset);
        }

        @Override
        public String toString() {
            return "PlannedJob[" + id + " on " + tier + (dataset == null ? "" : ", dataset " + dataset) + "]";
        }
    }

    /** The model's prediction: T in minutes, costs in dollars, utility in 1/(min·$). */
    public static final class Prediction {
        private final double runtimeMin;
        private final double vmCost;
        private final double storeCost;
        private final double utility;

        public Prediction(double runtimeMin, double vmCost, double storeCost, double utility) {
            this.runtimeMin = runtimeMin;
            this.vmCost = vmCost;
            this.storeCost = storeCost;
            this.utility = utility;
        }

        public double runtimeMin() {
            return runtimeMin;
        }

        public double vmCost() {
            return vmCost;
        }

        public double storeCost() {
            return storeCost;
        }

        public double utility() {
            return utility;
        }

        @Override
        public boolean equals(Object o) {
            if (!(o instanceof Prediction)) {
                return false;
            }
            Prediction p = (Prediction) o;
            return Double.compare(runtimeMin, p.runtimeMin) == 0
                    && Double.compare(vmCost, p.vmCost) == 0
                    && Double.compare(storeCost, p.storeCost) == 0
                    && Double.compare(utility, p.utility) == 0;
        }

        @Override
        public int hashCode() {
            return Objects.hash(runtimeMin, vmCost, storeCost, utility);
        }

        @Override
        public String toString() {
            return "Prediction[" + runtimeMin + " min, $" + vmCost + " + $" + storeCost + ", utility " + utility + "]";
        }
    }
}
