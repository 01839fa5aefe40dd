package io.locus.hdfs.cast.model;

import java.util.Arrays;
import java.util.List;
import java.util.Objects;

/**
 * One storage tier (a cloud storage service in the dissertation, an HDFS storage type here).
 *
 * <p>Performance scales with the capacity provisioned on each VM (Yue Cheng, "Workload-aware Efficient Storage
 * Systems", §4.2.1, Fig. 4.2): {@code curve} gives the tier's per-VM bandwidth in MB/s at per-VM capacities in GB,
 * linear between points and flat past the last one; a single point is a tier whose bandwidth does not depend on
 * capacity (the object store). Volume tiers (ephemeral SSD) are bought in whole volumes of {@code volumeGb}.
 *
 * @param name the tier's name in workloads and plans ({@code ephSSD}, ...)
 * @param storageType the HDFS storage type its data goes to ({@code SSD}, {@code DISK}, {@code ARCHIVE}, or
 *     {@code EXTERNAL} for a store outside HDFS)
 * @param dataNodeGroup the DataNode group holding the tier, or null for all DataNodes with that storage type
 * @param pricePerGbMonth dollars per GB-month of provisioned capacity
 * @param curve per-VM bandwidth (MB/s) at per-VM capacity (GB), ascending in capacity
 * @param iops 4 KB IOPS per VM at the largest curve point (informational: the model is throughput-bound)
 * @param minPerVmGb smallest per-VM capacity that can be provisioned once the tier is used
 * @param maxPerVmGb largest per-VM capacity (hard constraint; ephSSD: 4 volumes of 375 GB)
 * @param volumeGb capacity is provisioned in whole volumes of this size; 0 for continuous capacity
 * @param persistent false when data is lost with the VM: input comes from {@code backingTier} and output goes back
 * @param backingTier where a non-persistent tier's data persists (null when persistent)
 * @param intermediateTier where intermediate data goes when a job's data is on this tier (null: this tier)
 * @param elastic billed on use and never provisioned ahead (the object store); capacity levels do not apply
 * @param perFileOverheadSec extra seconds per small file a reduce task writes (the object store's per-request cost)
 * @param capacityLimitGb total capacity the tier may hold (a quota); infinite when unlimited
 * @param levels per-VM capacities (GB) the solvers may provision above the exact fit; 0 means exact fit
 */
public record Tier(
        String name,
        String storageType,
        String dataNodeGroup,
        double pricePerGbMonth,
        double[][] curve,
        double iops,
        double minPerVmGb,
        double maxPerVmGb,
        double volumeGb,
        boolean persistent,
        String backingTier,
        String intermediateTier,
        boolean elastic,
        double perFileOverheadSec,
        double capacityLimitGb,
        double[] levels) {

    public Tier {
        Objects.requireNonNull(name, "name");
        Objects.requireNonNull(storageType, "storageType");
        if (curve == null || curve.length == 0) {
            throw new IllegalArgumentException("tier " + name + ": empty throughput curve");
        }
        for (int i = 0; i < curve.length; i++) {
            if (curve[i].length != 2 || curve[i][1] < 0 || (i > 0 && curve[i][0] <= curve[i - 1][0])) {
                throw new IllegalArgumentException(
                        "tier " + name + ": throughput curve must be [GB, MB/s] pairs ascending in GB");
            }
        }
        if (!persistent && backingTier == null) {
            throw new IllegalArgumentException("tier " + name + ": a non-persistent tier needs a backingTier");
        }
        if (levels == null || levels.length == 0) {
            levels = new double[] {0};
        }
    }

    /** Per-VM bandwidth in MB/s with {@code perVmGb} provisioned on each VM. */
    public double bandwidthAt(double perVmGb) {
        if (curve.length == 1) {
            return curve[0][1];
        }
        if (perVmGb <= curve[0][0]) {
            return curve[0][1] * (curve[0][0] == 0 ? 1 : perVmGb / curve[0][0]);
        }
        for (int i = 1; i < curve.length; i++) {
            if (perVmGb <= curve[i][0]) {
                double t = (perVmGb - curve[i - 1][0]) / (curve[i][0] - curve[i - 1][0]);
                return curve[i - 1][1] + t * (curve[i][1] - curve[i - 1][1]);
            }
        }
        return curve[curve.length - 1][1];
    }

    /**
     * The per-VM capacity actually provisioned when the tier must hold {@code needGb} in total on {@code nVm} VMs and
     * the solver asked for at least {@code floorPerVmGb}: at least the minimum, rounded up to whole volumes.
     */
    public double provisionPerVm(double needGb, int nVm, double floorPerVmGb) {
        if (needGb <= 0 && floorPerVmGb <= 0) {
            return 0;
        }
        double perVm = needGb / nVm;
        if (elastic) {
            return perVm;
        }
        perVm = Math.max(perVm, Math.max(minPerVmGb, floorPerVmGb));
        if (volumeGb > 0) {
            perVm = Math.ceil(perVm / volumeGb - 1e-9) * volumeGb;
        }
        return perVm;
    }

    /** Dollars per GB-hour, with {@code hoursPerMonth} hours in a billing month. */
    public double pricePerGbHour(double hoursPerMonth) {
        return pricePerGbMonth / hoursPerMonth;
    }

    /** The curve's point capacities and bandwidths, as lists (for writing tier files). */
    public List<List<Double>> curveAsList() {
        return Arrays.stream(curve).map(p -> List.of(p[0], p[1])).toList();
    }

    @Override
    public boolean equals(Object o) {
        return o instanceof Tier t && t.name.equals(name);
    }

    @Override
    public int hashCode() {
        return name.hashCode();
    }

    @Override
    public String toString() {
        return name;
    }
}
