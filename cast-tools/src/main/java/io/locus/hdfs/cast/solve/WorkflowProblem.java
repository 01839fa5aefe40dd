package io.locus.hdfs.cast.solve;

import io.locus.hdfs.cast.model.Workflow;
import io.locus.hdfs.cast.model.WorkflowModel;
import io.locus.hdfs.cast.model.Workload;
import java.util.Arrays;

/**
 * CAST++'s deadline-cost objective for one workflow (Eqs. 4.8-4.10): minimise its cost subject to its deadline, with
 * transfers between tiers counted in its time. Hard score: minutes over the deadline plus GB over hard limits; soft:
 * −ln cost. Groups are the workflow's jobs in its (topological) order, so greedy and annealing visit them in DAG order.
 */
public final class WorkflowProblem implements Problem {
    private final Workload workload;
    private final WorkflowModel model;
    private final Workflow workflow;
    private final int[] jobIndex;

    public WorkflowProblem(Workload workload, Workflow workflow) {
        this.workload = workload;
        this.model = new WorkflowModel(workload);
        this.workflow = workflow;
        this.jobIndex = workflow.jobs().stream().mapToInt(workload::indexOf).toArray();
    }

    public Workflow workflow() {
        return workflow;
    }

    /** The workload job index of group {@code g}. */
    public int job(int g) {
        return jobIndex[g];
    }

    @Override
    public int groups() {
        return jobIndex.length;
    }

    @Override
    public int tiers() {
        return workload.tiers().size();
    }

    @Override
    public double[] levels(int tier) {
        return workload.tiers().get(tier).levels();
    }

    @Override
    public Score score(int[] tierOfGroup, int[] levelOfTier) {
        WorkflowModel.Result r = evaluate(tierOfGroup, levelOfTier);
        return new Score(-(r.lateMin() + r.violation()), -Math.log(r.totalCost()));
    }

    public WorkflowModel.Result evaluate(int[] tierOfGroup, int[] levelOfTier) {
        return model.evaluate(workflow, tierOfJob(tierOfGroup), floors(levelOfTier), true);
    }

    public int[] tierOfJob(int[] tierOfGroup) {
        int[] s = new int[workload.jobs().size()];
        Arrays.fill(s, -1);
        for (int g = 0; g < jobIndex.length; g++) {
            s[jobIndex[g]] = tierOfGroup[g];
        }
        return s;
    }

    public double[] floors(int[] levelOfTier) {
        double[] f = new double[levelOfTier.length];
        for (int t = 0; t < f.length; t++) {
            f[t] = levels(t)[levelOfTier[t]];
        }
        return f;
    }

    @Override
    public String describe() {
        return "CAST++ deadline-cost, workflow " + workflow.id() + " (" + jobIndex.length + " jobs)";
    }
}
