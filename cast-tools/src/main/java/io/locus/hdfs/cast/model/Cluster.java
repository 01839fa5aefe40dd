package io.locus.hdfs.cast.model;

/**
 * The compute side of the model (R̂ of Table 4.3 in Yue Cheng's dissertation, §4.3.1): VMs, task slots and prices.
 *
 * <p>Defaults: 25 worker VMs of 16 vCPUs (the 400-core cluster of §4.4), one map and one reduce slot per vCPU, $0.80
 * per VM-hour (the 2015 list price of an n1-standard-16; the dissertation gives none), 256 MB splits (its Fig. 4.5 run:
 * 6 GB in 24 map tasks), 730 hours per billing month.
 *
 * @param nVm worker VMs (n_vm)
 * @param mapSlotsPerVm map slots per VM (m_c)
 * @param reduceSlotsPerVm reduce slots per VM (r_c)
 * @param vmPricePerHour dollars per VM-hour (price_vm × 60)
 * @param splitMb input split size, MB
 * @param hoursPerMonth hours in the month that tier prices are quoted for
 * @param replication replicas of persistent input and output counted in capacity
 */
public record Cluster(
        int nVm,
        int mapSlotsPerVm,
        int reduceSlotsPerVm,
        double vmPricePerHour,
        double splitMb,
        double hoursPerMonth,
        int replication) {

    public static final Cluster DEFAULT = new Cluster(25, 16, 16, 0.80, 256, 730, 1);

    public Cluster {
        if (nVm < 1 || mapSlotsPerVm < 1 || reduceSlotsPerVm < 1 || replication < 1) {
            throw new IllegalArgumentException("cluster: nVm, slots and replication must be at least 1");
        }
        if (!(vmPricePerHour >= 0) || !(splitMb > 0) || !(hoursPerMonth > 0)) {
            throw new IllegalArgumentException("cluster: prices must be ≥ 0, splitMb and hoursPerMonth > 0");
        }
    }

    /** Dollars per VM-minute (price_vm of Table 4.3). */
    public double vmPricePerMinute() {
        return vmPricePerHour / 60;
    }

    /** Reduce tasks for a job of {@code maps} map tasks: a quarter of the maps, at least 1, at most one wave. */
    public int defaultReduces(int maps) {
        return (int) Math.max(1, Math.min(Math.ceil(0.25 * maps), (long) nVm * reduceSlotsPerVm));
    }
}
