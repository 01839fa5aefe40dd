package io.locus.hdfs.cast.model;

/**
 * The model's verdict on one placement: workload time T, costs and tenant utility (Eqs. 4.2-4.6 of Yue Cheng's
 * dissertation), the capacity it provisions per tier, and how far it breaks hard limits.
 *
 * @param runtimeMin T, minutes
 * @param vmCost $vm, dollars
 * @param storeCost $store, dollars
 * @param capacityGb provisioned capacity per tier index (capacity[f])
 * @param perVmGb provisioned capacity per VM per tier index
 * @param jobRuntimeSec each job's runtime including its transfers, seconds (NaN for a job not placed)
 * @param violation how far hard limits are broken (GB over per-VM maxima and tier quotas, minutes over deadlines)
 */
public record Evaluation(
        double runtimeMin,
        double vmCost,
        double storeCost,
        double[] capacityGb,
        double[] perVmGb,
        double[] jobRuntimeSec,
        double violation) {

    public double totalCost() {
        return vmCost + storeCost;
    }

    /** Tenant utility U = (1/T) / ($vm + $store), T in minutes (Eq. 4.2). */
    public double utility() {
        return (1 / runtimeMin) / totalCost();
    }

    public boolean feasible() {
        return violation <= 1e-9;
    }

    /** Share of all provisioned capacity on each tier (Fig. 4.7(c)). */
    public double[] capacityShare() {
        double total = 0;
        for (double c : capacityGb) {
            total += c;
        }
        double[] share = new double[capacityGb.length];
        for (int i = 0; i < share.length; i++) {
            share[i] = total == 0 ? 0 : capacityGb[i] / total;
        }
        return share;
    }
}
