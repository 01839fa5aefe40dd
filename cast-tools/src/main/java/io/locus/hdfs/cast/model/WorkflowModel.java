package io.locus.hdfs.cast.model;

import java.util.List;

/**
 * Evaluates one workflow under a placement with CAST++'s workflow formulation (Eqs. 4.8-4.10 of Yue Cheng's
 * dissertation, §4.3.3), solved per workflow:
 *
 * <pre>
 * minimise $total = $vm + $store                                                          (4.8)
 * Σ_i REG(s_i, s_{i+1}, capacity[s_i], R̂, L̂_i) ≤ deadline                                (4.9)
 * c_i ≥ (s_{i-1} ≠ s_i)·input_i + inter_i + (s_{i+1} = s_i)·output_i,   s_0 = φ          (4.10)
 * </pre>
 *
 * Read per job and generalised from chains to DAGs: the part of a job's input that a parent wrote is charged on the
 * job's tier only when the parent's tier differs (otherwise it is the parent's output, already there); the rest of its
 * input is external and always charged; its output is charged on its own tier when a child shares the tier or it has
 * no child (a final result must be kept). When a parent and a child sit on different tiers the parent's output moves
 * between them, and that transfer is part of the workflow's time (what REG's s_{i+1} argument stands for). Jobs run
 * one after another (Eq. 4.9 sums them); the workflow is provisioned and billed on its own.
 */
public final class WorkflowModel {
    private final Workload workload;

    public WorkflowModel(Workload workload) {
        this.workload = workload;
    }

    /** The verdict on one workflow: time, cost, and whether it meets its deadline. */
    public record Result(
            String workflow,
            double runtimeMin,
            double transferMin,
            double vmCost,
            double storeCost,
            double deadlineMin,
            double[] capacityGb,
            double violation) {
        public double totalCost() {
            return vmCost + storeCost;
        }

        public boolean meetsDeadline() {
            return runtimeMin <= deadlineMin + 1e-9;
        }

        /** Minutes over the deadline, 0 when it is met. */
        public double lateMin() {
            return Math.max(0, runtimeMin - deadlineMin);
        }
    }

    /**
     * Evaluates workflow {@code w} with each job on {@code tierOfJob} (indexed like the workload's jobs) and per-VM
     * floors per tier (-1 leaves a job out). {@code countTransfers} false is the workflow-oblivious view basic CAST plans with.
     */
    public Result evaluate(Workflow w, int[] tierOfJob, double[] floorPerVmGb, boolean countTransfers) {
        Cluster c = workload.cluster();
        TierCatalog tiers = workload.tiers();
        int nt = tiers.size();
        double[] need = new double[nt];
        List<String> ids = w.jobs();
        for (String id : ids) {
            int i = workload.indexOf(id);
            Job j = workload.jobs().get(i);
            int f = tierOfJob[i];
            if (f < 0) {
                continue;
            }
            Tier t = tiers.get(f);
            int inter = t.intermediateTier() == null ? f : tiers.indexOf(t.intermediateTier());
            int b = t.persistent() ? -1 : tiers.indexOf(t.backingTier());
            need[inter] += j.interGb();
            double fromParents = 0;
            for (String p : w.parentsOf(id)) {
                Job pj = workload.jobs().get(workload.indexOf(p));
                fromParents += pj.outputGb();
                int pf = tierOfJob[workload.indexOf(p)];
                if (pf >= 0 && pf != f) {
                    need[f] += pj.outputGb();
                }
            }
            double external = Math.max(0, j.inputGb() - fromParents);
            need[f] += external;
            if (b >= 0) {
                need[b] += external;
            }
            List<String> children = w.childrenOf(id);
            boolean keep = children.isEmpty() || children.stream().anyMatch(ch -> tierOfJob[workload.indexOf(ch)] == f);
            if (keep) {
                need[f] += j.outputGb();
            }
            if (b >= 0 && children.isEmpty()) {
                need[b] += j.outputGb();
            }
        }
        double[] perVm = new double[nt];
        double[] capacity = new double[nt];
        double[] bw = new double[nt];
        double[] price = new double[nt];
        double violation = 0;
        for (int f = 0; f < nt; f++) {
            Tier t = tiers.get(f);
            perVm[f] = need[f] > 0 ? t.provisionPerVm(need[f], c.nVm(), floorPerVmGb[f]) : 0;
            capacity[f] = perVm[f] * c.nVm();
            bw[f] = t.bandwidthAt(perVm[f]);
            price[f] = t.pricePerGbHour(c.hoursPerMonth());
            violation += Math.max(0, perVm[f] - t.maxPerVmGb()) * c.nVm();
            violation += Math.max(0, capacity[f] - t.capacityLimitGb());
        }
        double sec = 0;
        double transferSec = 0;
        for (String id : ids) {
            int i = workload.indexOf(id);
            Job j = workload.jobs().get(i);
            int f = tierOfJob[i];
            if (f < 0) {
                continue;
            }
            Tier t = tiers.get(f);
            int inter = t.intermediateTier() == null ? f : tiers.indexOf(t.intermediateTier());
            sec += Estimator.runtimeSec(c, j, t, bw[f], bw[inter]);
            double fromParents = 0;
            for (String p : w.parentsOf(id)) {
                int pi = workload.indexOf(p);
                Job pj = workload.jobs().get(pi);
                fromParents += pj.outputGb();
                if (countTransfers && tierOfJob[pi] >= 0 && tierOfJob[pi] != f) {
                    transferSec += Estimator.transferSec(c, pj.outputGb(), pj.reduces(), bw[tierOfJob[pi]], bw[f]);
                }
            }
            if (!t.persistent()) {
                int b = tiers.indexOf(t.backingTier());
                sec += Estimator.transferSec(c, Math.max(0, j.inputGb() - fromParents), j.maps(), bw[b], bw[f]);
                if (w.childrenOf(id).isEmpty()) {
                    sec += Estimator.transferSec(c, j.outputGb(), j.reduces(), bw[f], bw[b]);
                }
            }
        }
        double minutes = (sec + transferSec) / 60;
        return new Result(
                w.id(),
                minutes,
                transferSec / 60,
                CastModel.vmCost(c, minutes),
                CastModel.storeCost(capacity, price, minutes),
                w.deadlineMin(),
                capacity,
                violation);
    }
}
