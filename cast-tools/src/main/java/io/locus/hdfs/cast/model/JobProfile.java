package io.locus.hdfs.cast.model;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;

/**
 * An application type's row of the job model matrix M̂ (Table 4.3 of Yue Cheng's dissertation, §4.3.1).
 *
 * <p>The dissertation profiles each application on each cloud service and does not publish the numbers. Here a task's
 * bandwidth on a tier is {@code min(rate, tier bandwidth per VM / slots per VM)}: the rate is what the task can process
 * when storage is not the bottleneck (its CPU side), so a CPU-bound application (KMeans) is insensitive to the tier
 * and an I/O-bound one (Grep's map phase) follows the tier. The defaults reproduce the per-application winners of
 * Fig. 4.1 and the characterisation of Table 4.2.
 *
 * @param name application type ({@code Sort}, {@code Join}, {@code Grep}, {@code KMeans} or a user type)
 * @param interRatio intermediate data / input
 * @param outputRatio output / input
 * @param mapRate MB/s one map task processes when not I/O-bound
 * @param shuffleRate MB/s one shuffle (reduce-side fetch) task processes when not I/O-bound
 * @param reduceRate MB/s one reduce task processes when not I/O-bound
 * @param iterations times the job runs its map-shuffle-reduce pipeline over its input (iterative ML)
 * @param filesPerReduceTask small files each reduce task writes (what makes Join slow on the object store)
 */
public record JobProfile(
        String name,
        double interRatio,
        double outputRatio,
        double mapRate,
        double shuffleRate,
        double reduceRate,
        int iterations,
        int filesPerReduceTask) {

    public JobProfile {
        Objects.requireNonNull(name, "name");
        if (!(interRatio >= 0) || !(outputRatio >= 0)) {
            throw new IllegalArgumentException("profile " + name + ": ratios must be ≥ 0");
        }
        if (!(mapRate > 0) || !(shuffleRate > 0) || !(reduceRate > 0)) {
            throw new IllegalArgumentException("profile " + name + ": rates must be > 0");
        }
        if (iterations < 1 || filesPerReduceTask < 0) {
            throw new IllegalArgumentException("profile " + name + ": iterations ≥ 1, filesPerReduceTask ≥ 0");
        }
    }

    /** Sort: shuffle-bound, selectivity 1 (intermediate = output = input). */
    public static final JobProfile SORT = new JobProfile("Sort", 1.0, 1.0, 45, 45, 45, 1, 1);
    /** Join: shuffle- and reduce-bound; its reduce phase writes many small files. */
    public static final JobProfile JOIN = new JobProfile("Join", 1.0, 0.5, 40, 14, 14, 1, 40);
    /** Grep: map-bound; nearly nothing is shuffled or written. */
    public static final JobProfile GREP = new JobProfile("Grep", 0.01, 0.01, 80, 60, 60, 1, 1);
    /** KMeans: CPU-bound, three iterations over its input. */
    public static final JobProfile KMEANS = new JobProfile("KMeans", 0.05, 0.001, 6, 6, 6, 3, 1);

    /** The four applications of Table 4.2, by name, in the dissertation's order. */
    public static Map<String, JobProfile> defaults() {
        Map<String, JobProfile> m = new LinkedHashMap<>();
        for (JobProfile p : List.of(SORT, JOIN, GREP, KMEANS)) {
            m.put(p.name(), p);
        }
        return m;
    }
}
