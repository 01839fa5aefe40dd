package io.locus.hdfs.cast.io;

import io.locus.hdfs.cast.model.Evaluation;
import io.locus.hdfs.cast.model.Tier;
import io.locus.hdfs.cast.model.Workload;
import java.util.ArrayList;
import java.util.List;

/**
 * A tiering plan as written to and read from a plan file ({@code schema: locus-cast-plan/1}): where each job's data
 * goes, what each tier is provisioned with, and what the model predicts.
 *
 * @param workload the workload's name
 * @param solver the solver that made it
 * @param objective {@code utility} or {@code deadline-cost}
 * @param seed the solver's seed
 * @param tiers every tier the plan uses, with its HDFS storage type, DataNode group and capacity
 * @param jobs every job's tier and shared dataset
 * @param predicted the model's prediction for the whole plan
 */
public record Plan(
        String workload,
        String solver,
        String objective,
        long seed,
        List<PlannedTier> tiers,
        List<PlannedJob> jobs,
        Prediction predicted) {

    public Plan {
        tiers = List.copyOf(tiers);
        jobs = List.copyOf(jobs);
    }

    /** A tier as provisioned by the plan. */
    public record PlannedTier(
            String name, String storageType, String dataNodeGroup, double perVmGb, double capacityGb) {}

    /** A job's placement. */
    public record PlannedJob(String id, String tier, String dataset) {}

    /** The model's prediction: T in minutes, costs in dollars, utility in 1/(min·$). */
    public record Prediction(double runtimeMin, double vmCost, double storeCost, double utility) {}

    /** The plan for {@code tierOfJob} (indexes into the workload's tiers), with the model's evaluation of it. */
    public static Plan of(Workload w, int[] tierOfJob, Evaluation e, String solver, String objective, long seed) {
        List<PlannedTier> tiers = new ArrayList<>();
        for (int t = 0; t < w.tiers().size(); t++) {
            if (e.capacityGb()[t] > 0) {
                Tier tier = w.tiers().get(t);
                tiers.add(new PlannedTier(
                        tier.name(), tier.storageType(), tier.dataNodeGroup(), e.perVmGb()[t], e.capacityGb()[t]));
            }
        }
        List<PlannedJob> jobs = new ArrayList<>();
        for (int i = 0; i < tierOfJob.length; i++) {
            jobs.add(new PlannedJob(
                    w.jobs().get(i).id(),
                    w.tiers().get(tierOfJob[i]).name(),
                    w.jobs().get(i).dataset()));
        }
        return new Plan(
                w.name(),
                solver,
                objective,
                seed,
                tiers,
                jobs,
                new Prediction(e.runtimeMin(), e.vmCost(), e.storeCost(), e.utility()));
    }
}
