package io.locus.hdfs.cast.model;

/**
 * The runtime estimator: Eq. 4.1 of Yue Cheng's dissertation (§4.3.1, after MRCute) with the capacity scaling that
 * the dissertation's REG regression captures (§4.3.2, Fig. 4.2).
 *
 * <p>Eq. 4.1, reconstructed (the OCR keeps the map and shuffle terms; the reduce term is rebuilt by symmetry):
 *
 * <pre>
 * EST = ⌈m / (n_vm·m_c)⌉ · (input/m) / bw_map          map phase:     #waves × runtime per wave
 *     + ⌈r / (n_vm·r_c)⌉ · (inter/r) / bw_shuffle      shuffle phase
 *     + ⌈r / (n_vm·r_c)⌉ · (output/r) / bw_reduce      reduce phase
 * </pre>
 *
 * REG here is physical rather than fitted: a task's bandwidth on tier f is {@code min(rate, B_f(c)/slots)} where
 * {@code B_f(c)} is the tier's per-VM bandwidth at the per-VM capacity c provisioned across the workload ({@link
 * Tier#bandwidthAt}). That reproduces the knee of Fig. 4.2: more capacity helps until the task's CPU side is the
 * bottleneck.
 */
public final class Estimator {
    private Estimator() {}

    /** Eq. 4.1 in seconds, for sizes in GB and per-task bandwidths in MB/s; {@code reduceExtraSec} per reduce wave. */
    public static double est(
            Cluster c, Job job, double bwMap, double bwShuffle, double bwReduce, double reduceExtraSec) {
        double mapWaves = Math.ceil((double) job.maps() / ((long) c.nVm() * c.mapSlotsPerVm()));
        double reduceWaves = Math.ceil((double) job.reduces() / ((long) c.nVm() * c.reduceSlotsPerVm()));
        double map = phase(mapWaves, job.inputGb() * 1024 / job.maps(), bwMap);
        double shuffle = phase(reduceWaves, job.interGb() * 1024 / job.reduces(), bwShuffle);
        double reduce =
                phase(reduceWaves, job.outputGb() * 1024 / job.reduces(), bwReduce) + reduceWaves * reduceExtraSec;
        return map + shuffle + reduce;
    }

    /** A phase with nothing to move takes no time, whatever the bandwidth (even none). */
    private static double phase(double waves, double chunkMb, double bw) {
        return chunkMb <= 0 ? 0 : waves * chunkMb / bw;
    }

    /** A task's bandwidth: its own processing rate, or its share of the VM's bandwidth on the tier if that is less. */
    public static double taskBandwidth(double rate, double tierBandwidthPerVm, int slotsPerVm) {
        return Math.min(rate, tierBandwidthPerVm / slotsPerVm);
    }

    /**
     * The job's runtime in seconds with its data on {@code tier} (per-VM bandwidth {@code bwData}) and its
     * intermediate data on a tier of per-VM bandwidth {@code bwInter}; all iterations, no transfers.
     */
    public static double runtimeSec(Cluster c, Job job, Tier tier, double bwData, double bwInter) {
        JobProfile p = job.profile();
        double once = est(
                c,
                job,
                taskBandwidth(p.mapRate(), bwData, c.mapSlotsPerVm()),
                taskBandwidth(p.shuffleRate(), bwInter, c.reduceSlotsPerVm()),
                taskBandwidth(p.reduceRate(), bwData, c.reduceSlotsPerVm()),
                p.filesPerReduceTask() * tier.perFileOverheadSec());
        return once * p.iterations();
    }

    /**
     * Seconds to copy {@code gb} between two tiers with the given per-VM bandwidths, by {@code tasks} parallel copy
     * tasks (the job's own tasks, as distcp would run them) in waves of one task per slot: a small job cannot use
     * the whole cluster's bandwidth to fetch its one split.
     */
    public static double transferSec(Cluster c, double gb, int tasks, double bwFrom, double bwTo) {
        if (gb <= 0) {
            return 0;
        }
        int slots = c.mapSlotsPerVm();
        double waves = Math.ceil((double) tasks / ((long) c.nVm() * slots));
        return waves * (gb * 1024 / tasks) / (Math.min(bwFrom, bwTo) / slots);
    }
}
