package io.locus.hdfs.cast.model;

import java.util.Objects;

/**
 * One analytics job: its application type and data sizes (L̂_i of Table 4.3 in Yue Cheng's dissertation).
 *
 * @param id unique name (also the job's directory name when a plan is applied)
 * @param profile its application type
 * @param inputGb input read (GB)
 * @param interGb intermediate (shuffle) data (GB)
 * @param outputGb output written (GB)
 * @param maps map tasks (m_i)
 * @param reduces reduce tasks (r_i)
 * @param dataset id of the dataset it reads and other jobs read too (a CAST++ reuse group, Eq. 4.7), or null
 */
public record Job(
        String id,
        JobProfile profile,
        double inputGb,
        double interGb,
        double outputGb,
        int maps,
        int reduces,
        String dataset) {

    public Job {
        Objects.requireNonNull(id, "id");
        Objects.requireNonNull(profile, "profile");
        if (!(inputGb >= 0) || !(interGb >= 0) || !(outputGb >= 0)) {
            throw new IllegalArgumentException("job " + id + ": sizes must be ≥ 0");
        }
        if (maps < 1 || reduces < 1) {
            throw new IllegalArgumentException("job " + id + ": maps and reduces must be ≥ 1");
        }
    }

    /** A job of {@code maps} splits whose other sizes follow its profile's ratios (the dissertation's §4.4 setup). */
    public static Job ofMaps(String id, JobProfile profile, int maps, Cluster cluster, String dataset) {
        double input = maps * cluster.splitMb() / 1024.0;
        return new Job(
                id,
                profile,
                input,
                input * profile.interRatio(),
                input * profile.outputRatio(),
                maps,
                cluster.defaultReduces(maps),
                dataset);
    }

    /** Capacity the job needs on its tier with nothing shared (Eq. 4.3: c_i ≥ input + inter + output). */
    public double needGb() {
        return inputGb + interGb + outputGb;
    }
}
