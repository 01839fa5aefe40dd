package io.locus.hdfs.cast.model;

/**
 * Why CAST places a job's data all on one tier (Yue Cheng's dissertation, §4.2.2, Fig. 4.5): a map wave ends with its
 * slowest task, and the scheduler does not group tasks by tier, so a wave holding one task on the slow tier runs at
 * the slow tier's speed. Splitting one job's input across a fast and a slow tier is then no faster than leaving all of
 * it on the slow tier, until the slow tier holds fewer tasks than there are waves.
 */
public final class Straggler {
    private Straggler() {}

    /**
     * The map phase in seconds with {@code fastShare} of the job's splits on a tier whose tasks read at {@code
     * fastTaskMbps} and the rest at {@code slowTaskMbps}; slow tasks spread over the waves.
     */
    public static double mapPhaseSec(Cluster c, Job job, double fastShare, double fastTaskMbps, double slowTaskMbps) {
        if (fastShare < 0 || fastShare > 1) {
            throw new IllegalArgumentException("fastShare must be in [0, 1], got " + fastShare);
        }
        long waves = (long) Math.ceil((double) job.maps() / ((long) c.nVm() * c.mapSlotsPerVm()));
        long slowTasks = job.maps() - Math.round(fastShare * job.maps());
        long slowWaves = Math.min(waves, slowTasks);
        double split = job.inputGb() * 1024 / job.maps();
        return slowWaves * split / slowTaskMbps + (waves - slowWaves) * split / fastTaskMbps;
    }
}
